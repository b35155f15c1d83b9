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
    /** (unit, start, end): how many boundaries of the unit lie between start and end (DuckDB's date_diff). */
    DATE_DIFF,
    /** (unit, start, end): how many whole units passed from start to end (DuckDB's date_sub). */
    DATE_SUB,
    /**
     * (unit, ts): a part of a time of day (hour, minute, second, millisecond, microsecond) or of its date; of a TIME,
     * a time of day's parts only.
     */
    PART
}
