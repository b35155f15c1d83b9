package io.tessera.backend.jvm.lib;

import io.tessera.storage.Timestamps;
import io.tessera.storage.ZonedTimestamps;

import java.time.LocalDate;

/**
 * What generated code calls for TIMESTAMP values (microseconds since 1970-01-01 00:00:00): casts to and from DATE
 * and VARCHAR, months added, and DuckDB's functions of timestamps (DATE_TRUNC, DATE_PART, EPOCH, STRFTIME,
 * STRPTIME, DATE_DIFF, DATE_SUB). Invalid text throws IllegalArgumentException naming it.
 */
public final class TimestampRuntime {

    private TimestampRuntime() {
    }

    /**
     * The midnight that starts a DATE; a DATE past TIMESTAMP's range (after 294247-01-10, before 290309-12-22 (BC))
     * is an error, as in DuckDB.
     */
    public static long ofDays(int days) {
        if (!holds(days)) {
            throw new IllegalArgumentException("date " + Timestamps.formatDate(days) + " is out of TIMESTAMP's range");
        }
        return days * Timestamps.MICROS_PER_DAY;
    }

    /** The first and last DATE whose midnight a TIMESTAMP's microseconds hold (290308 BC, 294247-01-10). */
    private static final long FIRST_DAY = Long.MIN_VALUE / Timestamps.MICROS_PER_DAY;
    private static final long LAST_DAY = Long.MAX_VALUE / Timestamps.MICROS_PER_DAY;

    /** Whether a TIMESTAMP holds the midnight that starts the DATE {@code days}. */
    static boolean holds(long days) {
        return days >= FIRST_DAY && days <= LAST_DAY;
    }

    /** The DATE a timestamp falls on. */
    public static int days(long micros) {
        return Timestamps.days(micros);
    }

    /** A timestamp plus months, as DuckDB adds them: a day the month lacks becomes its last day. */
    public static long addMonths(long micros, long months) {
        return Timestamps.ofDays(Runtime.addMonths(Timestamps.days(micros), months)) + Timestamps.timeOfDay(micros);
    }

    /** The TIMESTAMP a clock of {@code zone} shows at an instant (a TIMESTAMP WITH TIME ZONE). */
    public static long toLocal(long utcMicros, String zone) {
        return ZonedTimestamps.toLocal(utcMicros, ZonedTimestamps.zone(zone));
    }

    /** The instant (a TIMESTAMP WITH TIME ZONE) when a clock of {@code zone} shows a TIMESTAMP. */
    public static long fromLocal(long localMicros, String zone) {
        return ZonedTimestamps.fromLocal(localMicros, ZonedTimestamps.zone(zone));
    }

    public static String formatZoned(long utcMicros, String zone) {
        return ZonedTimestamps.format(utcMicros, ZonedTimestamps.zone(zone));
    }

    public static long parseZoned(String s, String zone) {
        return parseZoned(s, ZonedTimestamps.zone(zone));
    }

    /** A TIMESTAMP WITH TIME ZONE's text, in DuckDB's spellings too ({@link DateTimeText}), on the zone's clock. */
    static long parseZoned(String s, java.time.ZoneId zone) {
        try {
            return ZonedTimestamps.parse(s, zone);
        } catch (IllegalArgumentException e) {
            String other = DateTimeText.canonical(s.strip()); // 2024/1/1 10:00+02 as DuckDB reads it
            if (other == null) {
                throw e;
            }
            try {
                return ZonedTimestamps.parse(other, zone);
            } catch (RuntimeException notThat) {
                throw e;
            }
        }
    }

    /** A TIMESTAMP's time of day, as a TIME. */
    public static long timeOfDay(long micros) {
        return Timestamps.timeOfDay(micros);
    }

    public static long parseTime(String s) {
        return Timestamps.parseTime(s);
    }

    public static String formatTime(long timeMicros) {
        return Timestamps.formatTime(timeMicros);
    }

    public static long parse(String s) {
        try {
            return Timestamps.parse(s);
        } catch (IllegalArgumentException e) {
            Long other; // 2024/1/1 10:00, 2024-01-01 1:2:3 as DuckDB reads them
            try {
                other = DateTimeText.micros(s.strip());
            } catch (RuntimeException notThat) {
                throw e;
            }
            if (other == null) {
                throw e;
            }
            return other;
        }
    }

    public static String format(long micros) {
        return Timestamps.format(micros);
    }

    /** DATE_TRUNC: the start of the unit the timestamp falls in (a date's units through its day). */
    public static long trunc(String unit, long micros) {
        long unitMicros = switch (unit) {
            case "HOUR" -> Timestamps.MICROS_PER_HOUR;
            case "MINUTE" -> Timestamps.MICROS_PER_MINUTE;
            case "SECOND" -> Timestamps.MICROS_PER_SECOND;
            case "MILLISECOND" -> 1000L;
            case "MICROSECOND" -> 1L;
            default -> 0L;
        };
        if (unitMicros > 0) {
            return Math.floorDiv(micros, unitMicros) * unitMicros;
        }
        return Timestamps.ofDays(TextRuntime.dateTrunc(unit, Timestamps.days(micros)));
    }

