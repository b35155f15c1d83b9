package io.tessera.storage;

/**
 * Statistics of one column: null count, an estimate of distinct non-null values, and min and max in raw form
 * (Long for the integer kinds, DECIMAL unscaled, DATE days and BOOLEAN 0/1; Double for DOUBLE; String for
 * VARCHAR). min and max are null when the column has no non-null value. {@code unique} is exact: true only when
 * no non-null value repeats (checked when the estimate says the column is nearly unique), which lets the
 * planner know a join's build side has at most one match per key.
 */
public record ColumnStats(long nullCount, long distinctEstimate, Object min, Object max, boolean unique) {

    public static final ColumnStats EMPTY = new ColumnStats(0, 0, null, null, false);

    public ColumnStats(long nullCount, long distinctEstimate, Object min, Object max) {
        this(nullCount, distinctEstimate, min, max, false);
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
            case BOOLEAN -> ((Number) raw).longValue() != 0 ? "true" : "false";
            case DOUBLE -> Values.formatDouble(((Number) raw).doubleValue());
            default -> raw.toString();
        };
    }
}
