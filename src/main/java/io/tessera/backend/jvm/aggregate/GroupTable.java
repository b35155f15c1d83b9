package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.DoubleOrder;
import io.tessera.backend.jvm.lib.Hashing;

import java.util.Arrays;

/**
 * One worker's aggregation state: per group, for every aggregate, a count ({@code counts[a][g]}), a value
 * ({@code lvals[a][g]}, {@code dvals[a][g]} or, for strings, {@code svals[a][g]}), for a standard deviation or
 * variance the sum of squared deviations from the mean in {@code dvals} ({@code d2vals[a][g]}), and for the
 * DISTINCT aggregates a set ({@code sets[a][g]}, a {@link DistinctSet}), for the holistic ones the values
 * ({@code lists[a][g]}, a {@link ValueList}). Generated code finds the group index and updates the arrays
 * directly; merging and reading the result are done here.
 */
public abstract class GroupTable {

    public final AggSpec[] aggs;
    public long[][] counts;
    public long[][] lvals;
    public double[][] dvals;
    public double[][] d2vals;
    public String[][] svals;
    public DistinctSet[][] sets;
    public ValueList[][] lists;
    protected int capacity;

    protected GroupTable(AggSpec[] aggs, int capacity) {
        this.aggs = aggs;
        this.capacity = capacity;
        counts = new long[aggs.length][];
        lvals = new long[aggs.length][];
        dvals = new double[aggs.length][];
        d2vals = new double[aggs.length][];
        svals = new String[aggs.length][];
        sets = new DistinctSet[aggs.length][];
        lists = new ValueList[aggs.length][];
        for (int a = 0; a < aggs.length; a++) {
            allocate(a, capacity);
        }
    }

    private void allocate(int a, int cap) {
        AggSpec s = aggs[a];
        counts[a] = new long[cap];
        if (s.stringValue()) {
            svals[a] = new String[cap];
        } else if (s.hasValue()) {
            if (s.doubleValue()) {
                dvals[a] = new double[cap];
            } else {
                lvals[a] = new long[cap];
            }
        }
        if (s.function().statistic()) {
            d2vals[a] = new double[cap];
        }
        if (s.function().distinct()) {
            sets[a] = new DistinctSet[cap];
        }
        if (s.function().holistic()) {
            lists[a] = new ValueList[cap];
        }
    }

    protected void growAggregates(int cap) {
        for (int a = 0; a < aggs.length; a++) {
            counts[a] = Arrays.copyOf(counts[a], cap);
            if (lvals[a] != null) {
                lvals[a] = Arrays.copyOf(lvals[a], cap);
            }
            if (dvals[a] != null) {
                dvals[a] = Arrays.copyOf(dvals[a], cap);
            }
            if (d2vals[a] != null) {
                d2vals[a] = Arrays.copyOf(d2vals[a], cap);
            }
            if (svals[a] != null) {
                svals[a] = Arrays.copyOf(svals[a], cap);
            }
            if (sets[a] != null) {
                sets[a] = Arrays.copyOf(sets[a], cap);
            }
            if (lists[a] != null) {
                lists[a] = Arrays.copyOf(lists[a], cap);
            }
        }
        capacity = cap;
    }

    /** Adds a value to group g's distinct set of aggregate a (a string; numbers come encoded as longs). */
    public final void addDistinct(int a, int g, Object v) {
        if (v instanceof String str) {
            distinctSet(a, g).add(str);
        } else {
            distinctSet(a, g).add(((Number) v).longValue());
        }
    }

    public final void addDistinct(int a, int g, long v) {
        distinctSet(a, g).add(v);
    }

    /** Adds a value to group g's values of holistic aggregate a (numbers of every kind but DOUBLE as longs). */
    public final void addValue(int a, int g, long v) {
        valueList(a, g).add(v);
    }

    public final void addValue(int a, int g, double v) {
        valueList(a, g).add(v);
    }

    public final void addValue(int a, int g, String v) {
        valueList(a, g).add(v);
    }

    /** Adds a value with its ORDER BY keys (STRING_AGG or MODE with an ORDER BY). */
    public final void addValue(int a, int g, String v, Object[] keys) {
        valueList(a, g).add(v, keys);
    }

    public final void addValue(int a, int g, long v, Object[] keys) {
        valueList(a, g).add(v, keys);
    }

    public final void addValue(int a, int g, double v, Object[] keys) {
        valueList(a, g).add(v, keys);
    }

    private ValueList valueList(int a, int g) {
        ValueList list = lists[a][g];
        if (list == null) {
            list = lists[a][g] = new ValueList();
        }
        return list;
    }

    private DistinctSet distinctSet(int a, int g) {
        DistinctSet set = sets[a][g];
        if (set == null) {
            set = sets[a][g] = new DistinctSet();
        }
        return set;
    }