    /** DATE_PART / EXTRACT: SECOND is 0 to 59, MILLISECOND and MICROSECOND count the second's whole too (as DuckDB). */
    public static long part(String unit, long micros) {
        long time = Timestamps.timeOfDay(micros);
        long inMinute = time % Timestamps.MICROS_PER_MINUTE;
        return switch (unit) {
            case "HOUR" -> time / Timestamps.MICROS_PER_HOUR;
            case "MINUTE" -> time / Timestamps.MICROS_PER_MINUTE % 60;
            case "SECOND" -> inMinute / Timestamps.MICROS_PER_SECOND;
            case "MILLISECOND" -> inMinute / 1000;
            case "MICROSECOND" -> inMinute;
            default -> TextRuntime.datePart(unit, Timestamps.days(micros));
        };
    }

    /** Seconds since 1970-01-01. */
    public static double epoch(long micros) {
        return micros / 1e6;
    }

    public static long epochMs(long micros) {
        return Math.floorDiv(micros, 1000L);
    }

    public static String strftime(long micros, String format) {
        return TimestampFormat.of(format).format(micros);
    }

    public static long strptime(String text, String format) {
        return TimestampFormat.of(format).parse(text);
    }

    /** TRY_STRPTIME: STRPTIME's value, Long.MIN_VALUE where the text does not match; an invalid format fails. */
    public static long tryStrptime(String text, String format) {
        TimestampFormat f = TimestampFormat.of(format);
        try {
            return f.parse(text);
        } catch (IllegalArgumentException | ArithmeticException | java.time.DateTimeException e) {
            return Long.MIN_VALUE;
        }
    }

    /** DATE_DIFF: the unit's boundaries between two timestamps (DuckDB: parts of each subtracted). */
    public static long dateDiff(String unit, long a, long b) {
        return switch (unit) {
            case "MILLENNIUM", "CENTURY", "DECADE", "YEAR" -> year(b) / yearsOf(unit) - year(a) / yearsOf(unit);
            case "QUARTER" -> monthIndex(b) / 3 - monthIndex(a) / 3;
            case "MONTH" -> monthIndex(b) - monthIndex(a);
            case "WEEK" -> (Timestamps.days(b) - Timestamps.days(a)) / 7;
            case "DAY" -> Timestamps.days(b) - Timestamps.days(a);
            default -> Math.floorDiv(b, unitMicros(unit)) - Math.floorDiv(a, unitMicros(unit));
        };
    }

    /** DATE_SUB: the whole units that passed from a to b (negative when b is before a). */
    public static long dateSub(String unit, long a, long b) {
        return switch (unit) {
            case "MILLENNIUM", "CENTURY", "DECADE", "YEAR" -> months(a, b) / (12L * yearsOf(unit));
            case "QUARTER" -> months(a, b) / 3;
            case "MONTH" -> months(a, b);
            case "WEEK" -> (b - a) / (7 * Timestamps.MICROS_PER_DAY);
            case "DAY" -> (b - a) / Timestamps.MICROS_PER_DAY;
            default -> (b - a) / unitMicros(unit);
        };
    }

    private static long unitMicros(String unit) {
        return switch (unit) {
            case "HOUR" -> Timestamps.MICROS_PER_HOUR;
            case "MINUTE" -> Timestamps.MICROS_PER_MINUTE;
            case "SECOND" -> Timestamps.MICROS_PER_SECOND;
            case "MILLISECOND" -> 1000L;
            default -> 1L;
        };
    }

    private static int yearsOf(String unit) {
        return switch (unit) {
            case "MILLENNIUM" -> 1000;
            case "CENTURY" -> 100;
            case "DECADE" -> 10;
            default -> 1;
        };
    }

    private static long year(long micros) {
        return LocalDate.ofEpochDay(Timestamps.days(micros)).getYear();
    }

    /** Months since year 0 of a timestamp's month. */
    private static long monthIndex(long micros) {
        LocalDate d = LocalDate.ofEpochDay(Timestamps.days(micros));
        return d.getYear() * 12L + d.getMonthValue() - 1;
    }

    /**
     * Whole months from a to b as DuckDB counts them: a start day the end's month lacks counts as that month's last
     * day when the end is on its last day.
     */
    private static long months(long a, long b) {
        if (a > b) {
            return -months(b, a);
        }
        LocalDate end = LocalDate.ofEpochDay(Timestamps.days(b));
        long endTime = Timestamps.timeOfDay(b);
        LocalDate start = LocalDate.ofEpochDay(Timestamps.days(a));
        long startTime = Timestamps.timeOfDay(a);
        int endDays = end.lengthOfMonth();
        if (end.getDayOfMonth() == endDays && (start.getDayOfMonth() > endDays
                || start.getDayOfMonth() == endDays && startTime < endTime)) {
            start = start.withDayOfMonth(Math.min(endDays, start.lengthOfMonth()));
        }
        long months = (end.getYear() - start.getYear()) * 12L + end.getMonthValue() - start.getMonthValue();
        boolean shortOfMonth = end.getDayOfMonth() < start.getDayOfMonth()
                || end.getDayOfMonth() == start.getDayOfMonth() && endTime < startTime;
        return shortOfMonth ? months - 1 : months;
    }
}
