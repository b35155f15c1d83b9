package io.tessera.plan;

import java.math.BigDecimal;
import java.util.List;

/**
 * What a holistic aggregate ({@link AggFunction#holistic}) needs beside its argument: the quantile's fraction (in
 * [0, 1]; {@code exactFraction} the same when it was a DECIMAL constant, null when a DOUBLE: a discrete quantile's
 * position is computed exactly from it, as DuckDB does), STRING_AGG's separator (null: the separator was NULL, and
 * so is every result), whether only distinct values count (DISTINCT), and STRING_AGG's or MODE's ORDER BY (empty:
 * the order the rows come in).
 */
public record HolisticOptions(double fraction, BigDecimal exactFraction, String separator, boolean distinct,
                              List<OrderKey> order) {

    private static final BigDecimal HALF = new BigDecimal("0.5");

    /** A key of STRING_AGG's or MODE's ORDER BY: the values are joined, or their ties broken, in the order of these. */
    public record OrderKey(Expr key, boolean descending, boolean nullsFirst) {
        @Override
        public String toString() {
            return key + (descending ? " desc" : "") + (nullsFirst ? " nulls first" : "");
        }
    }

    /** The options of a function without separator: the median's fraction 0.5 where there is none. */
    public static HolisticOptions plain(boolean distinct) {
        return plain(distinct, List.of());
    }

    /** The same with MODE's ORDER BY, whose first value wins a tie. */
    public static HolisticOptions plain(boolean distinct, List<OrderKey> order) {
        return new HolisticOptions(0.5, HALF, null, distinct, order);
    }
}
