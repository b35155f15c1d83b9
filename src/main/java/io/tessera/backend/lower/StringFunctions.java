package io.tessera.backend.lower;

/**
 * The string functions that never fail and never make a string longer than their arguments together, by DuckDB's
 * rules over code points: UPPER, LOWER, TRIM, LEFT, RIGHT and CONCAT. The JVM backend's run time calls them for each
 * row, the CUDA backend once per code of a dictionary (a string function of one dictionary column computed on the
 * host as a map from the column's codes to the codes of its results). SUBSTRING and LENGTH are {@link Substrings}.
 */
public final class StringFunctions {

    private StringFunctions() {
    }

    /**
     * UPPER: each code point mapped on its own, as DuckDB maps it ('ß' to 'ẞ', where Java's full mapping would give
     * "SS" and change the length).
     */
    public static String upper(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            sb.appendCodePoint(c == 0xDF ? 0x1E9E : Character.toUpperCase(c));
        }
        return sb.toString();
    }

    /** LOWER: each code point mapped on its own ('İ' to 'i', where Java's full mapping adds a combining dot). */
    public static String lower(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            sb.appendCodePoint(Character.toLowerCase(c));
        }
        return sb.toString();
    }

    /** Trims from the left (mode 1), the right (2) or both ends (3) every code point that is one of chars. */
    public static String trim(String s, String chars, int mode) {
        int begin = 0;
        int end = s.length();
        if ((mode & 1) != 0) {
            while (begin < end && chars.indexOf(s.codePointAt(begin)) >= 0) {
                begin += Character.charCount(s.codePointAt(begin));
            }
        }
        if ((mode & 2) != 0) {
            while (end > begin && chars.indexOf(s.codePointBefore(end)) >= 0) {
                end -= Character.charCount(s.codePointBefore(end));
            }
        }
        return s.substring(begin, end);
    }

    /** LEFT(s, n): the first n code points; a negative n leaves out the last -n. */
    public static String left(String s, long n) {
        long size = Substrings.length(s);
        long keep = n >= 0 ? Math.min(n, size) : Math.max(0, size + Math.max(n, -size));
        return s.substring(0, Substrings.offset(s, keep));
    }

    /** RIGHT(s, n): the last n code points; a negative n leaves out the first -n. */
    public static String right(String s, long n) {
        long size = Substrings.length(s);
        long skip = n >= 0 ? Math.max(0, size - n) : Math.min(size, -Math.max(n, -size));
        return s.substring(Substrings.offset(s, skip));
    }

    /** CONCAT_WS (CONCAT with an empty separator): the non-null parts joined by the separator. */
    public static String concatWs(String separator, String... parts) {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (String p : parts) {
            if (p != null) {
                if (!first) {
                    sb.append(separator);
                }
                sb.append(p);
                first = false;
            }
        }
        return sb.toString();
    }
}
