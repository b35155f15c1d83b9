package io.tessera.storage;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * Conversions between the stored (raw) form of a value and its Java and text forms. Raw forms: TIMESTAMP
 * (microseconds since epoch) and TIME (microseconds since midnight) as long; INTEGER, DATE
 * (days since epoch) and VARCHAR codes as int; BIGINT and DECIMAL (unscaled) as long; DOUBLE as double;
 * BOOLEAN as 0/1.
 */
public final class Values {

    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private Values() {
    }

    /**
     * The Java object of a VARCHAR-kind value: a BLOB's bytes as byte[], a UUID as java.util.UUID, text as the
     * String.
     */
    public static Object stringObject(String s, DataType type) {
        if (type.isBlob()) {
            return ByteStrings.bytes(s);
        }
        return type.isUuid() ? java.util.UUID.fromString(s) : s;
    }

    /** The stored string of a VARCHAR-kind value's object ({@link #stringObject}'s inverse). */
    public static String storedString(Object v) {
        return switch (v) {
            case byte[] b -> ByteStrings.of(b);
            case java.util.UUID u -> Uuids.of(u);
            default -> (String) v;
        };
    }

    public static long pow10(int n) {
        return POW10[n];
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date. */
    public static int daysOf(int year, int month, int day) {
        return (int) LocalDate.of(year, month, day).toEpochDay();
    }

    public static LocalDate dateOf(int days) {
        return LocalDate.ofEpochDay(days);
    }

    /** A TIMESTAMP's microseconds since 1970-01-01 00:00:00 as a date and time. */
    public static java.time.LocalDateTime timestampOf(long micros) {
        return Timestamps.toLocalDateTime(micros);
    }

    /** A TIME's microseconds since midnight as a time of day. */
    public static java.time.LocalTime timeOf(long micros) {
        return java.time.LocalTime.ofNanoOfDay(micros * 1000);
    }

    /** A time of day as a TIME's microseconds since midnight (nanoseconds below a microsecond dropped). */
    public static long timeMicros(java.time.LocalTime t) {
        return t.toNanoOfDay() / 1000;
    }

    /** Parses a TIMESTAMP as DuckDB writes it (see {@link Timestamps#parse}) into microseconds since epoch. */
    public static long parseTimestamp(CharSequence s) {
        return Timestamps.parse(s);
    }

    /** DuckDB's first DATE, 5877642-06-25 (BC), in days since 1970-01-01 (one more than its -infinity). */
    public static final int MIN_DATE = -2_147_483_646;

    /** DuckDB's last DATE, 5881580-07-10, in days since 1970-01-01 (one less than its infinity). */
    public static final int MAX_DATE = 2_147_483_646;

    /**
     * Parses a date as DuckDB writes one into days since epoch: {@code yyyy-mm-dd}, a year of up to 7 digits
     * ({@code 300000-01-01}), and a year before 1 as the year BC it is ({@code 0044-03-15 (BC)}), within DATE's
     * range ({@link #MIN_DATE} to {@link #MAX_DATE}); throws IllegalArgumentException with the text on failure.
     */
    public static int parseDate(CharSequence s) {
        int n = s.length();
        boolean bc = n > 5 && s.charAt(n - 5) == ' ' && s.charAt(n - 4) == '(' && s.charAt(n - 3) == 'B'
                && s.charAt(n - 2) == 'C' && s.charAt(n - 1) == ')';
        int end = bc ? n - 5 : n;
        int yearDigits = end - 6;
        if (yearDigits >= 4 && yearDigits <= 7 && s.charAt(yearDigits) == '-' && s.charAt(yearDigits + 3) == '-') {
            int y = digits(s, 0, yearDigits);
            int m = digits(s, yearDigits + 1, yearDigits + 3);
            int d = digits(s, yearDigits + 4, end);
            if (y >= 0 && m >= 1 && m <= 12 && d >= 1 && d <= 31 && !(bc && y == 0)) {
                long days;
                try {
                    // year 1 BC is the proleptic calendar's year 0
                    days = LocalDate.of(bc ? 1 - y : y, m, d).toEpochDay();
                } catch (java.time.DateTimeException e) {
                    throw new IllegalArgumentException("invalid date '" + s + "'");
                }
                return checkedDate(days, s);
            }
        }
        throw new IllegalArgumentException("invalid date '" + s + "' (expected yyyy-mm-dd)");
    }

    /** {@code days} as a DATE, where it lies in DATE's range; else an error naming {@code text}, what gave it. */
    public static int checkedDate(long days, CharSequence text) {
        if (days < MIN_DATE || days > MAX_DATE) {
            throw new IllegalArgumentException("date '" + text + "' is out of DATE's range (5877642-06-25 (BC) to"
                    + " 5881580-07-10)");
        }
        return (int) days;
    }

    private static int digits(CharSequence s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /**
     * Parses a decimal literal ("-12.5", "3", ".25") into an unscaled long at the given scale. More fractional
     * digits than the scale, or more digits than the precision, are an error: an import must not round silently.
     */
    public static long parseDecimal(CharSequence s, int precision, int scale) {
        int n = s.length();
        int i = 0;
        boolean negative = false;
        if (n > 0 && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        long unscaled = 0;
        int intDigits = 0;
        int fracDigits = 0;
        boolean dot = false;
        boolean any = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c == '.' && !dot) {
                dot = true;
                continue;
            }
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("invalid decimal '" + s + "'");
            }
            any = true;
            if (dot) {
                if (++fracDigits > scale) {
                    if (c != '0') {
                        throw new IllegalArgumentException("decimal '" + s + "' has more than " + scale
                                + " fractional digits");
                    }
                    continue;
                }
            } else if (unscaled != 0 || c != '0') {
                intDigits++;
            }
            unscaled = unscaled * 10 + (c - '0');
        }
        if (!any) {
            throw new IllegalArgumentException("invalid decimal '" + s + "'");
        }
        if (intDigits > precision - scale) {
            throw new IllegalArgumentException("decimal '" + s + "' does not fit DECIMAL(" + precision + "," + scale + ")");
        }
        for (int f = Math.min(fracDigits, scale); f < scale; f++) {
            unscaled *= 10;
        }
        return negative ? -unscaled : unscaled;
    }

