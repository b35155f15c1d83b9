package io.tessera.storage;

/**
 * Statistics of one column: null count, an estimate of distinct non-null values, and min and max in raw form
 * (Long for the integer kinds, DECIMAL unscaled, DATE days and BOOLEAN 0/1; Double for DOUBLE; String for
 * VARCHAR). min and max are null when the column has no non-null value. {@code unique} is exact: true only when
 * no non-null value repeats (checked when the estimate says the column is nearly unique), which lets the
 * planner know a join's build side has at most one match per key. {@code histogram}: the equi-depth histogram and
 * most common values of the non-null values ({@link Histogram}), empty where the column has no non-null value or
 * the statistics were written by a Tessera that kept none.
 *
 * <p>Estimates for the planner, fractions of the non-null rows ({@link #fractionBelow}, {@link #fractionBetween},
 * {@link #fractionEqual}, {@link #fractionWithPrefix}), read the histogram ({@link #forEstimates}): the stored one,
 * or where none was stored a single bucket from min to max with the distinct estimate.
 */
public record ColumnStats(long nullCount, long distinctEstimate, Object min, Object max, boolean unique,
                          Histogram histogram) {

    public static final ColumnStats EMPTY = new ColumnStats(0, 0, null, null, false);

    public ColumnStats {
        histogram = histogram == null ? Histogram.EMPTY : histogram;
    }

    public ColumnStats(long nullCount, long distinctEstimate, Object min, Object max, boolean unique) {
        this(nullCount, distinctEstimate, min, max, unique, Histogram.EMPTY);
    }

    public ColumnStats(long nullCount, long distinctEstimate, Object min, Object max) {
        this(nullCount, distinctEstimate, min, max, false);
    }

    /** These statistics with {@code h} as their histogram. */
    public ColumnStats withHistogram(Histogram h) {
        return new ColumnStats(nullCount, distinctEstimate, min, max, unique, h);
    }

    /** Whether a histogram was stored (false for a column of NULLs only, or one written without histograms). */
    public boolean hasHistogram() {
        return !histogram.isEmpty();
    }

    /** The stored histogram, or where there is none a stand-in from min, max and the distinct estimate. */
    public Histogram forEstimates() {
        return hasHistogram() ? histogram : Histogram.uniform(min, max, distinctEstimate);
    }

    /** {@link Histogram#fractionBelow} of {@link #forEstimates}. */
    public double fractionBelow(Object raw, boolean inclusive) {
        return forEstimates().fractionBelow(raw, inclusive);
    }

    /** {@link Histogram#fractionBetween} of {@link #forEstimates}; a null bound leaves that side open. */
    public double fractionBetween(Object lo, boolean loInclusive, Object hi, boolean hiInclusive) {
        return forEstimates().fractionBetween(lo, loInclusive, hi, hiInclusive);
    }

    /** {@link Histogram#fractionEqual} of {@link #forEstimates}. */
    public double fractionEqual(Object raw) {
        return forEstimates().fractionEqual(raw);
    }

    /** {@link Histogram#fractionWithPrefix} of {@link #forEstimates}: a VARCHAR column's {@code LIKE 'prefix%'}. */
    public double fractionWithPrefix(String prefix) {
        return forEstimates().fractionWithPrefix(prefix);
    }

    /** min as a long for integer-like kinds (not DOUBLE, not VARCHAR). */
    public long minLong() {
        return ((Number) min).longValue();
    }

    public long maxLong() {
        return ((Number) max).longValue();
    }

    public boolean hasRange() {
        return min != null && max != null;
    }

    /** Human text of a raw value of this type (min, max in `tessera describe`). */
    public static String format(DataType type, Object raw) {
        if (raw == null) {
            return "";
        }
        return switch (type.kind()) {
            case DECIMAL -> Values.formatDecimal(((Number) raw).longValue(), type.scale());
            case DATE -> Values.dateOf(((Number) raw).intValue()).toString();
            case TIMESTAMP -> Timestamps.format(((Number) raw).longValue());
            case TIMESTAMP_TZ -> ZonedTimestamps.format(((Number) raw).longValue(), java.time.ZoneOffset.UTC);
            case TIME -> Timestamps.formatTime(((Number) raw).longValue());
            case BOOLEAN -> ((Number) raw).longValue() != 0 ? "true" : "false";
            case DOUBLE -> Values.formatDouble(((Number) raw).doubleValue());
            // an INTERVAL's code as DuckDB's text of it
            case VARCHAR -> type.isInterval() ? Interval.decode(raw.toString()).toString() : raw.toString();
            default -> raw.toString();
        };
    }
}
