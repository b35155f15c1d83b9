package io.tessera.backend;

/**
 * The two rules every code generator follows to keep user text out of the code it writes.
 *
 * <p>Nothing a user typed (a literal, a name, a LIKE pattern, a dictionary string) is ever written into generated
 * Java or CUDA as code: constants are bound at run time as values (a constants array on the JVM, kernel parameters on
 * the GPU). The only user text in a generated source is in comments, and every comment goes through
 * {@link #comment}, which admits a small set of characters that cannot end a comment or change what follows it: no
 * line breaks, no backslash (a {@code \u000a} that Janino would turn into a line break, a line continuation in C),
 * no slash (no {@code *}{@code /} and no {@code //}) and no question mark (no C trigraph).
 *
 * <p>{@link #withoutComments} gives a source without its comments, so that code caches key on the code alone:
 * queries that differ only in their constants share one compiled class or kernel.
 */
public final class GeneratedSource {

    /** Longest comment text kept; the rest is cut and marked. */
    static final int MAX_COMMENT = 400;

    private GeneratedSource() {
    }

    /** Comment text made safe: each character outside the admitted set becomes {@code _}, and long text is cut. */
    public static String comment(Object text) {
        String s = String.valueOf(text);
        int n = Math.min(s.length(), MAX_COMMENT);
        StringBuilder sb = new StringBuilder(n + 4);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            sb.append(admitted(c) ? c : '_');
        }
        if (s.length() > MAX_COMMENT) {
            sb.append(" ...");
        }
        return sb.toString();
    }

    /** Letters, digits, the space and punctuation that means nothing inside a line comment of Java or C. */
    static boolean admitted(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        return switch (c) {
            case ' ', '_', '.', ',', ':', ';', '(', ')', '[', ']', '{', '}', '<', '>', '=', '!', '+', '-', '*', '%',
                 '&', '|', '#', '@', '^', '~', '$', '\'' -> true;
            default -> false;
        };
    }

    /**
     * The source without its comments ({@code //} to the end of the line, {@code /*} to its end), string and
     * character literals read as Java and C read them, and without the lines left blank: two sources that differ only
     * in their comments give the same text.
     */
    public static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int n = source.length();
        int i = 0;
        while (i < n) {
            char c = source.charAt(i);
            if (c == '"' || c == '\'') {
                int end = endOfQuoted(source, i, c);
                out.append(source, i, end);
                i = end;
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                int eol = source.indexOf('\n', i);
                i = eol < 0 ? n : eol;
                trimTrailingBlanks(out);
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int close = source.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
                out.append(' ');
            } else {
                out.append(c);
                i++;
            }
        }
        return withoutBlankLines(out);
    }

    private static String withoutBlankLines(CharSequence text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (String line : text.toString().split("\n", -1)) {
            if (!line.isBlank()) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    /** The index just past the literal that opens at {@code start} with {@code quote}. */
    private static int endOfQuoted(String s, int start, char quote) {
        int i = start + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote || c == '\n') {
                return i + 1;
            } else {
                i++;
            }
        }
        return s.length();
    }

    private static void trimTrailingBlanks(StringBuilder sb) {
        int k = sb.length();
        while (k > 0 && sb.charAt(k - 1) == ' ') {
            k--;
        }
        sb.setLength(k);
    }
}
