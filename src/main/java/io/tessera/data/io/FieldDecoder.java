package io.tessera.data.io;

import io.tessera.storage.Timestamps;
import io.tessera.storage.ZonedTimestamps;
import io.tessera.storage.Values;

/**
 * Decodes typed values straight from bytes. The common shapes (plain digits, yyyy-mm-dd, short decimals) take a
 * fast path without allocating; anything else goes to the parsers of {@link Values}, which accept or reject it
 * with their usual message, so both paths agree on what is valid. Methods throw IllegalArgumentException.
 */
final class FieldDecoder {

    private static final double[] POW10D = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < POW10D.length; i++) {
            POW10D[i] = p;
            p *= 10;
        }
    }

    private final ByteChars chars = new ByteChars();

    CharSequence text(byte[] b, int s, int e) {
        return chars.reset(b, s, e);
    }

    int parseInt(byte[] b, int s, int e) {
        int i = s;
        boolean neg = false;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            neg = b[i] == '-';
            i++;
        }
        int n = e - i;
        if (n > 0 && n <= 9) {
            int v = 0;
            for (; i < e; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) {
                    return slowInt(b, s, e);
                }
                v = v * 10 + d;
            }
            return neg ? -v : v;
        }
        return slowInt(b, s, e);
    }

    private int slowInt(byte[] b, int s, int e) {
        return (int) Values.parseLong(chars.reset(b, s, e), Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
    }

    long parseLong(byte[] b, int s, int e) {
        int i = s;
        boolean neg = false;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            neg = b[i] == '-';
            i++;
        }
        int n = e - i;
        if (n > 0 && n <= 18) {
            long v = 0;
            for (; i < e; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) {
                    return Values.parseLong(chars.reset(b, s, e), Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
                }
                v = v * 10 + d;
            }
            return neg ? -v : v;
        }
        return Values.parseLong(chars.reset(b, s, e), Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
    }

    /** yyyy-mm-dd as days since 1970-01-01. */
    int parseDate(byte[] b, int s, int e) {
        if (e - s == 10 && b[s + 4] == '-' && b[s + 7] == '-') {
            int y = digits(b, s, 4);
            int m = digits(b, s + 5, 2);
            int d = digits(b, s + 8, 2);
            if (y >= 0 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m)) {
                return daysFromCivil(y, m, d);
            }
        }
        return Values.parseDate(chars.reset(b, s, e)); // throws with the usual message (or accepts)
    }

    /**
     * A TIMESTAMP as microseconds since epoch: {@code yyyy-mm-dd hh:mm:ss} read here, every other form (a fraction,
     * a {@code T}, an offset, a date alone) by {@link Timestamps#parse}.
     */
    long parseTimestamp(byte[] b, int s, int e) {
        if (e - s == 19 && b[s + 10] == ' ' && b[s + 13] == ':' && b[s + 16] == ':') {
            int h = digits(b, s + 11, 2);
            int mi = digits(b, s + 14, 2);
            int sec = digits(b, s + 17, 2);
            if (h >= 0 && h < 24 && mi >= 0 && mi < 60 && sec >= 0 && sec < 60) {
                long days = parseDate(b, s, s + 10);
                return days * Timestamps.MICROS_PER_DAY + ((h * 60L + mi) * 60 + sec) * Timestamps.MICROS_PER_SECOND;
            }
        }
        return Timestamps.parse(chars.reset(b, s, e)); // throws with the usual message (or accepts)
    }

    /**
     * A TIMESTAMP WITH TIME ZONE as microseconds since epoch UTC, in the forms {@link ZonedTimestamps#parse} reads; a
     * time without an offset is UTC's.
     */
    long parseTimestampTz(byte[] b, int s, int e) {
        return ZonedTimestamps.parse(chars.reset(b, s, e), java.time.ZoneOffset.UTC);
    }

    /** A TIME as microseconds since midnight, in the forms {@link Timestamps#parseTime} reads. */
    long parseTime(byte[] b, int s, int e) {
        return Timestamps.parseTime(chars.reset(b, s, e)); // throws with the usual message (or accepts)
    }

    private static int digits(byte[] b, int s, int n) {
        int v = 0;
        for (int i = s; i < s + n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private static int daysInMonth(int y, int m) {
        return switch (m) {
            case 2 -> (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    static int daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        int era = (y >= 0 ? y : y - 399) / 400;
        int yoe = y - era * 400;
        int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    /** Unscaled value at the column's scale; more fractional digits than the scale are an error, never rounded. */
    long parseDecimal(byte[] b, int s, int e, int precision, int scale) {
        return Values.parseDecimal(chars.reset(b, s, e), precision, scale);
    }

    double parseDouble(byte[] b, int s, int e) {
        long plain = plainDigits(b, s, e, 15);
        if (plain >= 0) {
            // both operands are exact doubles (mant < 2^53, 10^frac <= 10^15), so the quotient is correctly rounded
            long mant = plain >>> 6;
            int frac = (int) (plain >>> 1) & 31;
            double v = frac == 0 ? mant : mant / POW10D[frac];
            return (plain & 1) != 0 ? -v : v;
        }
        return slowNumber(b, s, e, false);
    }

    /**
     * A REAL: the float nearest the text, read from its digits at once (through a double it could be rounded twice).
     * Up to 7 digits the quotient of two exact floats is that float; longer text goes through Java's float parser.
     */
    float parseReal(byte[] b, int s, int e) {
        long plain = plainDigits(b, s, e, 7);
        if (plain >= 0) {
            // mant < 2^24 and 10^frac <= 10^7 are exact floats, so the float quotient is correctly rounded
            int mant = (int) (plain >>> 6);
            int frac = (int) (plain >>> 1) & 31;
            float v = frac == 0 ? mant : mant / (float) POW10D[frac];
            return (plain & 1) != 0 ? -v : v;
        }
        return (float) slowNumber(b, s, e, true);
    }

    /**
     * A number written as an optional sign, then at most {@code maxDigits} digits with at most one '.' among them:
     * its digits as an integer (shifted left by 6), the count of digits after the '.' (bits 1 to 5) and the sign
     * (bit 0, set for '-'); -1 for any other text (an exponent, more digits, no digit), which the slow path reads.
     */
    private static long plainDigits(byte[] b, int s, int e, int maxDigits) {
        int i = s;
        boolean neg = false;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            neg = b[i] == '-';
            i++;
        }
        long mant = 0;
        int digits = 0;
        int frac = 0;
        boolean dot = false;
        for (; i < e; i++) {
            int c = b[i];
            if (c == '.' && !dot) {
                dot = true;
                continue;
            }
            int d = c - '0';
            if (d < 0 || d > 9 || digits >= maxDigits) {
                return -1;
            }
            mant = mant * 10 + d;
            digits++;
            if (dot) {
                frac++;
            }
        }
        return digits == 0 ? -1 : mant << 6 | (long) frac << 1 | (neg ? 1 : 0);
    }

    /** A number's text as a double, or as a float where {@code real} (then exactly a float), or an error. */
    private double slowNumber(byte[] b, int s, int e, boolean real) {
        String t = chars.reset(b, s, e).toString();
        boolean ok = !t.isEmpty();
        for (int i = 0; i < t.length() && ok; i++) {
            char c = t.charAt(i);
            ok = (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
        }
        Double special = Values.specialDouble(t); // nan, inf, -inf as DuckDB writes them; NaN, Infinity as Java
        if (special != null) {
            return special;
        }
        if (ok) {
            try {
                return real ? Float.parseFloat(t) : Double.parseDouble(t);
            } catch (NumberFormatException ex) {
                // fall through to the message below
            }
        }
        throw new IllegalArgumentException("invalid " + (real ? "FLOAT" : "DOUBLE") + " '" + t + "'");
    }

    boolean parseBoolean(byte[] b, int s, int e) {
        return Values.parseBoolean(chars.reset(b, s, e));
    }
}
