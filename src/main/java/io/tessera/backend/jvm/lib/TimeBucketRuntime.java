package io.tessera.backend.jvm.lib;

import io.tessera.storage.Interval;
import io.tessera.storage.Timestamps;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;

/**
 * DuckDB's TIME_BUCKET on TIMESTAMP microseconds: a width of days and time counts buckets from 2000-01-03 (a
 * Monday) or the given origin, a width of months counts months from January 2000 or the origin's month; an offset
 * moves the buckets by that interval. A width is an interval code, as intervals travel in generated code.
 */
public final class TimeBucketRuntime {

    /** 2000-01-03, the default origin of widths in days and time. */
    private static final long MICROS_ORIGIN = LocalDate.of(2000, 1, 3).toEpochDay() * Timestamps.MICROS_PER_DAY;
    /** January 2000, the default origin of widths in months, as months since year 0. */
    private static final long MONTHS_ORIGIN = 2000L * 12;

    private TimeBucketRuntime() {
    }

    public static long bucket(String width, long ts) {
        Interval w = checked(width);
        return w.months() != 0 ? months(w.months(), ts, MONTHS_ORIGIN) : micros(microsOf(w), ts, MICROS_ORIGIN);
    }

    /** The bucket of ts less the offset, moved by the offset again. */
    public static long bucketOffset(String width, long ts, String offset) {
        Interval w = checked(width);
        long shifted = IntervalRuntime.plusTimestamp(ts, IntervalRuntime.negate(offset));
        long b = w.months() != 0 ? months(w.months(), shifted, MONTHS_ORIGIN)
                : micros(microsOf(w), shifted, MICROS_ORIGIN);
        return IntervalRuntime.plusTimestamp(b, offset);
    }

    /** Buckets counted from an origin; of a width in months only the origin's month counts, as in DuckDB. */
    public static long bucketOrigin(String width, long ts, long origin) {
        Interval w = checked(width);
        return w.months() != 0 ? months(w.months(), ts, monthIndex(origin)) : micros(microsOf(w), ts, origin);
    }

    /**
     * The bucket of an instant on the clocks of {@code zone}, as an instant again: its local time bucketed from the
     * default origins, then read in the zone at the instant's own offset where the local time is there twice (the
     * hour a clock goes back), moved later by the gap where it is not there at all (the hour a clock goes forward),
     * as DuckDB's answers are.
     */
    public static long bucketZoned(String width, long instant, String zone) {
        ZoneId z = zone(zone);
        ZonedDateTime at = Instant.EPOCH.plus(instant, ChronoUnit.MICROS).atZone(z);
        long local = ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), at.toLocalDateTime());
        long bucket = bucket(width, local);
        LocalDateTime start = LocalDateTime.of(1970, 1, 1, 0, 0).plus(bucket, ChronoUnit.MICROS);
        ZonedDateTime zoned = ZonedDateTime.ofLocal(start, z, at.getOffset());
        return ChronoUnit.MICROS.between(Instant.EPOCH, zoned.toInstant());
    }

    private static ZoneId zone(String name) {
        try {
            return ZoneId.of(name);
        } catch (java.time.DateTimeException e) {
            throw new IllegalArgumentException("Unknown TimeZone '" + name + "'");
        }
    }

    private static Interval checked(String width) {
        Interval w = Interval.decode(width);
        if (w.months() != 0 && (w.days() != 0 || w.micros() != 0)) {
            throw new IllegalArgumentException("Month intervals cannot have day or time component");
        }
        if (w.months() < 0 || (w.months() == 0 && microsOf(w) <= 0)) {
            throw new IllegalArgumentException("Period must be greater than 0");
        }
        return w;
    }

    private static long microsOf(Interval w) {
        return Math.addExact(Math.multiplyExact((long) w.days(), Timestamps.MICROS_PER_DAY), w.micros());
    }

    private static long micros(long width, long ts, long origin) {
        long diff = Math.subtractExact(ts, origin);
        return origin + Math.floorDiv(diff, width) * width;
    }

    private static long months(long width, long ts, long originMonths) {
        long m = monthIndex(ts);
        long r = originMonths + Math.floorDiv(m - originMonths, width) * width;
        LocalDate first = LocalDate.of(Math.toIntExact(Math.floorDiv(r, 12)), (int) Math.floorMod(r, 12) + 1, 1);
        return first.toEpochDay() * Timestamps.MICROS_PER_DAY;
    }

    /** The month of a TIMESTAMP as months since year 0. */
    private static long monthIndex(long ts) {
        LocalDate d = LocalDate.ofEpochDay(Math.floorDiv(ts, Timestamps.MICROS_PER_DAY));
        return d.getYear() * 12L + d.getMonthValue() - 1;
    }
}