    /** The one wording of a value that does not fit its target type (CAST, a store, a literal). */
    public static String outOfRangeMessage(String value, String type) {
        return "value " + value + " is out of range for " + type;
    }

    public static BigDecimal decimalOf(long unscaled, int scale) {
        return BigDecimal.valueOf(unscaled, scale);
    }

    /** Plain decimal text of an unscaled value, always with exactly {@code scale} fractional digits. */
    public static String formatDecimal(long unscaled, int scale) {
        return BigDecimal.valueOf(unscaled, scale).toPlainString();
    }

    /**
     * A NaN with its sign bit set, which DuckDB reads from {@code -nan} and writes back as {@code -nan}; it compares,
     * groups and sorts as every other NaN.
     */
    public static final double NEGATIVE_NAN = Double.longBitsToDouble(0xfff8000000000000L);

    /**
     * The special DOUBLE spelled by {@code text} (already stripped): {@code nan}, {@code inf}, {@code infinity} with an
     * optional sign, in any case, as DuckDB writes them and as Java does ({@code NaN}, {@code Infinity}); null for any
     * other text.
     */
    public static Double specialDouble(String text) {
        String word = text.toLowerCase(java.util.Locale.ROOT);
        String unsigned = word.startsWith("-") || word.startsWith("+") ? word.substring(1) : word;
        if (unsigned.equals("nan")) {
            return word.startsWith("-") ? NEGATIVE_NAN : Double.NaN;
        }
        if (unsigned.equals("inf") || unsigned.equals("infinity")) {
            return word.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return null;
    }

    /** A DOUBLE as text, as DuckDB writes it (in results, in CSV and when CAST to VARCHAR): {@link FloatText}. */
    public static String formatDouble(double d) {
        return FloatText.ofDouble(d);
    }

    /** Parses an integer of the given kind; throws IllegalArgumentException naming the text. */
    public static long parseLong(CharSequence s, long min, long max, String typeName) {
        int n = s.length();
        if (n == 0) {
            throw new IllegalArgumentException("empty " + typeName);
        }
        int i = 0;
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            i = 1;
            if (n == 1) {
                throw new IllegalArgumentException("invalid " + typeName + " '" + s + "'");
            }
        }
        long v = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("invalid " + typeName + " '" + s + "'");
            }
            long next = v * 10 - (c - '0'); // accumulate negatively to reach Long.MIN_VALUE
            if (v < Long.MIN_VALUE / 10 || next > v) {
                throw new IllegalArgumentException(typeName + " '" + s + "' is out of range");
            }
            v = next;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                throw new IllegalArgumentException(typeName + " '" + s + "' is out of range");
            }
            v = -v;
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(typeName + " '" + s + "' is out of range");
        }
        return v;
    }

    /**
     * DuckDB's words for a BOOLEAN, in any case; white space around them is no boolean ({@code ' true '}), as DuckDB's
     * CAST and CSV reader have it.
     */
    public static boolean parseBoolean(CharSequence s) {
        String t = s.toString().toLowerCase(java.util.Locale.ROOT);
        return switch (t) {
            case "true", "t", "1", "yes", "y" -> true;
            case "false", "f", "0", "no", "n" -> false;
            default -> throw new IllegalArgumentException("invalid boolean '" + s + "'");
        };
    }

    /** Text form of a boxed Java value as {@link Column#getObject} returns it. */
    public static String format(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof Double d) {
            return formatDouble(d);
        }
        if (v instanceof Float f) { // REAL
            return Floats.format(f);
        }
        if (v instanceof java.time.LocalDateTime t) {
            return Timestamps.format(Timestamps.micros(t));
        }
        if (v instanceof LocalDate d) { // DuckDB's text: 10000-01-01, 0001-12-31 (BC)
            return Timestamps.formatDate(d.toEpochDay());
        }
        if (v instanceof java.time.LocalTime t) {
            return Timestamps.formatTime(timeMicros(t));
        }
        if (v instanceof byte[] b) {
            return ByteStrings.format(b);
        }
        return v.toString();
    }
}
