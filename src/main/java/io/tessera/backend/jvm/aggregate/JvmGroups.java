package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.GroupRows;
import io.tessera.backend.HostRows;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JKind;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.relation.RelationPart;
import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Expr;
import io.tessera.plan.Sink;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The end of a grouping pipeline on the JVM: its workers' group tables merged into one, and the groups turned
 * into the result relation's rows (keys decoded here, each aggregate's final value by {@link GroupRows}).
 */
public final class JvmGroups {

    private JvmGroups() {
    }

    /** Which key columns of a grouping pipeline hold interned string ids in its hash tables. */
    public static boolean[] stringKeys(EmittedPipeline e) {
        boolean[] stringKeys = new boolean[e.keyKinds().length];
        for (int k = 0; k < stringKeys.length; k++) {
            stringKeys[k] = e.keyKinds()[k] == JKind.STRING;
        }
        return stringKeys;
    }

    /** The workers' group states of one kind merged into one table (a dense array, or a hash table). */
    public static GroupTable merged(EmittedPipeline e, PipelineCode code, List<Object> states, boolean[] stringKeys,
                                    ExecutorService pool) {
        if (e.dense() || e.pipeline().sink() instanceof Sink.Aggregate) {
            DenseGroupTable d = (DenseGroupTable) states.get(0);
            for (int i = 1; i < states.size(); i++) {
                d.mergeFrom((DenseGroupTable) states.get(i));
            }
            return d;
        }
        if (states.get(0) instanceof SharedGroupTable shared) {
            return shared.collect(stringKeys);
        }
        if (states.get(0) instanceof PartitionedInput) {
            return PartitionedAggregation.aggregate(e, code, states, stringKeys, pool);
        }
        HashGroupTable h = (HashGroupTable) states.get(0);
        for (int i = 1; i < states.size(); i++) {
            h.mergeFrom((HashGroupTable) states.get(i), stringKeys);
        }
        return h;
    }

    /** The indexes of a table's groups: a dense array's used slots, or every group of a hash table. */
    public static int[] usedGroups(GroupTable t) {
        if (t instanceof DenseGroupTable d) {
            int n = 0;
            for (int gi = 0; gi < d.slots(); gi++) {
                n += d.rows[gi] > 0 ? 1 : 0;
            }
            int[] groups = new int[n];
            n = 0;
            for (int gi = 0; gi < d.slots(); gi++) {
                if (d.rows[gi] > 0) {
                    groups[n++] = gi;
                }
            }
            return groups;
        }
        int[] groups = new int[((HashGroupTable) t).groups];
        for (int gi = 0; gi < groups.length; gi++) {
            groups[gi] = gi;
        }
        return groups;
    }

    /** Rows of the groups {@code groups} of {@code t}: keys decoded, then each aggregate's final value. */
    public static RelationPart toRows(EmittedPipeline e, GroupTable t, int[] groups, List<ColumnInfo> cols) {
        int nk = e.keyKinds().length;
        ValueKind[] kinds = new ValueKind[cols.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = c < nk ? ValueKind.valueOf(e.keyKinds()[c].name())
                    : t.aggs[c - nk].stringValue() ? ValueKind.STRING : ValueKind.stored(cols.get(c).type());
        }
        HostRows out = HostRows.allocate(kinds, dictionaries(e, nk, cols.size()), groups.length);
        for (int w = 0; w < groups.length; w++) {
            int g = groups[w];
            for (int k = 0; k < nk; k++) {
                Long raw;
                if (t instanceof DenseGroupTable d) {
                    raw = d.key(g, k);
                } else {
                    HashGroupTable h = (HashGroupTable) t;
                    raw = h.isNullKey(g, k) ? null : h.keys[g * h.width + k];
                }
                if (raw == null) {
                    out.setNull(k, w);
                } else if (kinds[k] == ValueKind.STRING) {
                    out.strings[k][w] = ((HashGroupTable) t).internedString(raw);
                } else {
                    out.setRaw(k, w, raw);
                }
            }
        }
        GroupRows.aggregates(finals(t.aggs), accumulated(t, groups), groups.length, out, nk);
        for (int a = 0; a < t.aggs.length; a++) {
            if (t.aggs[a].stringValue()) {
                out.dictionaries[nk + a] = null;
            }
        }
        JKind[] jkinds = new JKind[kinds.length];
        for (int c = 0; c < kinds.length; c++) {
            jkinds[c] = JKind.valueOf(kinds[c].name());
        }
        return new RelationPart(new RowBuffer(jkinds, out.ints, out.longs, out.doubles, out.bytes, out.strings,
                out.nulls, out.size), out.dictionaries);
    }

    static GroupRows.Final[] finals(AggSpec[] aggs) {
        GroupRows.Final[] f = new GroupRows.Final[aggs.length];
        for (int a = 0; a < aggs.length; a++) {
            f[a] = GroupRows.Final.of(aggs[a].function(), aggs[a].doubleValue(), aggs[a].argType());
        }
        return f;
    }

    /** The JVM table's groups {@code groups[i]} as what they accumulated. */
    private static GroupRows.Accumulated accumulated(GroupTable t, int[] groups) {
        return new GroupRows.Accumulated() {
            @Override
            public long count(int a, int i) {
                // SUM and AVG of DISTINCT values: the distinct values are what is summed and counted
                return sumsDistinct(a) ? t.distinctCount(a, groups[i]) : t.counts[a][groups[i]];
            }

            @Override
            public long longValue(int a, int i) {
                return sumsDistinct(a) ? t.distinctLongSum(a, groups[i]) : t.lvals[a][groups[i]];
            }

            @Override
            public double doubleValue(int a, int i) {
                return sumsDistinct(a) ? t.distinctDoubleSum(a, groups[i]) : t.dvals[a][groups[i]];
            }

            @Override
            public double secondMoment(int a, int i) {
                return t.d2vals[a][groups[i]];
            }

            @Override
            public String stringValue(int a, int i) {
                return t.svals[a][groups[i]];
            }

            private boolean sumsDistinct(int a) {
                return t.aggs[a].function() == AggFunction.SUM_DISTINCT || t.aggs[a].function() == AggFunction.AVG_DISTINCT;
            }

            @Override
            public long distinctCount(int a, int i) {
                return t.distinctCount(a, groups[i]);
            }
        };
    }

    /** Per result column, the dictionary of its codes: the keys', then an aggregate's over a column (MIN of codes). */
    private static String[] dictionaries(EmittedPipeline e, int nk, int n) {
        String[] d = Arrays.copyOf(e.keyDicts(), n);
        Sink sink = e.pipeline().sink();
        List<AggCall> calls = sink instanceof Sink.GroupAggregate ga ? ga.aggs() : ((Sink.Aggregate) sink).aggs();
        for (int a = 0; a < e.aggs().length; a++) {
            if (calls.get(a).arg() instanceof Expr.Ref r) {
                d[nk + a] = r.slot().dictionaryKey();
            } else if (e.aggs()[a].argDict() != null) {
                d[nk + a] = e.aggs()[a].argDict(); // codes of a computed expression over a dictionary column
            }
        }
        return d;
    }
}
