package io.tessera.backend;

import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.AggFunction;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The SQL semantics of an aggregate's final value, one place for every backend: from what a group accumulated
 * (its count, its long or double value, its distinct count) to the value of the result row. COUNT is the count;
 * AVG the sum over the count (a DECIMAL or integer sum exact, rounded once), NULL over no rows; SUM, MIN, MAX and
 * the rest NULL over no rows (SUM0 zero); SINGLE_VALUE fails on a second row. A holistic aggregate (a quantile,
 * MODE, STRING_AGG) is NULL over no values, else the value its backend computed from the group's values.
 */
public final class GroupRows {

    private GroupRows() {
    }

    /**
     * One aggregate as its final value is computed: its function, whether it accumulated a double (else a long),
     * and the scale of its argument (a DECIMAL sum is unscaled at it; 0 otherwise).
     */
    public record Final(AggFunction function, boolean doubleValue, int argScale) {

        /** An aggregate over an argument of type {@code argType} (null: none, COUNT(*)). */
        public static Final of(AggFunction function, boolean doubleValue, DataType argType) {
            return new Final(function, doubleValue, argType != null && argType.kind() == TypeKind.DECIMAL ? argType.scale() : 0);
        }
    }

    /** What the groups accumulated, per aggregate {@code a} and group {@code i} (0 to the group count). */
    public interface Accumulated {
        long count(int a, int i);

        long longValue(int a, int i);

        double doubleValue(int a, int i);

        /** COUNT(DISTINCT): the number of distinct values. */
        long distinctCount(int a, int i);

        /** A standard deviation's or variance's sum of squared deviations from the mean (its double value). */
        default double secondMoment(int a, int i) {
            throw new IllegalStateException("no statistics accumulated");
        }

        /** MIN or MAX of strings computed by the query. */
        default String stringValue(int a, int i) {
            throw new IllegalStateException("no strings accumulated");
        }
    }

    /**
     * Writes every aggregate's final value of groups {@code [0, groups)} into rows {@code [0, groups)} of
     * {@code out}, aggregate a into column {@code firstColumn + a} (held as its {@link ValueKind}).
     */
    public static void aggregates(Final[] aggs, Accumulated acc, int groups, RowBuffer out, int firstColumn) {
        aggregates(aggs, acc, 0, groups, out, firstColumn);
    }

    /**
     * Writes every aggregate's final value of groups {@code [from, to)} into rows {@code [from, to)} of {@code out}
     * (threads may write disjoint ranges at once where the NULL bitmaps exist and the ranges start at multiples of 64).
     */
    public static void aggregates(Final[] aggs, Accumulated acc, int from, int to, RowBuffer out, int firstColumn) {
        for (int a = 0; a < aggs.length; a++) {
            int c = firstColumn + a;
            Final s = aggs[a];
            for (int i = from; i < to; i++) {
                long cnt = acc.count(a, i);
                switch (s.function()) {
                    case COUNT_STAR, COUNT -> out.longs[c][i] = cnt;
                    case COUNT_DISTINCT -> out.longs[c][i] = acc.distinctCount(a, i);
                    case ENTROPY -> out.doubles[c][i] = cnt == 0 ? 0.0 : acc.doubleValue(a, i); // 0 over no values
                    case STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP -> {
                        Double v = statistic(s, cnt, acc.secondMoment(a, i));
                        if (v == null) {
                            out.setNull(c, i);
                        } else {
                            out.doubles[c][i] = v;
                        }
                    }
                    case AVG, AVG_DISTINCT -> {
                        if (cnt == 0) {
                            out.setNull(c, i);
                        } else if (s.doubleValue()) {
                            out.doubles[c][i] = acc.doubleValue(a, i) / cnt;
                        } else {
                            // exact sum (DECIMAL unscaled at the argument's scale) over the count, rounded once
                            out.doubles[c][i] = BigDecimal.valueOf(acc.longValue(a, i), s.argScale())
                                    .divide(BigDecimal.valueOf(cnt), MathContext.DECIMAL64).doubleValue();
                        }
                    }
                    default -> {
                        if (s.function() == AggFunction.SINGLE_VALUE && cnt > 1) {
                            throw new IllegalStateException("more than one row returned by a subquery used as an expression");
                        }
                        if (cnt == 0 && s.function() != AggFunction.SUM0) {
                            out.setNull(c, i);
                        } else {
                            setValue(out, c, i, s, acc, a);
                        }
                    }
                }
            }
        }
    }

    /**
     * A standard deviation or variance from the count and the sum of squared deviations (unscaled for a DECIMAL):
     * NULL for no rows, and a sample's for one row, as DuckDB has it.
     */
    private static Double statistic(Final s, long n, double m2) {
        boolean sample = s.function() == AggFunction.STDDEV_SAMP || s.function() == AggFunction.VAR_SAMP;
        if (n == 0 || sample && n == 1) {
            return null;
        }
        if (n == 1) {
            return 0.0; // a population's over one row, whatever the value (DuckDB's too, an infinity included)
        }
        double scale = Math.pow(10, s.argScale());
        double variance = m2 / (sample ? n - 1 : n) / (scale * scale);
        // infinite and NaN inputs give infinite and NaN results, as DuckDB's do
        return s.function() == AggFunction.STDDEV_SAMP || s.function() == AggFunction.STDDEV_POP ? Math.sqrt(variance) : variance;
    }

    private static void setValue(RowBuffer out, int c, int i, Final s, Accumulated acc, int a) {
        switch (out.kinds[c]) {
            case INT, CODE -> out.ints[c][i] = (int) acc.longValue(a, i);
            case LONG -> out.longs[c][i] = s.doubleValue() ? (long) acc.doubleValue(a, i) : acc.longValue(a, i);
            case DOUBLE -> out.doubles[c][i] = s.doubleValue() ? acc.doubleValue(a, i) : (double) acc.longValue(a, i);
            case BOOL -> out.bytes[c][i] = (byte) acc.longValue(a, i);
            case STRING -> out.strings[c][i] = acc.stringValue(a, i);
        }
    }
}
