package io.tessera.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A command line of the shell or a script rather than SQL: a backslash command as psql has them ({@code \d T},
 * {@code \i file}) or one of DuckDB's dot commands ({@code .tables}, {@code .read file}), which are aliases of the
 * backslash commands. {@code name} is the backslash name every alias maps to; {@code argument} is the rest of the
 * line, trimmed (a file name may be quoted with ' or "), or null when there is none.
 */
record ShellCommand(String name, String argument, String typed) {

    /** Every command, by its backslash name, as {@code \help} lists and completion offers them. */
    static final List<String> NAMES = List.of("\\d", "\\dt", "\\dv", "\\tables", "\\schema", "\\format", "\\x",
            "\\timing", "\\i", "\\o", "\\maxrows", "\\help", "\\?", "\\q", "\\quit");

    /** DuckDB's dot commands and the backslash command each stands for. */
    static final Map<String, String> DOT_ALIASES = Map.ofEntries(
            Map.entry(".tables", "\\tables"),
            Map.entry(".schema", "\\schema"),
            Map.entry(".mode", "\\format"),
            Map.entry(".read", "\\i"),
            Map.entry(".output", "\\o"),
            Map.entry(".once", "\\o"),
            Map.entry(".timer", "\\timing"),
            Map.entry(".maxrows", "\\maxrows"),
            Map.entry(".help", "\\help"),
            Map.entry(".quit", "\\q"),
            Map.entry(".exit", "\\q"));

    /** Other spellings of backslash commands. */
    private static final Map<String, String> SYNONYMS = Map.of("\\dt", "\\tables", "\\quit", "\\q", "\\?", "\\help",
            "\\h", "\\help", "\\include", "\\i", "\\out", "\\o");

    /**
     * Whether {@code line} is a command: it starts with a backslash, or with a dot and a letter (no SQL statement
     * starts so). A line inside a statement being typed (after an unfinished line) is a command only when it starts
     * with a backslash or names a dot command there is: {@code .5} or {@code .col} may continue a statement.
     */
    static boolean isCommand(String line, boolean insideStatement) {
        String s = line.strip();
        if (s.startsWith("\\")) {
            return true;
        }
        if (s.length() < 2 || s.charAt(0) != '.' || !Character.isLetter(s.charAt(1))) {
            return false;
        }
        return !insideStatement || DOT_ALIASES.containsKey(firstWord(s).toLowerCase(Locale.ROOT));
    }

    /** The command on {@code line}, which {@link #isCommand} accepted. */
    static ShellCommand parse(String line) {
        String s = line.strip();
        String word = firstWord(s);
        String rest = s.substring(word.length()).strip();
        String name = word.toLowerCase(Locale.ROOT);
        if (name.startsWith(".")) {
            name = DOT_ALIASES.getOrDefault(name, name);
        }
        name = SYNONYMS.getOrDefault(name, name);
        return new ShellCommand(name, rest.isEmpty() ? null : unquote(rest), word);
    }

    /** The argument split at blanks (for commands that take words, not a file name). */
    List<String> words() {
        List<String> w = new ArrayList<>();
        if (argument != null) {
            for (String p : argument.split("\\s+")) {
                if (!p.isEmpty()) {
                    w.add(p);
                }
            }
        }
        return w;
    }

    /** The known command closest to a mistyped one, for "did you mean", or null. */
    String suggestion() {
        List<String> known = new ArrayList<>(typed.startsWith(".") ? DOT_ALIASES.keySet() : NAMES);
        known.sort(null);
        return Suggestions.closest(typed.toLowerCase(Locale.ROOT), known);
    }

    private static String firstWord(String s) {
        int end = 1;
        while (end < s.length() && !Character.isWhitespace(s.charAt(end))) {
            end++;
        }
        return s.substring(0, end);
    }

    /** Text in matching single or double quotes without them (a doubled quote inside is one); else as it is. */
    static String unquote(String s) {
        if (s.length() >= 2 && (s.charAt(0) == '\'' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
            String q = String.valueOf(s.charAt(0));
            return s.substring(1, s.length() - 1).replace(q + q, q);
        }
        return s;
    }
}
