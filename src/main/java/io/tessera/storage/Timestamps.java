package io.tessera.storage;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * TIMESTAMP values: microseconds since 1970-01-01 00:00:00 as a 64-bit integer, with no time zone. Text as DuckDB
 * writes and reads it: {@code yyyy-mm-dd hh:mm:ss[.ffffff]} (the fraction without trailing zeros).
 */
public final class Timestamps {

    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

    /** No offset in the text: {@link Parsed#offsetSeconds()}. */
    public static final int NO_OFFSET = Integer.MIN_VALUE;

    private Timestamps() {
    }

    public static LocalDateTime toLocalDateTime(long micros) {
        long seconds = Math.floorDiv(micros, MICROS_PER_SECOND);
        int nanos = (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000;
        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    }

    /** Microseconds since epoch of a date and time (nanoseconds below a microsecond dropped). */
    public static long micros(LocalDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), MICROS_PER_SECOND), t.getNano() / 1000);
    }

    /** The midnight that starts a DATE (days since epoch). */
    public static long ofDays(long days) {
        return Math.multiplyExact(days, MICROS_PER_DAY);
    }

    /** The DATE (days since epoch) a timestamp falls on. */
    public static int days(long micros) {
        return Math.toIntExact(Math.floorDiv(micros, MICROS_PER_DAY));
    }

    /** Microseconds since midnight of a timestamp's day. */
    public static long timeOfDay(long micros) {
        return Math.floorMod(micros, MICROS_PER_DAY);
    }

    /**
     * DuckDB's text of a timestamp: {@code 2020-01-01 10:00:00}, {@code 2020-01-01 10:00:00.5}, its date as {@link
     * #formatDate} writes it ({@code 0001-01-01 (BC) 10:00:00}).
     */
    public static String format(long micros) {
        StringBuilder b = new StringBuilder(26);
        appendDate(b, days(micros));
        b.append(' ');
        appendTime(b, timeOfDay(micros));
        return b.toString();
    }

    /**
     * DuckDB's text of a date: {@code yyyy-mm-dd}, a year past 9999 with all its digits ({@code 10000-01-01}, where
     * java.time writes {@code +10000-01-01}), a year before 1 as the year BC it is ({@code 0001-12-31 (BC)} for
     * year 0, the day before 0001-01-01).
     */
    public static String formatDate(long days) {
        StringBuilder b = new StringBuilder(16);
        appendDate(b, days);
        return b.toString();
    }

    private static void appendDate(StringBuilder b, long days) {
        LocalDate d = LocalDate.ofEpochDay(days);
        int year = d.getYear();
        boolean bc = year <= 0;
        String digits = Integer.toString(bc ? 1 - year : year);
        b.append("0".repeat(Math.max(0, 4 - digits.length()))).append(digits).append('-');
        two(b, d.getMonthValue());
        b.append('-');
        two(b, d.getDayOfMonth());
        if (bc) {
            b.append(" (BC)");
        }
    }

    /** Appends {@code hh:mm:ss[.ffffff]} of microseconds since midnight, the fraction without trailing zeros. */
    public static void appendTime(StringBuilder b, long timeMicros) {
        long s = timeMicros / MICROS_PER_SECOND;
        two(b, s / 3600).append(':');
        two(b, s / 60 % 60).append(':');
        two(b, s % 60);
        appendFraction(b, timeMicros % MICROS_PER_SECOND);
    }

    /** Appends {@code .ffffff} without trailing zeros; nothing for 0. */
    public static void appendFraction(StringBuilder b, long micros) {
        if (micros == 0) {
            return;
        }
        String f = Long.toString(1_000_000 + micros).substring(1);
        int end = f.length();
        while (f.charAt(end - 1) == '0') {
            end--;
        }
        b.append('.').append(f, 0, end);
    }

    private static StringBuilder two(StringBuilder b, long v) {
        return b.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    /** A timestamp read from text: the local date and time as microseconds, and the offset it named, if any. */
    public record Parsed(long micros, int offsetSeconds) {
        /** The instant: the local time less the offset (none: as it is). */
        public long utcMicros() {
            return offsetSeconds == NO_OFFSET ? micros : micros - offsetSeconds * MICROS_PER_SECOND;
        }
    }

    /**
     * Parses a TIMESTAMP as DuckDB reads one: {@code yyyy-mm-dd} (midnight) or {@code yyyy-mm-dd hh:mm[:ss[.f...]]}
     * ({@code T} or spaces between date and time; month, day and hour may have one digit; a fraction's digits beyond
     * the sixth dropped; {@code 24:00:00} the next midnight), then optionally an offset ({@code Z}, {@code UTC},
     * {@code +hh}, {@code +hh:mm}, {@code +hhmm}), which a TIMESTAMP ignores as DuckDB's does. Throws
     * IllegalArgumentException naming the text.
     */
    public static long parse(CharSequence s) {
        return parseWithOffset(s).micros();
    }

    /** {@link #parse}, keeping the offset the text names. */
    public static Parsed parseWithOffset(CharSequence text) {
        String s = text.toString().strip();
        Cursor c = new Cursor(s);
        try {
            int year = c.number(1, 6);
            c.expect('-');
            int month = c.number(1, 2);
            c.expect('-');
            int day = c.number(1, 2);
            long days = LocalDate.of(year, month, day).toEpochDay();
            long time = 0;
            if (c.more() && (c.peek() == 'T' || c.peek() == ' ')) {
                c.pos++;
                while (c.more() && c.peek() == ' ') {
                    c.pos++;
                }
                if (c.more() && Character.isDigit(c.peek())) {
                    time = c.time();
                }
            }
            while (c.more() && c.peek() == ' ') {
                c.pos++;
            }
            int offset = c.more() ? c.offset() : NO_OFFSET;
            if (c.more()) {
                throw new IllegalArgumentException();
            }
            long micros = Math.addExact(ofDays(days), time);
            if (micros == Long.MAX_VALUE) {
                throw new IllegalArgumentException(); // DuckDB's infinity, past its last timestamp
            }
            return new Parsed(micros, offset);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid timestamp '" + text
                    + "' (expected yyyy-mm-dd hh:mm[:ss[.ffffff]])");
        }
    }

    /**
     * Parses a time of day as DuckDB's TIME reads one: {@code hh:mm[:ss[.f...]]} (the hour may have one digit; a
     * fraction's digits beyond the sixth dropped), optionally after a date ({@code yyyy-mm-dd }, dropped) and before
     * an offset ({@code Z}, {@code +hh[:mm]}, ignored), into microseconds since midnight, 00:00:00 to
     * 23:59:59.999999. Throws IllegalArgumentException naming the text.
     */
    public static long parseTime(CharSequence text) {
        Cursor c = new Cursor(text.toString().strip());
        try {
            if (c.s.length() > 10 && c.s.charAt(4) == '-' && c.s.charAt(7) == '-') {
                c.pos = 10; // a date before the time of day: a TIME keeps only the time
                while (c.more() && (c.peek() == ' ' || c.peek() == 'T')) {
                    c.pos++;
                }
            }
            long t = c.time();
            while (c.more() && c.peek() == ' ') {
                c.pos++;
            }
            if (c.more()) {
                c.offset();
            }
            if (c.more() || t >= MICROS_PER_DAY) {
                throw new IllegalArgumentException();
            }
            return t;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid time '" + text
                    + "' (expected hh:mm[:ss[.ffffff]] from 00:00:00 to 23:59:59.999999)");
        }
    }

    /** DuckDB's text of a time of day: {@code 10:00:00}, {@code 10:00:00.5}. */
    public static String formatTime(long timeMicros) {
        StringBuilder b = new StringBuilder(15);
        appendTime(b, timeMicros);
        return b.toString();
    }

    /** A position in the text being parsed. */
    private static final class Cursor {
        final String s;
        int pos;

        Cursor(String s) {
            this.s = s;
        }

        boolean more() {
            return pos < s.length();
        }

        char peek() {
            return s.charAt(pos);
        }

        void expect(char ch) {
            if (!more() || s.charAt(pos) != ch) {
                throw new IllegalArgumentException();
            }
            pos++;
        }

        int number(int minDigits, int maxDigits) {
            int start = pos;
            int v = 0;
            while (more() && pos - start < maxDigits && Character.isDigit(peek())) {
                v = v * 10 + (s.charAt(pos++) - '0');
            }
            if (pos - start < minDigits) {
                throw new IllegalArgumentException();
            }
            return v;
        }

        /** {@code hh:mm[:ss[.f...]]} as microseconds (each part of one or two digits, as DuckDB reads them); 24:00:00 at most. */
        long time() {
            int h = number(1, 2);
            expect(':');
            int m = number(1, 2);
            int sec = 0;
            long frac = 0;
            if (more() && peek() == ':') {
                pos++;
                sec = number(1, 2);
                if (more() && peek() == '.') {
                    pos++;
                    int start = pos;
                    while (more() && Character.isDigit(peek())) {
                        if (pos - start < 6) {
                            frac = frac * 10 + (peek() - '0');
                        }
                        pos++;
                    }
                    for (int d = pos - start; d < 6; d++) {
                        frac *= 10;
                    }
                }
            }
            if (m > 59 || sec > 59 || h > 24 || h == 24 && (m != 0 || sec != 0 || frac != 0)) {
                throw new IllegalArgumentException();
            }
            return h * MICROS_PER_HOUR + m * MICROS_PER_MINUTE + sec * MICROS_PER_SECOND + frac;
        }

        /** {@code Z}, {@code UTC}, {@code +hh}, {@code +hh:mm}, {@code +hhmm} as seconds east of UTC. */
        int offset() {
            if (s.startsWith("Z", pos) && pos + 1 == s.length()) {
                pos++;
                return 0;
            }
            if (s.regionMatches(true, pos, "UTC", 0, 3) && pos + 3 == s.length()) {
                pos += 3;
                return 0;
            }
            char sign = peek();
            if (sign != '+' && sign != '-') {
                throw new IllegalArgumentException();
            }
            pos++;
            int h = number(2, 2);
            int m = 0;
            if (more() && peek() == ':') {
                pos++;
                m = number(2, 2);
            } else if (more()) {
                m = number(2, 2);
            }
            if (h > 15 || m > 59) {
                throw new IllegalArgumentException();
            }
            int seconds = h * 3600 + m * 60;
            return sign == '-' ? -seconds : seconds;
        }
    }
}