    /**
     * Combines group {@code from} of {@code other} into group {@code to} of this table. A DISTINCT aggregate's set of
     * {@code other} is taken over, or noted in this table's set to be added when it is read ({@link DistinctSet#defer}).
     */
    protected final void combine(GroupTable other, int from, int to) {
        for (int a = 0; a < aggs.length; a++) {
            AggSpec s = aggs[a];
            long oc = other.counts[a][from];
            long tc = counts[a][to];
            if (s.function().statistic()) {
                mergeMoments(a, to, oc, other.dvals[a][from], other.d2vals[a][from]);
                continue;
            }
            if (s.stringValue()) {
                if (oc > 0) {
                    String ov = other.svals[a][from];
                    svals[a][to] = tc == 0 ? ov : s.isMin() ? least(svals[a][to], ov) : s.isMax() ? greatest(svals[a][to], ov) : ov;
                }
                counts[a][to] = tc + oc;
                continue;
            }
            if (s.hasValue() && oc > 0) {
                if (s.doubleValue()) {
                    double ov = other.dvals[a][from];
                    double[] tv = dvals[a];
                    if (tc == 0) {
                        tv[to] = ov;
                    } else if (s.isMin()) {
                        tv[to] = DoubleOrder.min(tv[to], ov);
                    } else if (s.isMax()) {
                        tv[to] = DoubleOrder.max(tv[to], ov);
                    } else if (s.function().fold()) {
                        tv[to] = Folds.product(tv[to], ov);
                    } else if (s.function() != io.tessera.plan.AggFunction.SINGLE_VALUE
                            && s.function() != io.tessera.plan.AggFunction.ANY_VALUE) {
                        tv[to] += ov;
                    }
                } else {
                    long ov = other.lvals[a][from];
                    long[] tv = lvals[a];
                    if (tc == 0) {
                        tv[to] = ov;
                    } else if (s.isMin()) {
                        tv[to] = Math.min(tv[to], ov);
                    } else if (s.isMax()) {
                        tv[to] = Math.max(tv[to], ov);
                    } else if (s.function().fold()) {
                        tv[to] = Folds.apply(s.function(), tv[to], ov);
                    } else if (s.function() != io.tessera.plan.AggFunction.SINGLE_VALUE
                            && s.function() != io.tessera.plan.AggFunction.ANY_VALUE) {
                        tv[to] = Math.addExact(tv[to], ov);
                    }
                }
            }
            counts[a][to] = tc + oc;
            if (sets[a] != null && other.sets[a][from] != null) {
                DistinctSet os = other.sets[a][from];
                DistinctSet ts = sets[a][to];
                if (ts == null) {
                    sets[a][to] = os;
                } else {
                    ts.defer(os);
                }
            }
            if (lists[a] != null && other.lists[a][from] != null) {
                ValueList ol = other.lists[a][from];
                if (lists[a][to] == null) {
                    lists[a][to] = ol;
                } else {
                    lists[a][to].append(ol);
                }
            }
        }
    }

    /** Moves group {@code from}'s aggregate states to group {@code to} (whose own are dropped). */
    protected final void moveGroup(int from, int to) {
        for (int a = 0; a < aggs.length; a++) {
            counts[a][to] = counts[a][from];
            if (lvals[a] != null) {
                lvals[a][to] = lvals[a][from];
            }
            if (dvals[a] != null) {
                dvals[a][to] = dvals[a][from];
            }
            if (d2vals[a] != null) {
                d2vals[a][to] = d2vals[a][from];
            }
            if (svals[a] != null) {
                svals[a][to] = svals[a][from];
            }
            if (sets[a] != null) {
                sets[a][to] = sets[a][from];
            }
            if (lists[a] != null) {
                lists[a][to] = lists[a][from];
            }
        }
    }

    /** Number of distinct values of aggregate a in group g. */
    public final long distinctCount(int a, int g) {
        DistinctSet s = sets[a][g];
        return s == null ? 0 : s.size();
    }

    /**
     * Adds {@code n} values of mean {@code mean} and sum of squared deviations {@code m2} to group g of statistic a
     * (the pairwise update of Chan, Golub and LeVeque: no sum of squares that cancels catastrophically).
     */
    public final void mergeMoments(int a, int g, long n, double mean, double m2) {
        if (n == 0) {
            return;
        }
        long n1 = counts[a][g];
        if (n1 == 0) {
            counts[a][g] = n;
            dvals[a][g] = mean;
            d2vals[a][g] = m2;
            return;
        }
        long total = n1 + n;
        double mean1 = dvals[a][g];
        double delta = mean - mean1;
        dvals[a][g] = mean1 + delta * ((double) n / total);
        d2vals[a][g] = d2vals[a][g] + m2 + delta * delta * ((double) n1 * n / total);
        counts[a][g] = total;
    }

    /** The smaller of two strings by code point (MIN of strings); null (no value yet) is never the smaller. */
    public static String least(String a, String b) {
        return a == null ? b : b == null ? a : io.tessera.storage.CodePointOrder.compare(b, a) < 0 ? b : a;
    }

    /** The larger of two strings by code point (MAX of strings); null (no value yet) is never the larger. */
    public static String greatest(String a, String b) {
        return a == null ? b : b == null ? a : io.tessera.storage.CodePointOrder.compare(b, a) > 0 ? b : a;
    }

    /** The sum of the distinct values of aggregate a in group g, as longs (integers, DECIMAL unscaled). */
    public final long distinctLongSum(int a, int g) {
        DistinctSet s = sets[a][g];
        return s == null ? 0 : s.longSum();
    }

    /** The sum of the distinct DOUBLE values of aggregate a in group g (held as {@link Hashing#doubleKey}). */
    public final double distinctDoubleSum(int a, int g) {
        DistinctSet s = sets[a][g];
        return s == null ? 0 : s.doubleSum();
    }
}
