package io.tessera.backend.jvm.lib;

import io.tessera.storage.Interval;
import io.tessera.storage.IntervalText;
import io.tessera.storage.Timestamps;

import java.time.LocalDate;

/**
 * INTERVAL values for generated code, as DuckDB computes them. An interval arrives and leaves as its code
 * ({@link Interval#encode()}); a TIMESTAMP as microseconds; a unit as a value bound by the plan.
 */
public final class IntervalRuntime {
    private IntervalRuntime() {
    }

    public static String parse(String text) {
        return IntervalText.parse(text).encode();
    }

    public static String format(String code) {
        return Interval.decode(code).toString();
    }

    public static String key(String code) {
        return Interval.key(code);
    }

    public static long keyDays(String code) {
        return Interval.decode(code).lengthDays();
    }

    public static long keyMicros(String code) {
        return Interval.decode(code).lengthMicrosOfDay();
    }

    /**
     * GREATEST's and LEAST's order of two codes, DuckDB's there: by months, then days, then microseconds (1 day above
     * 25 hours), the parts after the code's length, whose text orders so.
     */
    public static int partsOrder(String a, String b) {
        return a.substring(Interval.KEY_LENGTH).compareTo(b.substring(Interval.KEY_LENGTH));
    }

    public static String add(String a, String b) {
        return Interval.decode(a).plus(Interval.decode(b)).encode();
    }

    public static String negate(String a) {
        return Interval.decode(a).negate().encode();
    }

    public static String times(String a, long n) {
        return Interval.decode(a).times(n).encode();
    }

    /** EXTRACT of an interval: years and months of its months, its days, and the parts of its microseconds. */
    public static long part(String unit, String code) {
        Interval v = Interval.decode(code);
        long inMinute = v.micros() % Interval.MICROS_PER_MINUTE;
        return switch (unit) {
            case "MILLENNIUM" -> v.months() / 12_000;
            case "CENTURY" -> v.months() / 1_200;
            case "DECADE" -> v.months() / 120;
            case "YEAR" -> v.months() / 12;
            case "QUARTER" -> v.months() % 12 / 3 + 1;
            case "MONTH" -> v.months() % 12;
            case "DAY" -> v.days();
            case "HOUR" -> v.micros() / Interval.MICROS_PER_HOUR;
            case "MINUTE" -> v.micros() % Interval.MICROS_PER_HOUR / Interval.MICROS_PER_MINUTE;
            case "SECOND" -> inMinute / Interval.MICROS_PER_SECOND;
            case "MILLISECOND" -> inMinute / 1_000;
            case "MICROSECOND" -> inMinute;
            default -> throw new IllegalArgumentException("unsupported: EXTRACT of " + unit + " from an INTERVAL");
        };
    }

    /**
     * n units as an INTERVAL, as DuckDB's to_years, to_days, to_hours, ... make it: years and longer as months, weeks
     * and days as days, the rest as microseconds; past the range of that part an error naming the value.
     */
    public static String ofUnit(String unit, long n) {
        try {
            Interval v = switch (unit) {
                case "MILLENNIA" -> months(n, 12_000);
                case "CENTURIES" -> months(n, 1_200);
                case "DECADES" -> months(n, 120);
                case "YEARS" -> months(n, 12);
                case "QUARTERS" -> months(n, 3);
                case "MONTHS" -> months(n, 1);
                case "WEEKS" -> new Interval(0, Math.toIntExact(Math.multiplyExact(n, 7)), 0);
                case "DAYS" -> new Interval(0, Math.toIntExact(n), 0);
                case "HOURS" -> new Interval(0, 0, Math.multiplyExact(n, Interval.MICROS_PER_HOUR));
                case "MINUTES" -> new Interval(0, 0, Math.multiplyExact(n, Interval.MICROS_PER_MINUTE));
                case "SECONDS" -> new Interval(0, 0, Math.multiplyExact(n, Interval.MICROS_PER_SECOND));
                case "MILLISECONDS" -> new Interval(0, 0, Math.multiplyExact(n, 1_000L));
                case "MICROSECONDS" -> new Interval(0, 0, n);
                default -> throw new IllegalArgumentException("unsupported: an interval of " + unit);
            };
            return v.encode();
        } catch (ArithmeticException e) {
            throw outOfRange(Long.toString(n), unit);
        }
    }

    /** n seconds or milliseconds of a DOUBLE, to the nearest microsecond (ties to even), as DuckDB rounds them. */
    public static String ofUnit(String unit, double n) {
        double micros = Math.rint(n * (unit.equals("SECONDS") ? Interval.MICROS_PER_SECOND : 1_000L));
        // the doubles of the long range: -2^63 included, 2^63 not; NaN fails both
        if (!(micros >= -0x1p63 && micros < 0x1p63)) {
            throw outOfRange(String.format(java.util.Locale.ROOT, "%f", n), unit);
        }
        return new Interval(0, 0, (long) micros).encode();
    }

    private static Interval months(long n, long per) {
        return new Interval(Math.toIntExact(Math.multiplyExact(n, per)), 0, 0);
    }

    private static IllegalArgumentException outOfRange(String value, String unit) {
        return new IllegalArgumentException("Interval value " + value + " " + unit.toLowerCase(java.util.Locale.ROOT)
                + " out of range");
    }

    /** DuckDB's epoch of an interval: a year of 365.25 days, a month of 30, then days and seconds. */
    public static double epoch(String code) {
        Interval v = Interval.decode(code);
        long years = v.months() / 12;
        long days = 365 * years + 30L * (v.months() % 12) + v.days();
        long seconds = days * 86_400 + years * (86_400 / 4);
        return seconds + v.micros() / (double) Interval.MICROS_PER_SECOND;
    }

    /** A TIMESTAMP plus an interval: its months on the calendar (a day the month lacks is its last), then the rest. */
    public static long plusTimestamp(long ts, String code) {
        Interval v = Interval.decode(code);
        try {
            long t = v.months() == 0 ? ts : TimestampRuntime.addMonths(ts, v.months());
            t = Math.addExact(t, Math.multiplyExact((long) v.days(), Interval.MICROS_PER_DAY));
            return Math.addExact(t, v.micros());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(Runtime.OUTSIDE_TIMESTAMPS, e);
        }
    }

    /** a - b as DuckDB subtracts TIMESTAMPs: whole days, then microseconds. */
    public static String between(long a, long b) {
        return Interval.ofMicros(Math.subtractExact(a, b)).encode();
    }

    /** DuckDB's age(a, b): the difference of the calendar fields, each negative field borrowed from the next. */
    public static String age(long a, long b) {
        LocalDate d1 = LocalDate.ofEpochDay(Timestamps.days(a));
        LocalDate d2 = LocalDate.ofEpochDay(Timestamps.days(b));
        long t1 = Timestamps.timeOfDay(a);
        long t2 = Timestamps.timeOfDay(b);
        long years = d1.getYear() - d2.getYear();
        long months = d1.getMonthValue() - d2.getMonthValue();
        long days = d1.getDayOfMonth() - d2.getDayOfMonth();
        long micros = t1 - t2;
        boolean flipped = a < b;
        if (flipped) {
            years = -years;
            months = -months;
            days = -days;
            micros = -micros;
        }
        if (micros < 0) {
            micros += Interval.MICROS_PER_DAY;
            days--;
        }
        while (days < 0) {
            days += (flipped ? d1 : d2).lengthOfMonth();
            months--;
        }
        while (months < 0) {
            months += 12;
            years--;
        }
        Interval v = new Interval(Math.toIntExact(years * 12 + months), (int) days, micros);
        return (flipped ? v.negate() : v).encode();
    }
}
