package io.tessera.storage;

import java.math.BigInteger;

/**
 * An INTERVAL as DuckDB holds one: months, days and microseconds, each kept apart (a month is not a fixed number of
 * days, nor a day of hours, when added to a timestamp). Two intervals compare as DuckDB compares them, by their
 * length with a month of 30 days and a day of 24 hours: {@code 1 month} equals {@code 30 days}.
 *
 * <p>Inside a query an interval travels as its {@link #encode() code}, a fixed-width text whose order is that
 * comparison (then the parts, so that different parts never share a code); {@link #toString()} is DuckDB's text.
 */
public record Interval(int months, int days, long micros) {

    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;
    public static final int DAYS_PER_MONTH = 30;

    /** The code's length: 32 hex digits of the length, then 8 of the months, 8 of the days, 16 of the micros. */
    public static final int CODE_LENGTH = 64;
    /** The length of the part of a code that equal intervals share. */
    public static final int KEY_LENGTH = 32;

    private static final BigInteger BIAS = BigInteger.ONE.shiftLeft(127);

    /** The length in microseconds, a month counted as 30 days and a day as 24 hours (DuckDB's comparison). */
    public BigInteger length() {
        return BigInteger.valueOf((long) months * DAYS_PER_MONTH + days).multiply(BigInteger.valueOf(MICROS_PER_DAY))
                .add(BigInteger.valueOf(micros));
    }

    /**
     * The whole days of the {@link #length()}, rounded down (a month as 30 days); with {@link #lengthMicrosOfDay()} a
     * pair of longs that equal intervals share and unequal ones do not.
     */
    public long lengthDays() {
        return (long) months * DAYS_PER_MONTH + days + Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /** The microseconds of the {@link #length()} beyond its {@link #lengthDays()}: 0 to a day less one. */
    public long lengthMicrosOfDay() {
        return Math.floorMod(micros, MICROS_PER_DAY);
    }

    public Interval plus(Interval o) {
        return new Interval(Math.addExact(months, o.months), Math.addExact(days, o.days), Math.addExact(micros, o.micros));
    }

    public Interval negate() {
        return new Interval(Math.negateExact(months), Math.negateExact(days), Math.negateExact(micros));
    }

    public Interval times(long n) {
        return new Interval(Math.toIntExact(Math.multiplyExact(months, n)), Math.toIntExact(Math.multiplyExact(days, n)),
                Math.multiplyExact(micros, n));
    }

    /** The fixed-width text that orders as the intervals compare (see the class comment). */
    public String encode() {
        StringBuilder sb = new StringBuilder(CODE_LENGTH);
        String len = length().add(BIAS).toString(16);
        sb.append("0".repeat(KEY_LENGTH - len.length())).append(len);
        hex(sb, Integer.toUnsignedLong(months ^ Integer.MIN_VALUE), 8);
        hex(sb, Integer.toUnsignedLong(days ^ Integer.MIN_VALUE), 8);
        hex(sb, micros ^ Long.MIN_VALUE, 16);
        return sb.toString();
    }

    private static void hex(StringBuilder sb, long v, int digits) {
        String h = Long.toHexString(v);
        sb.append("0".repeat(digits - h.length())).append(h);
    }

    /** The interval of a code {@link #encode()} wrote. */
    public static Interval decode(String code) {
        if (code.length() != CODE_LENGTH) {
            throw new IllegalArgumentException("not an interval's code: " + code);
        }
        int m = (int) Long.parseLong(code.substring(32, 40), 16) ^ Integer.MIN_VALUE;
        int d = (int) Long.parseLong(code.substring(40, 48), 16) ^ Integer.MIN_VALUE;
        long u = Long.parseUnsignedLong(code.substring(48, 64), 16) ^ Long.MIN_VALUE;
        return new Interval(m, d, u);
    }

    /** DuckDB's text: {@code 1 year 2 months 3 days 04:05:06.5}, {@code -1 day -01:00:00}, {@code 00:00:00}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int years = months / 12;
        unit(sb, years, "year");
        unit(sb, months - years * 12, "month");
        unit(sb, days, "day");
        if (micros != 0) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            BigInteger rest = BigInteger.valueOf(micros);
            if (micros < 0) {
                sb.append('-');
                rest = rest.negate();
            }
            long hours = rest.divide(BigInteger.valueOf(MICROS_PER_HOUR)).longValueExact();
            long r = rest.mod(BigInteger.valueOf(MICROS_PER_HOUR)).longValueExact();
            sb.append(hours < 10 ? "0" : "").append(hours).append(':');
            two(sb, r / MICROS_PER_MINUTE);
            sb.append(':');
            two(sb, r % MICROS_PER_MINUTE / MICROS_PER_SECOND);
            long frac = r % MICROS_PER_SECOND;
            if (frac != 0) {
                String f = String.format("%06d", frac);
                int end = f.length();
                while (f.charAt(end - 1) == '0') {
                    end--;
                }
                sb.append('.').append(f, 0, end);
            }
        } else if (sb.isEmpty()) {
            return "00:00:00";
        }
        return sb.toString();
    }

    private static void unit(StringBuilder sb, long n, String name) {
        if (n != 0) {
            sb.append(sb.isEmpty() ? "" : " ").append(n).append(' ').append(name).append(n == 1 || n == -1 ? "" : "s");
        }
    }

    private static void two(StringBuilder sb, long v) {
        sb.append(v < 10 ? "0" : "").append(v);
    }

    /** The code's part that equal intervals share (the length), for comparisons. */
    public static String key(String code) {
        return code.substring(0, KEY_LENGTH);
    }

    /** An interval of microseconds as DuckDB makes one from a difference of timestamps: whole days, then the rest. */
    public static Interval ofMicros(long micros) {
        return new Interval(0, Math.toIntExact(micros / MICROS_PER_DAY), micros % MICROS_PER_DAY);
    }
}
