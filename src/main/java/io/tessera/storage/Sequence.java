package io.tessera.storage;

/**
 * A sequence as the manifest keeps it: its definition (increment, bounds, start, whether it cycles) and its state:
 * {@code counter}, the value the next nextval hands out; {@code lastValue}, the value the last nextval or setval gave
 * (currval's), meaningful only where {@code used}. The values are computed as DuckDB computes them
 * ({@link SequenceCounter}); this record only holds them.
 */
public record Sequence(String name, long increment, long minValue, long maxValue, long start, boolean cycle,
                       long counter, long lastValue, boolean used) {

    public Sequence {
        TableSchema.checkName(name, "sequence");
    }

    /**
     * A new sequence, unused: bounds and start null where not given take DuckDB's defaults (an ascending sequence
     * from 1 up to BIGINT's largest value, a descending one from -1 down to its smallest, starting at the bound it
     * moves away from); a definition DuckDB refuses is an error in its words.
     */
    public static Sequence define(String name, long increment, Long minValue, Long maxValue, Long start,
                                  boolean cycle) {
        if (increment == 0) {
            throw new IllegalArgumentException("Increment must not be zero");
        }
        long min = minValue != null ? minValue : increment > 0 ? 1 : Long.MIN_VALUE;
        long max = maxValue != null ? maxValue : increment > 0 ? Long.MAX_VALUE : -1;
        long first = start != null ? start : increment > 0 ? min : max;
        if (max <= min) {
            throw new IllegalArgumentException("MINVALUE (" + min + ") must be less than MAXVALUE (" + max + ")");
        }
        if (first < min) {
            throw new IllegalArgumentException("START value (" + first + ") cannot be less than MINVALUE (" + min
                    + ")");
        }
        if (first > max) {
            throw new IllegalArgumentException("START value (" + first + ") cannot be greater than MAXVALUE (" + max
                    + ")");
        }
        return new Sequence(name, increment, min, max, first, cycle, first, 0, false);
    }

    /** This sequence with another state. */
    Sequence withState(long nextCounter, long last, boolean isUsed) {
        return new Sequence(name, increment, minValue, maxValue, start, cycle, nextCounter, last, isUsed);
    }
}
