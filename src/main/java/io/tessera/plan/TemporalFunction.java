package io.tessera.plan;

/**
 * The functions of TIMESTAMP values in {@link Op#TEMPORAL} calls, as DuckDB computes them; a DATE argument arrives
 * cast to the TIMESTAMP of its midnight.
 */
public enum TemporalFunction {
    /** (ts): seconds since 1970-01-01 as a DOUBLE; of a TIME, seconds since midnight. */
    EPOCH,
    /** (ts): milliseconds since 1970-01-01 (BIGINT, rounded down). */
    EPOCH_MS,
    /** (ts): microseconds since 1970-01-01 (BIGINT). */
    EPOCH_US,
    /** (ts, format): the text of strftime's format, a value (never code). */
    STRFTIME,
    /** (text, format): the TIMESTAMP strptime's format reads from the text; an error when it does not match. */
    STRPTIME,
    /** (text, format): STRPTIME's TIMESTAMP, NULL where the text does not match (an invalid format still fails). */
    TRY_STRPTIME,
    /** (unit, start, end): how many boundaries of the unit lie between start and end (DuckDB's date_diff). */
    DATE_DIFF,
    /** (unit, start, end): how many whole units passed from start to end (DuckDB's date_sub). */
    DATE_SUB,
    /**
     * (unit, ts): a part of a time of day (hour, minute, second, millisecond, microsecond) or of its date; of a TIME,
     * a time of day's parts only.
     */
    PART,
    /** (instant, zone): the TIMESTAMP a clock of the zone (a VARCHAR, bound) shows at a TIMESTAMP WITH TIME ZONE. */
    TO_LOCAL,
    /** (ts, zone): the TIMESTAMP WITH TIME ZONE when a clock of the zone shows the TIMESTAMP. */
    FROM_LOCAL,
    /** (instant, zone): a TIMESTAMP WITH TIME ZONE's text in the zone ({@code 2020-07-01 04:00:00-04}). */
    FORMAT_ZONED,
    /** (text, zone): a TIMESTAMP WITH TIME ZONE read from text, in the zone where the text names no offset. */
    PARSE_ZONED,
    /** (text): the INTERVAL DuckDB reads from the text; an error naming it when it is none. */
    INTERVAL_PARSE,
    /** (interval): DuckDB's text of an INTERVAL. */
    INTERVAL_FORMAT,
    /** (interval): the part of an INTERVAL's code that equal intervals share (30 days = 1 month), compared. */
    INTERVAL_KEY,
    /**
     * (interval): the whole days of an INTERVAL's length (a month as 30 days, the microseconds' days rounded down),
     * BIGINT; with {@link #INTERVAL_KEY_MICROS} a numeric key that equal intervals share, for joins.
     */
    INTERVAL_KEY_DAYS,
    /** (interval): the microseconds of an INTERVAL's length beyond its {@link #INTERVAL_KEY_DAYS} (BIGINT). */
    INTERVAL_KEY_MICROS,
    /** (interval, interval): their sum. */
    INTERVAL_ADD,
    /** (interval): its negation. */
    INTERVAL_NEGATE,
    /** (interval, n): each part times an integer. */
    INTERVAL_TIMES,
    /** (unit, interval): a part of an INTERVAL as DuckDB's EXTRACT gives it (BIGINT). */
    INTERVAL_PART,
    /**
     * (unit, n): the INTERVAL of n units (MILLENNIA to MICROSECONDS, DuckDB's to_years, to_days, ...): of a BIGINT,
     * of a DOUBLE for SECONDS and MILLISECONDS (to the nearest microsecond, ties to even); an error past the range
     * of the part it fills.
     */
    INTERVAL_OF_UNIT,
    /** (interval): its length in seconds, a month as 30 days (DOUBLE). */
    INTERVAL_EPOCH,
    /** (ts, interval): the TIMESTAMP plus an INTERVAL: months on the calendar, then days, then microseconds. */
    TIMESTAMP_PLUS_INTERVAL,
    /** (ts, ts): the INTERVAL from the second to the first: whole days, then microseconds. */
    TIMESTAMP_DIFF,
    /** (ts, ts): DuckDB's age: years, months and days on the calendar, then the time of day. */
    AGE,
    /** (year, month, day): the TIMESTAMP of the date's midnight; an error where there is no such date. */
    MAKE_DATE,
    /** (hour, minute, seconds as a DOUBLE): the TIME; an error outside a day. */
    MAKE_TIME,
    /** (year, month, day, hour, minute, seconds as a DOUBLE): the TIMESTAMP. */
    MAKE_TIMESTAMP,
    /** (microseconds since 1970): the TIMESTAMP, the same number. */
    FROM_EPOCH_US,
    /** (milliseconds since 1970): the TIMESTAMP. */
    FROM_EPOCH_MS,
    /** (seconds since 1970 as a DOUBLE): the TIMESTAMP WITH TIME ZONE, to the nearest microsecond. */
    TO_TIMESTAMP,
    /** (ts): the TIMESTAMP of the midnight of the last day of its month. */
    LAST_DAY,
    /** (width INTERVAL, ts): DuckDB's TIME_BUCKET from its default origins. */
    TIME_BUCKET,
    /** (width INTERVAL, ts, offset INTERVAL): TIME_BUCKET with the buckets moved by the offset. */
    TIME_BUCKET_OFFSET,
    /** (width INTERVAL, ts, origin ts): TIME_BUCKET counted from the origin. */
    TIME_BUCKET_ORIGIN,
    /** (width INTERVAL, instant, zone VARCHAR): TIME_BUCKET of the instant on the clocks of a time zone. */
    TIME_BUCKET_ZONE
}
