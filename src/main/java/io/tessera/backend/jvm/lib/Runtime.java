package io.tessera.backend.jvm.lib;

import io.tessera.storage.CodePointOrder;
import io.tessera.storage.Dictionary;
import io.tessera.storage.Values;

import java.time.LocalDate;
import java.util.regex.Pattern;

/** Helpers that generated code calls for what is not worth writing inline. */
public final class Runtime {
    private Runtime() {
    }

    /**
     * A DATE plus months, as DuckDB adds an interval to a DATE: a TIMESTAMP's arithmetic, so that the DATE and the
     * result must lie in TIMESTAMP's range (DuckDB's error says so).
     */
    public static int addMonths(int days, long months) {
        long result;
        try {
            result = LocalDate.ofEpochDay(days).plusMonths(months).toEpochDay();
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException(OUTSIDE_TIMESTAMPS, e);
        }
        if (!TimestampRuntime.holds(days) || !TimestampRuntime.holds(result)) {
            throw new IllegalArgumentException(OUTSIDE_TIMESTAMPS);
        }
        return (int) result;
    }

    /** DuckDB's error for a DATE plus an interval, or a TIMESTAMP's arithmetic, past TIMESTAMP's range. */
    static final String OUTSIDE_TIMESTAMPS = "Date and time not in timestamp range";

    /** A DATE plus days, within DATE's range (5877642-06-25 (BC) to 5881580-07-10). */
    public static int addDays(int days, long n) {
        long result = days + n;
        if (result < Values.MIN_DATE || result > Values.MAX_DATE) {
            throw new IllegalArgumentException("date out of range: " + io.tessera.storage.Timestamps.formatDate(days)
                    + (n < 0 ? " - " + -n : " + " + n) + " days");
        }
        return (int) result;
    }

    /**
     * For each code of the dictionary, whether its string matches the pattern. A dictionary is sorted, so the
     * strings starting with the pattern's leading literal are one range of codes, found by two binary searches:
     * only that range is tested ({@code 'forest%'} over 200,000 part names decodes about 40 strings, not all). The
     * mask is kept for the next query over the same dictionary and pattern ({@link LikeMasks}): never write to it.
     */
    public static boolean[] likeMask(Dictionary d, String regex) {
        return LikeMasks.of(d, regex, () -> newLikeMask(d, regex));
    }

    private static boolean[] newLikeMask(Dictionary d, String regex) {
        boolean[] m = new boolean[d.size()];
        LikeSegments segments = LikeSegments.of(regex);
        Pattern p = segments == null ? Pattern.compile(regex, Pattern.DOTALL) : null;
        int first = 0;
        int end = m.length;
        String prefix = segments == null ? "" : segments.prefix();
        if (!prefix.isEmpty() && wholeCodePoints(prefix)) {
            first = d.lowerBound(prefix);
            end = prefixEnd(d, prefix, first);
            if (segments.onlyPrefix()) {
                java.util.Arrays.fill(m, first, end, true);
                return m;
            }
        }
        // a dictionary may hold millions of strings (TPC-H's comments): its values tested on all cores, in ranges
        int from = first;
        int n = end - first;
        int ranges = Math.max(1, Math.min(n / LIKE_RANGE, 4 * java.lang.Runtime.getRuntime().availableProcessors()));
        java.util.stream.IntStream.range(0, ranges).parallel().forEach(r -> {
            int to = from + (int) ((long) n * (r + 1) / ranges);
            for (int i = from + (int) ((long) n * r / ranges); i < to; i++) {
                String v = d.value(i);
                m[i] = segments != null ? segments.matches(v) : p.matcher(v).matches();
            }
        });
        return m;
    }

    /** Whether {@code s} has no surrogate outside a pair (a prefix ending in half a pair is no range of codes). */
    private static boolean wholeCodePoints(String s) {
        return s.codePoints().noneMatch(c -> c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE);
    }

