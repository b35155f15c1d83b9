package io.tessera.optimize;

import io.tessera.storage.Column;
import io.tessera.storage.ColumnStats;
import io.tessera.storage.TypeKind;
import org.apache.calcite.sql.SqlKind;

/**
 * The values an aggregate function takes over the groups of an aggregation, for a comparison with a constant on its
 * result (HAVING, or a filter over a grouped subquery: Q18's {@code sum(l_quantity) > 300}): the function, the stored
 * column it reads (null for COUNT), and the rows a group holds on average. A group's SUM, AVG and COUNT are taken
 * as normal around their means, their spread from the column's histogram and from group sizes that vary as counts
 * do (as much as their mean); MIN and MAX from the histogram's share raised to the group size. So a bound far from
 * what a group usually sums to keeps few groups, where a guess of a third would keep thousands.
 */
record AggregateValues(SqlKind function, Column origin, double groupRows) {

    /** Points at which the column's distribution is read to find its mean and spread. */
    private static final int GRID = 64;

    /** An aggregate of {@code origin} whose groups this record can describe, else null. */
    static AggregateValues of(SqlKind function, Column origin, double groupRows) {
        boolean count = function == SqlKind.COUNT;
        boolean numeric = origin != null && origin.stats().hasRange() && origin.stats().min() instanceof Number
                && switch (origin.type().kind()) {
                    case INTEGER, BIGINT, DOUBLE, DECIMAL -> true;
                    default -> false;
                };
        boolean known = switch (function) {
            case SUM, SUM0, AVG, MIN, MAX -> numeric;
            default -> count;
        };
        return known ? new AggregateValues(function, count ? null : origin, Math.max(1, groupRows)) : null;
    }

    /**
     * The fraction of groups whose aggregate is below {@code value} (raw as the column's statistics hold values, an
     * unscaled DECIMAL; a plain number for COUNT), {@code inclusive} counting the groups equal to it.
     */
    double fractionBelow(double value, boolean inclusive) {
        if (function == SqlKind.MIN || function == SqlKind.MAX) {
            double below = columnBelow(value, inclusive);
            return function == SqlKind.MAX ? Math.pow(below, groupRows) : 1 - Math.pow(1 - below, groupRows);
        }
        double mean;
        double variance;
        if (function == SqlKind.COUNT) {
            mean = groupRows;
            variance = groupRows;
        } else {
            double[] m = moments();
            if (function == SqlKind.AVG) {
                mean = m[0];
                variance = m[1] / groupRows;
            } else {
                // a sum of a varying number of values: n (var + mean^2) where the count varies as much as its mean
                mean = groupRows * m[0];
                variance = groupRows * (m[1] + m[0] * m[0]);
            }
        }
        if (variance <= 0) {
            return value > mean || (inclusive && value == mean) ? 1 : 0;
        }
        return 1 - upperTail((value - mean) / Math.sqrt(variance));
    }

    /** The share of the column's non-null values below {@code value}. */
    private double columnBelow(double value, boolean inclusive) {
        return origin.stats().fractionBelow(raw(value), inclusive);
    }

    /** {@code value} in the form the column's statistics compare with. */
    private Object raw(double value) {
        return origin.stats().min() instanceof Double ? (Object) value : (Object) (long) Math.floor(value);
    }

    /** Mean and variance of the column's values, read from its histogram at {@link #GRID} points from min to max. */
    private double[] moments() {
        ColumnStats s = origin.stats();
        double lo = ((Number) s.min()).doubleValue();
        double hi = ((Number) s.max()).doubleValue();
        if (hi <= lo) {
            return new double[] {lo, 0};
        }
        double sum = 0;
        double squares = 0;
        double before = 0;
        double step = (hi - lo) / GRID;
        for (int i = 1; i <= GRID; i++) {
            double at = i == GRID ? 1 : columnBelow(lo + i * step, true);
            double share = Math.max(0, at - before);
            double mid = lo + (i - 0.5) * step;
            sum += share * mid;
            squares += share * mid * mid;
            before = Math.max(before, at);
        }
        double total = Math.max(before, 1e-12);
        double mean = sum / total;
        return new double[] {mean, Math.max(0, squares / total - mean * mean)};
    }

    /**
     * P(Z > z) for a standard normal Z, from the complementary error function's Chebyshev fit (relative error below
     * 1.2e-7, so far tails keep their size rather than rounding to zero).
     */
    static double upperTail(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.5 * x);
        double poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
                + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
        double erfc = t * Math.exp(-x * x + poly);
        return z >= 0 ? erfc / 2 : 1 - erfc / 2;
    }
}
