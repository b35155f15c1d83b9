package io.tessera.plan;

import java.math.BigDecimal;

/**
 * What a holistic aggregate ({@link AggFunction#holistic}) needs beside its argument: the quantile's fraction (in
 * [0, 1]; {@code exactFraction} the same when it was a DECIMAL constant, null when a DOUBLE: a discrete quantile's
 * position is computed exactly from it, as DuckDB does), STRING_AGG's separator (null: the separator was NULL, and
 * so is every result), and whether only distinct values count (DISTINCT).
 */
public record HolisticOptions(double fraction, BigDecimal exactFraction, String separator, boolean distinct) {

    private static final BigDecimal HALF = new BigDecimal("0.5");

    /** The options of a function without separator: the median's fraction 0.5 where there is none. */
    public static HolisticOptions plain(boolean distinct) {
        return new HolisticOptions(0.5, HALF, null, distinct);
    }
}
