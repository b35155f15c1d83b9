package io.tessera.backend.jvm;

import java.util.Arrays;
import java.util.HashSet;

/**
 * One worker's aggregation state: per group, for every aggregate, a count ({@code counts[a][g]}), a value
 * ({@code lvals[a][g]} or {@code dvals[a][g]}) and for COUNT(DISTINCT) a set ({@code sets[a][g]}). Generated code
 * finds the group index and updates the arrays directly; merging and reading the result are done here.
 */
public abstract class GroupTable {

    public final AggSpec[] aggs;
    public long[][] counts;
    public long[][] lvals;
    public double[][] dvals;
    public Object[][] sets;
    protected int capacity;

    protected GroupTable(AggSpec[] aggs, int capacity) {
        this.aggs = aggs;
        this.capacity = capacity;
        counts = new long[aggs.length][];
        lvals = new long[aggs.length][];
        dvals = new double[aggs.length][];
        sets = new Object[aggs.length][];
        for (int a = 0; a < aggs.length; a++) {
            allocate(a, capacity);
        }
    }

    private void allocate(int a, int cap) {
        AggSpec s = aggs[a];
        counts[a] = new long[cap];
        if (s.hasValue()) {
            if (s.doubleValue()) {
                dvals[a] = new double[cap];
            } else {
                lvals[a] = new long[cap];
            }
        }
        if (s.function() == io.tessera.plan.AggFunction.COUNT_DISTINCT) {
            sets[a] = new Object[cap];
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
            if (sets[a] != null) {
                sets[a] = Arrays.copyOf(sets[a], cap);
            }
        }
        capacity = cap;
    }

    /** Adds a value to group g's distinct set of aggregate a (values encoded as long or String). */
    @SuppressWarnings("unchecked")
    public final void addDistinct(int a, int g, Object v) {
        Object[] s = sets[a];
        HashSet<Object> set = (HashSet<Object>) s[g];
        if (set == null) {
            set = new HashSet<>();
            s[g] = set;
        }
        set.add(v);
    }

    public final void addDistinct(int a, int g, long v) {
        addDistinct(a, g, (Object) v);
    }

    /** Combines group {@code from} of {@code other} into group {@code to} of this table. */
    @SuppressWarnings("unchecked")
    protected final void combine(GroupTable other, int from, int to) {
        for (int a = 0; a < aggs.length; a++) {
            AggSpec s = aggs[a];
            long oc = other.counts[a][from];
            long tc = counts[a][to];
            if (s.hasValue() && oc > 0) {
                if (s.doubleValue()) {
                    double ov = other.dvals[a][from];
                    double[] tv = dvals[a];
                    if (tc == 0) {
                        tv[to] = ov;
                    } else if (s.isMin()) {
                        tv[to] = Math.min(tv[to], ov);
                    } else if (s.isMax()) {
                        tv[to] = Math.max(tv[to], ov);
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
                    } else if (s.function() != io.tessera.plan.AggFunction.SINGLE_VALUE
                            && s.function() != io.tessera.plan.AggFunction.ANY_VALUE) {
                        tv[to] = Math.addExact(tv[to], ov);
                    }
                }
            }
            counts[a][to] = tc + oc;
            if (sets[a] != null && other.sets[a][from] != null) {
                HashSet<Object> os = (HashSet<Object>) other.sets[a][from];
                HashSet<Object> ts = (HashSet<Object>) sets[a][to];
                if (ts == null) {
                    sets[a][to] = os;
                } else {
                    ts.addAll(os);
                }
            }
        }
    }

    /** Number of distinct values of aggregate a in group g. */
    public final long distinctCount(int a, int g) {
        Object s = sets[a][g];
        return s == null ? 0 : ((HashSet<?>) s).size();
    }
}
