package io.tessera.storage;

/**
 * The order of a histogram's raw values and where a value lies between two others, for {@link Histogram}'s
 * estimates. Numbers compare as numbers (two integral values exactly as longs, any other pair as doubles with -0.0
 * equal to 0.0 and NaN above +Infinity, as {@link Double#compare} and DuckDB order them); strings by code point
 * ({@link CodePointOrder}). A number never compares with a string.
 */
final class HistogramAxis {

    /** Code points of a string's tail that place it between two bounds. */
    private static final int PLACES = 8;

    private HistogramAxis() {
    }

    static int compare(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            return CodePointOrder.compare(x, y);
        }
        if (a instanceof String || b instanceof String) {
            throw new IllegalArgumentException("cannot compare " + a + " with " + b + ": one is a string");
        }
        if (isIntegral(a) && isIntegral(b)) {
            return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        }
        return Double.compare(toDouble(a), toDouble(b));
    }

    /** True for a number that holds an integer (a Long, Integer, Short or Byte, or a double with no fraction). */
    static boolean holdsInteger(Object v) {
        if (isIntegral(v)) {
            return true;
        }
        double d = ((Number) v).doubleValue();
        return d == Math.rint(d) && !Double.isInfinite(d);
    }

    private static boolean isIntegral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }

    private static double toDouble(Object v) {
        double d = ((Number) v).doubleValue();
        return d == 0.0 ? 0.0 : d;
    }

    /**
     * Where {@code x} lies between {@code from} and {@code to} ({@code from < to}), as a fraction in [0, 1]: linear
     * for numbers, and for strings linear in the first code points after the bounds' common prefix, read as digits
     * of a number. NaN where no position can be told (an infinite or NaN bound).
     */
    static double position(Object from, Object to, Object x) {
        if (from instanceof String a && to instanceof String b && x instanceof String v) {
            return textPosition(a, b, v);
        }
        double a = toDouble(from);
        double b = toDouble(to);
        double v = toDouble(x);
        if (!Double.isFinite(a) || !Double.isFinite(b) || !Double.isFinite(v)) {
            return Double.NaN;
        }
        double width = b / 2 - a / 2; // halves: the width of two large bounds of opposite sign stays finite
        if (!(width > 0)) {
            return Double.NaN;
        }
        return Math.clamp((v / 2 - a / 2) / width, 0.0, 1.0);
    }

    /**
     * Strings are read as numbers in [0, 1): after the common prefix of the two bounds, each code point is a digit in
     * a base that spans the code points of the bounds' tails, widened to all digits, all lower-case or all upper-case
     * letters where one of them is there (so that "0937" to "1015" read as the numbers they spell). A code point of
     * {@code x} outside the span counts as its nearest end, which keeps the order; the end of a string adds nothing.
     */
    private static double textPosition(String from, String to, String x) {
        int common = 0;
        int n = Math.min(from.length(), to.length());
        while (common < n && from.charAt(common) == to.charAt(common)) {
            common++;
        }
        if (common > 0 && Character.isHighSurrogate(from.charAt(common - 1))) {
            common--; // never split a character's two halves
        }
        if (!x.startsWith(from.substring(0, common))) {
            return Double.NaN; // not between the bounds
        }
        int[] a = tail(from, common);
        int[] b = tail(to, common);
        int low = Integer.MAX_VALUE;
        int high = Integer.MIN_VALUE;
        for (int[] t : new int[][] {a, b}) {
            for (int c : t) {
                int[] span = c >= '0' && c <= '9' ? new int[] {'0', '9'} : c >= 'a' && c <= 'z' ? new int[] {'a', 'z'}
                        : c >= 'A' && c <= 'Z' ? new int[] {'A', 'Z'} : new int[] {c, c};
                low = Math.min(low, span[0]);
                high = Math.max(high, span[1]);
            }
        }
        if (low > high) {
            return Double.NaN; // both bounds end where they agree: equal
        }
        double base = high - low + 1.0;
        double va = digits(a, low, high, base);
        double vb = digits(b, low, high, base);
        double vx = digits(tail(x, common), low, high, base);
        return vb > va ? Math.clamp((vx - va) / (vb - va), 0.0, 1.0) : Double.NaN;
    }

    private static int[] tail(String s, int from) {
        return s.substring(from).codePoints().limit(PLACES).toArray();
    }

    private static double digits(int[] codePoints, int low, int high, double base) {
        double v = 0;
        double scale = 1;
        for (int c : codePoints) {
            scale /= base;
            v += (Math.clamp(c, low, high) - low) * scale;
        }
        return v;
    }

    /**
     * The least string above every string that starts with {@code prefix}: its last code point that can grow, one
     * higher (skipping the surrogates' range), with what followed it dropped; null when no code point can grow.
     */
    static String prefixEnd(String prefix) {
        int[] cps = prefix.codePoints().toArray();
        for (int k = cps.length - 1; k >= 0; k--) {
            int c = cps[k];
            if (c < Character.MAX_CODE_POINT) {
                int next = c + 1 == Character.MIN_SURROGATE ? Character.MAX_SURROGATE + 1 : c + 1;
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < k; i++) {
                    b.appendCodePoint(cps[i]);
                }
                return b.appendCodePoint(next).toString();
            }
        }
        return null;
    }
}
