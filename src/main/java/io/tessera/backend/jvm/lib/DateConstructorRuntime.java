package io.tessera.backend.jvm.lib;

import io.tessera.storage.Timestamps;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;

/**
 * DuckDB's MAKE_DATE, MAKE_TIME, MAKE_TIMESTAMP, TO_TIMESTAMP, LAST_DAY and EPOCH_MS of an integer, on TIMESTAMP
 * microseconds (a DATE's as the TIMESTAMP of its midnight), with DuckDB's messages where a value is out of range.
 */
public final class DateConstructorRuntime {

    private static final long MICROS_PER_SECOND = 1_000_000L;

    private DateConstructorRuntime() {
    }

    /** The midnight of the date, in microseconds. */
    public static long date(long year, long month, long day) {
        try {
            LocalDate d = LocalDate.of(Math.toIntExact(year), Math.toIntExact(month), Math.toIntExact(day));
            return Math.multiplyExact(d.toEpochDay(), Timestamps.MICROS_PER_DAY);
        } catch (DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException("Date out of range: " + year + "-" + month + "-" + day);
        }
    }

    /** A time of day; 60 seconds carry into the next minute, as in DuckDB. */
    public static long time(long hour, long minute, double seconds) {
        if (hour < 0 || hour > 24 || minute < 0 || minute >= 60 || !(seconds >= 0 && seconds <= 60)) {
            throw new IllegalArgumentException("Time out of range: " + hour + ":" + minute + ":" + seconds);
        }
        long micros = hour * 3600 * MICROS_PER_SECOND + minute * 60 * MICROS_PER_SECOND
                + Math.round(seconds * MICROS_PER_SECOND);
        if (micros > Timestamps.MICROS_PER_DAY) {
            throw new IllegalArgumentException("Time out of range: " + hour + ":" + minute + ":" + seconds);
        }
        return micros;
    }

    public static long timestamp(long year, long month, long day, long hour, long minute, double seconds) {
        if (hour < 0 || hour >= 24 || minute < 0 || minute >= 60 || !(seconds >= 0 && seconds < 60)) {
            throw new IllegalArgumentException("Time out of range: " + hour + ":" + minute + ":" + seconds);
        }
        return Math.addExact(date(year, month, day), time(hour, minute, seconds));
    }

    public static long fromEpochMs(long millis) {
        try {
            return Math.multiplyExact(millis, 1000L);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("Timestamp out of range: epoch_ms(" + millis + ")");
        }
    }

    /** The instant of the seconds since 1970, to the nearest microsecond. */
    public static long fromEpochSeconds(double seconds) {
        double micros = Math.rint(seconds * MICROS_PER_SECOND);
        if (!(Math.abs(micros) < 9.2e18)) {
            throw new IllegalArgumentException("Epoch seconds out of range for TIMESTAMP WITH TIME ZONE");
        }
        return (long) micros;
    }

    /** The midnight of the last day of the month of a TIMESTAMP. */
    public static long lastDay(long micros) {
        LocalDate d = LocalDate.ofEpochDay(Math.floorDiv(micros, Timestamps.MICROS_PER_DAY))
                .with(TemporalAdjusters.lastDayOfMonth());
        return d.toEpochDay() * Timestamps.MICROS_PER_DAY;
    }
}
