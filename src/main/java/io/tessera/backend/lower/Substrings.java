package io.tessera.backend.lower;

/**
 * SUBSTRING and LENGTH by DuckDB's rules, over code points (a character above U+FFFF counts once): the JVM backend's
 * run time calls them for each row, the CUDA backend once per code of a dictionary (a condition over one dictionary
 * column computed on the host as a mask of codes). Bounds outside {@link #MAX_POSITION} are the caller's to refuse.
 */
public final class Substrings {

    /** The largest start or length SUBSTRING takes, as in DuckDB (which fails beyond it). */
    public static final long MAX_POSITION = 4_294_967_295L;

    private Substrings() {
    }

    /** Whether a start or length is one SUBSTRING takes. */
    public static boolean inRange(long v) {
        return v <= MAX_POSITION && v >= -MAX_POSITION;
    }

    /** The number of code points of s. */
    public static long length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** The UTF-16 index of code point {@code cp} of s (clamped to the string's length). */
    public static int offset(String s, long cp) {
        if (cp <= 0) {
            return 0;
        }
        int n = s.length();
        if (cp >= n) {
            // at least as many code points asked as there are units: the whole string, or clamp by counting
            long total = length(s);
            return cp >= total ? n : s.offsetByCodePoints(0, (int) cp);
        }
        int i = 0;
        for (long k = 0; k < cp && i < n; k++) {
            i += Character.charCount(s.codePointAt(i));
        }
        return i;
    }

    /**
     * SUBSTRING(s, start, length), both {@link #inRange}: the code points at positions [start, start + length) of
     * those at 1..size; a start of 0 is the position before the first, a negative start counts back from the end (-1
     * is the last), and a negative length takes the positions [start + length, start) before the start.
     */
    public static String of(String s, long start, long length) {
        long size = length(s);
        // the code points at positions 1..size; the start's position (a negative one counts back from size + 1)
        long p = start > 0 ? start : start == 0 ? 0 : size + 1 + start;
        long lo = length >= 0 ? p : p + length;
        long hi = length >= 0 ? p + length : p;
        long from = Math.max(lo, 1) - 1;
        long to = Math.min(hi, size + 1) - 1;
        if (from >= to) {
            return "";
        }
        return s.substring(offset(s, from), offset(s, to));
    }
}
