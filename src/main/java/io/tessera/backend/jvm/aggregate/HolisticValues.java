package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.ValueKind;
import io.tessera.plan.HolisticOptions;
import io.tessera.storage.CodePointOrder;
import io.tessera.storage.TypeKind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The final value of a holistic aggregate from a group's collected values ({@link ValueList}), as DuckDB computes
 * it. Quantiles sort the values: QUANTILE_DISC takes the value at position {@code max(1, ceil(n * f)) - 1}
 * ({@code n * f} exact for a DECIMAL fraction, DuckDB's {@code n - floor(n - n * f)} in doubles for a DOUBLE one);
 * QUANTILE_CONT interpolates between the values at {@code floor} and {@code ceil} of {@code (n - 1) * f} as
 * {@code lo + (hi - lo) * d}, a DOUBLE for integers and doubles, truncated toward zero for a DECIMAL (unscaled)
 * and for dates and timestamps (microseconds: a DATE's quantile is a TIMESTAMP). MODE is the most frequent value, of
 * equally frequent ones the first collected, or with an ORDER BY inside the first in that order, as DuckDB's (without
 * one DuckDB's choice follows its hash table, not the input, so no rule matches it always); STRING_AGG joins the values in the order of its ORDER BY keys (a stable
 * sort), else in the order collected. With DISTINCT each
 * value counts once (STRING_AGG keeps its first place).
 */
final class HolisticValues {

    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private HolisticValues() {
    }

    /** The value as a long: a discrete quantile or MODE of long values, or a DECIMAL's or timestamp's quantile. */
    static long longValue(AggSpec s, ValueList values) {
        long[] v = values.allLongs();
        boolean distinct = s.options().distinct();
        switch (s.function()) {
            case MODE -> {
                return (Long) mode(inOrder(boxed(v), values, s.options()), distinct);
            }
            case QUANTILE_DISC -> {
                v = sorted(v, distinct);
                return v[discreteIndex(v.length, s.options())];
            }
            case QUANTILE_CONT -> {
                v = sorted(v, distinct);
                if (s.argType().kind() == TypeKind.DATE) {
                    for (int i = 0; i < v.length; i++) {
                        v[i] = Math.multiplyExact(v[i], MICROS_PER_DAY);
                    }
                }
                double rn = (v.length - 1) * s.options().fraction();
                int lo = (int) Math.floor(rn);
                int hi = (int) Math.ceil(rn);
                return lo == hi ? v[lo] : (long) (v[lo] + (double) (v[hi] - v[lo]) * (rn - lo));
            }
            default -> throw new IllegalStateException(s.function() + " has no long value");
        }
    }

    /** The value as a double: a quantile or MODE of doubles, or the continuous quantile of integers. */
    static double doubleValue(AggSpec s, ValueList values) {
        boolean distinct = s.options().distinct();
        if (s.function() == io.tessera.plan.AggFunction.ENTROPY) {
            Object[] v = s.argKind() == ValueKind.STRING ? values.allStrings()
                    : s.argKind() == ValueKind.DOUBLE ? Arrays.stream(values.allDoubles()).boxed().toArray()
                    : boxed(values.allLongs());
            return Entropy.of(v, distinct);
        }
        if (s.function() == io.tessera.plan.AggFunction.MAD) {
            double[] v = s.argKind() == ValueKind.DOUBLE ? values.allDoubles()
                    : Arrays.stream(values.allLongs()).asDoubleStream().toArray();
            return mad(v, distinct);
        }
        double[] v;
        if (s.argKind() == ValueKind.DOUBLE) {
            if (s.function() == io.tessera.plan.AggFunction.MODE) {
                return (Double) mode(inOrder(Arrays.stream(values.allDoubles()).boxed().toArray(), values,
                        s.options()), distinct);
            }
            v = values.allDoubles();
            Arrays.sort(v);
            if (distinct) {
                v = Arrays.stream(v).distinct().toArray();
            }
        } else {
            v = Arrays.stream(sorted(values.allLongs(), distinct)).asDoubleStream().toArray();
        }
        if (s.function() == io.tessera.plan.AggFunction.QUANTILE_DISC) {
            return v[discreteIndex(v.length, s.options())];
        }
        double rn = (v.length - 1) * s.options().fraction();
        int lo = (int) Math.floor(rn);
        int hi = (int) Math.ceil(rn);
        return lo == hi ? v[lo] : v[lo] + (v[hi] - v[lo]) * (rn - lo);
    }

    /**
     * The median absolute deviation: the median (interpolated, as QUANTILE_CONT at 0.5) of the absolute differences
     * of the values from their median.
     */
    private static double mad(double[] values, boolean distinct) {
        double[] v = values.clone();
        Arrays.sort(v);
        if (distinct) {
            v = Arrays.stream(v).distinct().toArray();
        }
        double median = median(v);
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.abs(v[i] - median);
        }
        Arrays.sort(v);
        return median(v);
    }

    /** The median of sorted values, interpolated between the middle two of an even number. */
    private static double median(double[] sorted) {
        double rn = (sorted.length - 1) * 0.5;
        int lo = (int) Math.floor(rn);
        int hi = (int) Math.ceil(rn);
        return lo == hi ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * (rn - lo);
    }

    /** The value as a string: STRING_AGG's, or a discrete quantile or MODE of strings the query computed. */
    static String stringValue(AggSpec s, ValueList values) {
        HolisticOptions o = s.options();
        String[] v = values.allStrings();
        switch (s.function()) {
            case STRING_AGG -> {
                if (!o.order().isEmpty()) {
                    v = ordered(v, values.allKeys(), o.order());
                }
                StringJoiner j = new StringJoiner(o.separator());
                for (String x : o.distinct() ? new LinkedHashSet<>(Arrays.asList(v)) : Arrays.asList(v)) {
                    j.add(x);
                }
                return j.toString();
            }
            case MODE -> {
                return (String) mode(inOrder(v, values, o), o.distinct());
            }
            case QUANTILE_DISC -> {
                Arrays.sort(v, CodePointOrder::compare);
                if (o.distinct()) {
                    v = new LinkedHashSet<>(Arrays.asList(v)).toArray(String[]::new);
                }
                return v[discreteIndex(v.length, o)];
            }
            default -> throw new IllegalStateException(s.function() + " has no string value");
        }
    }

    /** The values in the order of the ORDER BY inside the call, if it has one (MODE's ties go to the first). */
    private static Object[] inOrder(Object[] v, ValueList values, HolisticOptions o) {
        return o.order().isEmpty() ? v : ordered(v, values.allKeys(), o.order());
    }

    /** The values in the order of their keys (a stable sort: rows of equal keys stay in the order they came). */
    private static <T> T[] ordered(T[] v, Object[][] keys, List<HolisticOptions.OrderKey> order) {
        Integer[] at = new Integer[v.length];
        for (int i = 0; i < at.length; i++) {
            at[i] = i;
        }
        Arrays.sort(at, (x, y) -> compareKeys(keys[x], keys[y], order));
        T[] out = v.clone();
        for (int i = 0; i < at.length; i++) {
            out[i] = v[at[i]];
        }
        return out;
    }

    private static int compareKeys(Object[] a, Object[] b, List<HolisticOptions.OrderKey> order) {
        for (int k = 0; k < order.size(); k++) {
            Object x = a[k];
            Object y = b[k];
            int c;
            if (x == null || y == null) {
                c = x == y ? 0 : (x == null) == order.get(k).nullsFirst() ? -1 : 1;
            } else {
                c = x instanceof String sx ? CodePointOrder.compare(sx, (String) y) : compareValues(x, y);
                c = order.get(k).descending() ? -c : c;
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object x, Object y) {
        return ((Comparable) x).compareTo(y);
    }

    /** The position of the discrete quantile among {@code n} sorted values. */
    static int discreteIndex(int n, HolisticOptions o) {
        long above;
        if (o.exactFraction() != null) {
            above = BigDecimal.valueOf(n).multiply(o.exactFraction()).setScale(0, RoundingMode.CEILING).longValueExact();
        } else {
            above = n - (long) Math.floor(n - (double) n * o.fraction());
        }
        return (int) Math.max(1, above) - 1;
    }

    private static long[] sorted(long[] v, boolean distinct) {
        Arrays.sort(v);
        return distinct ? Arrays.stream(v).distinct().toArray() : v;
    }

    private static Object[] boxed(long[] v) {
        return Arrays.stream(v).boxed().toArray();
    }

    /** The most frequent value; of equally frequent ones the first met (with DISTINCT, the first value). */
    private static Object mode(Object[] v, boolean distinct) {
        Map<Object, long[]> counts = new LinkedHashMap<>();
        for (Object x : v) {
            counts.computeIfAbsent(x, k -> new long[1])[0]++;
        }
        Object best = null;
        long most = 0;
        for (Map.Entry<Object, long[]> e : counts.entrySet()) {
            long c = distinct ? 1 : e.getValue()[0];
            if (c > most) {
                most = c;
                best = e.getKey();
            }
        }
        return best;
    }
}