    /**
     * The first code at or after {@code first} whose string does not start with {@code prefix}, where the codes
     * from {@code first} on that do are one run (the dictionary's order is by code point, and the prefix is whole
     * code points, so the strings that start with it come together).
     */
    private static int prefixEnd(Dictionary d, String prefix, int first) {
        int lo = first;
        int hi = d.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (d.value(mid).startsWith(prefix)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The fewest dictionary values a range of {@link #likeMask} tests: below it, one thread does them all. */
    private static final int LIKE_RANGE = 16_384;

    /** Which codes of a dictionary are one of these strings (an IN list over a dictionary column). */
    public static boolean[] inMask(Dictionary d, String[] values) {
        boolean[] m = new boolean[d.size()];
        for (String v : values) {
            int code = d.code(v);
            if (code >= 0) {
                m[code] = true;
            }
        }
        return m;
    }

    /**
     * Ranks of two dictionaries' codes in their merged order, so codes of different dictionaries compare as their
     * strings do: result[0][codeA] vs result[1][codeB].
     */
    public static int[][] mergedRanks(Dictionary a, Dictionary b) {
        int na = a.size();
        int nb = b.size();
        // at least one entry: a NULL's placeholder code (0) is looked up too, even in an empty dictionary
        int[] ra = new int[Math.max(1, na)];
        int[] rb = new int[Math.max(1, nb)];
        int i = 0;
        int j = 0;
        int rank = 0;
        while (i < na || j < nb) {
            int c = i >= na ? 1 : j >= nb ? -1 : CodePointOrder.compare(a.value(i), b.value(j));
            if (c == 0) {
                ra[i++] = rank;
                rb[j++] = rank;
            } else if (c < 0) {
                ra[i++] = rank;
            } else {
                rb[j++] = rank;
            }
            rank++;
        }
        return new int[][] {ra, rb};
    }

    /**
     * For each code of {@code from}, the code of the same string in {@code to}, or -1. At least one entry: generated
     * code maps a NULL row's code (0) before it tests the row for NULL, and the column of an empty dictionary holds
     * only NULLs.
     */
    public static int[] codeMap(Dictionary from, Dictionary to) {
        int[] m = new int[Math.max(1, from.size())];
        m[0] = -1;
        for (int i = 0; i < from.size(); i++) {
            m[i] = to.code(from.value(i));
        }
        return m;
    }

    public static ArithmeticException divisionByZero() {
        return new ArithmeticException("division by zero");
    }

    /** SQL division of integers: truncated toward zero; by zero, or the smallest value by -1, an error. */
    public static long div(long a, long b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return Math.divideExact(a, b);
    }

    /** SQL division of integers: truncated toward zero; by zero, or the smallest value by -1, an error. */
    public static int div(int a, int b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return Math.divideExact(a, b);
    }

    public static long mod(long a, long b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return a % b;
    }

    public static int mod(int a, int b) {
        if (b == 0) {
            throw divisionByZero();
        }
        return a % b;
    }

    /** Rescales an unscaled decimal by 10^shift (shift may be negative: rounds half away from zero). */
    public static long rescale(long v, int shift) {
        if (shift >= 0) {
            return Math.multiplyExact(v, Values.pow10(shift));
        }
        long p = Values.pow10(-shift);
        long q = v / p;
        long r = v % p;
        if (Math.abs(r) * 2 >= p) {
            q += v < 0 ? -1 : 1;
        }
        return q;
    }

    /**
     * The error of a CAST or store whose value does not fit its target type: names the value and the type, such as
     * {@code value 70000 is out of range for SMALLINT}.
     */
    public static ArithmeticException outOfRange(String value, String type) {
        return new ArithmeticException(Values.outOfRangeMessage(value, type));
    }

    /**
     * DOUBLE to an integer type, rounding half to even (as DuckDB and PostgreSQL do), failing on NaN, infinities and
     * values that do not fit.
     */
    public static long doubleToLong(double d, long min, long max, String type) {
        double r = Math.rint(d);
        // (double) Long.MAX_VALUE rounds up to 2^63, so the upper bound is exclusive at max + 1
        if (!(r >= (double) min && r < (double) max + 1.0)) {
            throw outOfRange(Double.toString(d), type);
        }
        return (long) r;
    }

    private static double roundHalfAway(double d) {
        double r = Math.rint(d);
        if (Math.abs(d - Math.floor(d) - 0.5) == 0) {
            r = d < 0 ? Math.floor(d) : Math.ceil(d);
        }
        return r;
    }

    /** A value checked against an integer type's range. */
    public static long checkRange(long v, long min, long max, String type) {
        if (v < min || v > max) {
            throw outOfRange(Long.toString(v), type);
        }
        return v;
    }

    /** An unscaled decimal at {@code scale} to an integer type, rounding half away from zero, checked. */
    public static long decimalToLong(long unscaled, int scale, long min, long max, String type) {
        long v = rescale(unscaled, -scale);
        if (v < min || v > max) {
            throw outOfRange(Values.formatDecimal(unscaled, scale), type);
        }
        return v;
    }

    /** An integer to DECIMAL(precision, scale): fails unless |v| has at most precision - scale digits. */
    public static long longToDecimal(long v, int precision, int scale, String type) {
        long limit = Values.pow10(precision - scale);
        if (v <= -limit || v >= limit) {
            throw outOfRange(Long.toString(v), type);
        }
        return v * Values.pow10(scale);
    }

    /** DECIMAL(_, fromScale) to DECIMAL(precision, scale), rounding half away from zero where the scale drops. */
    public static long decimalToDecimal(long unscaled, int fromScale, int precision, int scale, String type) {
        long limit = Values.pow10(precision);
        long v;
        if (scale >= fromScale) {
            long f = Values.pow10(scale - fromScale);
            if (Math.abs(unscaled) >= (limit + f - 1) / f) {
                throw outOfRange(Values.formatDecimal(unscaled, fromScale), type);
            }
            v = unscaled * f;
        } else {
            v = rescale(unscaled, scale - fromScale);
        }
        if (v <= -limit || v >= limit) {
            throw outOfRange(Values.formatDecimal(unscaled, fromScale), type);
        }
        return v;
    }

    /** DOUBLE to DECIMAL(precision, scale), rounding half away from zero; NaN, infinities and overflow fail. */
    public static long doubleToDecimal(double d, int precision, int scale, String type) {
        double r = roundHalfAway(d * Values.pow10(scale));
        double limit = (double) Values.pow10(precision);
        if (!(r > -limit && r < limit)) {
            throw outOfRange(Double.toString(d), type);
        }
        return (long) r;
    }

    public static String decimalToString(long unscaled, int scale) {
        return Values.formatDecimal(unscaled, scale);
    }

    public static String dateToString(int days) {
        return io.tessera.storage.Timestamps.formatDate(days);
    }

    public static String doubleToString(double d) {
        return TextRuntime.doubleText(d);
    }

    /** A string to an integer type: text that is not an integer is invalid; one that does not fit is out of range. */
    public static long parseLong(String s, long min, long max, String type) {
        String t = s.trim();
        long v;
        try {
            v = Values.parseLong(t, Long.MIN_VALUE, Long.MAX_VALUE, type);
        } catch (IllegalArgumentException e) {
            if (t.matches("[+-]?[0-9]+")) {
                throw outOfRange(t, type);
            }
            java.math.BigInteger other = IntegerText.value(s, t); // 0x1F, 1_000, 2.5, 1e3 as DuckDB reads them
            if (other == null) {
                throw e;
            }
            if (other.bitLength() > 63) {
                throw outOfRange(t, type);
            }
            v = other.longValue();
        }
        if (v < min || v > max) {
            throw outOfRange(t, type);
        }
        return v;
    }

    private static final java.util.regex.Pattern DECIMAL_TEXT =
            java.util.regex.Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    public static double parseDouble(String s) {
        String t = s.trim();
        // DuckDB's words for the special values, in any case; Java's own spellings (1.5d, hexadecimal) are no number
        Double special = Values.specialDouble(t);
        if (special != null) {
            return special;
        }
        // a finite number too large for a double, such as 1e400, is an infinity, as in DuckDB
        return Double.parseDouble(numberText(s, t));
    }

    /**
     * Text read as a REAL: the number's nearest float, read from the digits at once (no double between), infinity
     * beyond float's range ({@code '1e40'}), as DuckDB reads it; the same forms as {@link #parseDouble}.
     */
    public static double parseReal(String s) {
        String t = s.trim();
        Double special = Values.specialDouble(t);
        if (special != null) {
            return special;
        }
        return Float.parseFloat(numberText(s, t));
    }

    /** The trimmed text {@code t} of {@code s} as Java reads the number it is, or an error naming {@code s}. */
    private static String numberText(String s, String t) {
        if (!DECIMAL_TEXT.matcher(t).matches()) {
            String grouped = ungrouped(t);
            if (grouped == null || !DECIMAL_TEXT.matcher(grouped).matches()) {
                throw new IllegalArgumentException("invalid number '" + s + "'");
            }
            t = grouped;
        }
        return t;
    }

    /**
     * Digits grouped by single underscores ({@code 1_000.5}), which DuckDB's CAST of text to a number reads, without
     * them; null where the text has no such groups (an underscore first, last, doubled or beside no digit).
     */
    private static String ungrouped(String t) {
        return t.indexOf('_') >= 0 && GROUPED.matcher(t).matches() ? t.replace("_", "") : null;
    }

    private static final java.util.regex.Pattern GROUPED =
            java.util.regex.Pattern.compile("[+-]?(?:[0-9]+(?:_[0-9]+)*)?(?:\\.(?:[0-9]+(?:_[0-9]+)*)?)?(?:[eE][+-]?[0-9]+)?");

    public static long parseDecimal(String s, int precision, int scale) {
        String t = s.trim();
        String grouped = ungrouped(t);
        if (grouped != null) {
            t = grouped;
        }
        try {
            return Values.parseDecimal(t, precision, scale);
        } catch (RuntimeException strict) {
            // more fractional digits than the scale: CAST rounds them half away from zero, as DuckDB does
            java.math.BigDecimal v;
            try {
                v = new java.math.BigDecimal(t);
            } catch (NumberFormatException notANumber) {
                throw strict;
            }
            // digits before the point beyond the precision, or a value below half a unit of the scale, are decided
            // before rounding (an exponent such as 1e999999999 must not build its number)
            int magnitude = v.precision() - v.scale();
            if (v.signum() != 0 && magnitude > precision - scale) {
                throw outOfRange(t, "DECIMAL(" + precision + "," + scale + ")");
            }
            if (magnitude < -scale - 1) {
                return 0;
            }
            java.math.BigInteger r = v.setScale(scale, java.math.RoundingMode.HALF_UP).unscaledValue();
            if (r.abs().compareTo(java.math.BigInteger.TEN.pow(precision)) >= 0) {
                throw outOfRange(t, "DECIMAL(" + precision + "," + scale + ")");
            }
            return r.longValueExact();
        }
    }

    public static int parseDate(String s) {
        String t = s.trim();
        try {
            return Values.parseDate(t);
        } catch (IllegalArgumentException e) {
            Integer special = DuckDbDates.special(t);
            if (special != null) {
                return special;
            }
            Integer other; // 2024/1/1, 2024-01-01 10:00:00 as DuckDB reads them
            try {
                other = DateTimeText.days(t);
            } catch (RuntimeException notThat) {
                throw e;
            }
            if (other == null) {
                throw e;
            }
            return other;
        }
    }

    // ---- numeric functions ----

    /**
     * An exact number (unscaled) divided by 10^drop, rounded half away from zero (mode 0, ROUND), down (-1, FLOOR),
     * up (1, CEIL), toward zero (2, TRUNC) or half to even (3, ROUND_EVEN), then multiplied by 10^multiply; a result
     * beyond +-limit is an overflow.
     */
    public static long round(long v, int drop, int multiply, int mode, long limit) {
        String fn = mode == 0 ? "ROUND" : mode == 2 ? "TRUNC" : mode == 3 ? "ROUND_EVEN" : mode < 0 ? "FLOOR" : "CEIL";
        if (drop > 18 || multiply > 18) {
            java.math.RoundingMode rm = mode == 0 ? java.math.RoundingMode.HALF_UP
                    : mode == 3 ? java.math.RoundingMode.HALF_EVEN
                    : mode == 2 ? java.math.RoundingMode.DOWN
                    : mode < 0 ? java.math.RoundingMode.FLOOR : java.math.RoundingMode.CEILING;
            java.math.BigDecimal r = java.math.BigDecimal.valueOf(v).scaleByPowerOfTen(-drop).setScale(0, rm)
                    .scaleByPowerOfTen(multiply);
            if (r.abs().compareTo(java.math.BigDecimal.valueOf(limit)) > 0) {
                throw new ArithmeticException("numeric overflow in " + fn);
            }
            return r.longValueExact();
        }
        long q = v;
        if (drop > 0) {
            long p = Values.pow10(drop);
            q = v / p;
            long r = v % p;
            if (r != 0 && mode != 2) { // Java's division already truncates
                if (mode == 0 || mode == 3) {
                    long rest = p - Math.abs(r);
                    if (Math.abs(r) > rest || Math.abs(r) == rest && (mode == 0 || q % 2 != 0)) {
                        q += v < 0 ? -1 : 1;
                    }
                } else if (mode < 0 ? r < 0 : r > 0) {
                    q += mode;
                }
            }
        }
        long m;
        try {
            m = multiply == 0 ? q : Math.multiplyExact(q, Values.pow10(multiply));
        } catch (ArithmeticException e) {
            throw new ArithmeticException("numeric overflow in " + fn);
        }
        if (m > limit || m < -limit) {
            throw new ArithmeticException("numeric overflow in " + fn);
        }
        return m;
    }

    /** TRUNC of a DOUBLE to digits after the point (before it when negative), toward zero, as DuckDB computes it. */
    public static double trunc(double x, int digits) {
        if (digits == 0 || !Double.isFinite(x)) {
            return digits == 0 ? (x < 0 ? Math.ceil(x) : Math.floor(x)) : x;
        }
        double m = Math.pow(10, Math.abs(digits));
        double r = digits > 0 ? trunc(x * m, 0) / m : trunc(x / m, 0) * m;
        return Double.isInfinite(r) || Double.isNaN(r) ? (digits > 0 ? x : 0) : r;
    }

    /** ROUND of a DOUBLE to an integer, half away from zero (C's round, as DuckDB computes it). */
    public static double round(double x) {
        if (!Double.isFinite(x)) {
            return x;
        }
        double a = Math.abs(x);
        double t = Math.floor(a);
        if (a - t >= 0.5) {
            t += 1;
        }
        return Math.copySign(t, x);
    }

    /** ROUND of a DOUBLE to digits after the point (before it when negative), as DuckDB computes it. */
    public static double round(double x, int digits) {
        if (digits < 0) {
            double m = Math.pow(10, -digits);
            double r = round(x / m) * m;
            return Double.isInfinite(r) || Double.isNaN(r) ? 0 : r;
        }
        double m = Math.pow(10, digits);
        double r = round(x * m) / m;
        return Double.isInfinite(r) || Double.isNaN(r) ? x : r;
    }

    /**
     * ROUND_EVEN of a DOUBLE to digits after the point (before it when negative), ties to the even neighbour, as
     * DuckDB computes it: the value scaled by the power of ten, rounded, scaled back (an infinite or NaN step gives
     * 0 before the point, the value itself after it).
     */
    public static double roundEven(double x, int digits) {
        if (digits < 0) {
            double m = Math.pow(10, -digits);
            double r = Math.rint(x / m) * m;
            return Double.isInfinite(r) || Double.isNaN(r) ? 0 : r;
        }
        double m = Math.pow(10, digits);
        double r = Math.rint(x * m) / m;
        return Double.isInfinite(r) || Double.isNaN(r) ? x : r;
    }

    /** SIGN of a DOUBLE: -1, 0 or 1 (0 for NaN, as DuckDB). */
    public static int sign(double x) {
        return x > 0 ? 1 : x < 0 ? -1 : 0;
    }

    public static double sqrt(double x) {
        if (x < 0) {
            throw new ArithmeticException("SQRT: cannot take the square root of a negative number");
        }
        return Math.sqrt(x);
    }

    public static double ln(double x) {
        if (x == 0) {
            throw new ArithmeticException("LN: cannot take the logarithm of zero");
        }
        if (x < 0) {
            throw new ArithmeticException("LN: cannot take the logarithm of a negative number");
        }
        return Math.log(x);
    }
}
