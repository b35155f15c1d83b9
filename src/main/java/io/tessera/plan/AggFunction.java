package io.tessera.plan;

/** Aggregate functions of GROUP_AGGREGATE and AGGREGATE sinks. */
public enum AggFunction {
    COUNT_STAR, COUNT, SUM, MIN, MAX, AVG,
    /** SUM that gives 0 rather than NULL over no rows. */
    SUM0,
    /** The group's only value; more than one row is an error (a scalar subquery). */
    SINGLE_VALUE,
    /** COUNT(DISTINCT x). */
    COUNT_DISTINCT,
    /** Any one value of the group (Calcite's SINGLE_VALUE on a group known to hold one row). */
    ANY_VALUE,
    /** SUM and AVG of the distinct values (the group's set of values, as COUNT(DISTINCT) keeps it). */
    SUM_DISTINCT, AVG_DISTINCT,
    /** Sample and population standard deviation and variance: DOUBLE, from a running mean and sum of squares. */
    STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP,
    /**
     * The aggregates of all a group's values, collected per group and computed when the groups are complete
     * ({@link HolisticOptions} holds their fraction, separator and DISTINCT): the continuous and discrete quantiles
     * (MEDIAN is the continuous one at 0.5), the most frequent value, and the values joined into a string.
     */
    QUANTILE_CONT, QUANTILE_DISC, MODE, STRING_AGG,
    /** DuckDB's ENTROPY: the base-2 entropy of the values' frequencies (0 over no values), collected as MODE's are. */
    ENTROPY,
    /**
     * DuckDB's MAD of numbers: the median of the values' absolute deviations from their median, a DOUBLE, collected
     * as the quantiles' values are.
     */
    MAD,
    /**
     * Folds of the group's values: the product (DOUBLE) and the bitwise AND, OR and XOR of integers (the argument's
     * type); NULL over no values.
     */
    PRODUCT, BIT_AND, BIT_OR, BIT_XOR;

    /** Whether the function keeps a set of each group's distinct values. */
    public boolean distinct() {
        return this == COUNT_DISTINCT || this == SUM_DISTINCT || this == AVG_DISTINCT;
    }

    /** Whether the function needs all of a group's values (the group's values collected, not a running state). */
    public boolean holistic() {
        return this == QUANTILE_CONT || this == QUANTILE_DISC || this == MODE || this == STRING_AGG || this == ENTROPY
                || this == MAD;
    }

    /** Whether the function folds each value into its state by one operation ({@link #PRODUCT}, the bitwise ones). */
    public boolean fold() {
        return this == PRODUCT || this == BIT_AND || this == BIT_OR || this == BIT_XOR;
    }

    /** Whether the function is a standard deviation or variance (a count, a mean and a sum of squares). */
    public boolean statistic() {
        return this == STDDEV_SAMP || this == STDDEV_POP || this == VAR_SAMP || this == VAR_POP;
    }
}
