package io.tessera.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What a command line that picocli cannot parse prints: one line naming what is wrong (an unknown option with the
 * closest known one, an unknown command, a missing option) and where the usage is, instead of the whole usage.
 * An unknown option is named even where picocli reports a missing required option first ({@code --database} for
 * {@code --db}): the misspelling is the cause.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {

    private final List<String> args;

    UsageErrors(List<String> args) {
        this.args = List.copyOf(args);
    }

    @Override
    public int handleParseException(ParameterException ex, String[] ignored) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(message(cmd.getCommandSpec(), ex.getMessage(), args));
        err.flush();
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** The line printed for a parse error of command {@code spec} reported as {@code picocliMessage}. */
    static String message(CommandSpec spec, String picocliMessage, List<String> args) {
        String name = spec.qualifiedName();
        String help = "'" + name + " --help' shows the usage";
        List<String> mine = argsOf(spec, args);
        if (!spec.subcommands().isEmpty() && spec.positionalParameters().isEmpty() && !mine.isEmpty()
                && !spec.subcommands().containsKey(mine.get(0)) && !mine.get(0).startsWith("-")) {
            String close = Suggestions.closest(mine.get(0), new ArrayList<>(spec.subcommands().keySet()));
            return name + ": unknown command '" + mine.get(0) + "'"
                    + (close != null ? "; did you mean '" + close + "'?" : "; " + help);
        }
        String unknown = firstUnknownOption(spec, mine);
        if (unknown != null) {
            String typed = unknown.contains("=") ? unknown.substring(0, unknown.indexOf('=')) : unknown;
            String close = Suggestions.closest(typed, optionNames(spec));
            return name + ": unknown option '" + typed + "'"
                    + (close != null ? "; did you mean '" + close + "'?" : "; " + help);
        }
        String text = picocliMessage == null ? "invalid command line" : picocliMessage.strip();
        if (!text.isEmpty()) {
            text = Character.toLowerCase(text.charAt(0)) + text.substring(1);
        }
        return name + ": " + text + " (" + help + ")";
    }

    /** The arguments after the names of {@code spec} and the commands above it. */
    static List<String> argsOf(CommandSpec spec, List<String> args) {
        List<String> path = new ArrayList<>();
        for (CommandSpec s = spec; s.parent() != null; s = s.parent()) {
            path.add(0, s.name());
        }
        int at = 0;
        for (String p : path) {
            int i = args.subList(at, args.size()).indexOf(p);
            if (i < 0) {
                return args.subList(at, args.size());
            }
            at += i + 1;
        }
        return args.subList(at, args.size());
    }

    /**
     * The first argument that looks like an option {@code spec} does not have, or null; the value of an option that
     * takes one is skipped (so {@code -c "--x"} is no option), and nothing after {@code --} is an option.
     */
    static String firstUnknownOption(CommandSpec spec, List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                return null;
            }
            if (!a.startsWith("-") || a.equals("-") || a.matches("-\\d.*")) {
                continue;
            }
            String key = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            OptionSpec o = spec.findOption(key);
            if (o == null) {
                return a;
            }
            if (!a.contains("=") && o.arity().min() > 0) {
                i += o.arity().min();
            }
        }
        return null;
    }

    private static List<String> optionNames(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                names.addAll(List.of(o.names()));
            }
        }
        return names;
    }
}
