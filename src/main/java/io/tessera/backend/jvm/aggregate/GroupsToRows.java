package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.GroupRows;
import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.WorkerTasks;
import io.tessera.plan.AggFunction;

import java.util.concurrent.ExecutorService;

/**
 * Groups turned into the rows of a relation: keys decoded, then each aggregate's final value by {@link GroupRows}.
 * The rows are written in ranges that start at multiples of 64 (so no two share a word of a NULL bitmap, which are
 * all made beforehand), by the workers when there are many groups.
 */
final class GroupsToRows {

    /** Fewer groups than this are written on one thread. */
    static final int PARALLEL_MIN_GROUPS = 1 << 14;

    private GroupsToRows() {
    }

    /**
     * The groups' rows: {@code keyKinds} and {@code dictionaries} of the key columns first, then the aggregates
     * ({@code valueKinds}: each aggregate column's kind).
     */
    static RelationPart rows(Groups groups, ValueKind[] keyKinds, ValueKind[] kinds, String[] dictionaries,
                             ExecutorService pool, int workers) {
        int nk = keyKinds.length;
        int n = groups.total();
        RelationPart part = RelationPart.allocate(kinds, dictionaries, n);
        RowBuffer out = part.rows();
        for (int c = 0; c < kinds.length; c++) {
            out.nulls[c] = new long[(n + 63) >>> 6];
        }
        AggSpec[] aggs = groups.tables().get(0).aggs;
        GroupRows.Final[] finals = JvmGroups.finals(aggs);
        int piece = n < PARALLEL_MIN_GROUPS ? Math.max(64, n) : WorkerTasks.pieceSize(n, workers, 4, 1 << 12);
        WorkerTasks.run(pool, n < PARALLEL_MIN_GROUPS ? 1 : workers, (n + piece - 1) / piece, i ->
                write(groups, nk, finals, out, i * piece, Math.min(n, (i + 1) * piece)));
        for (int c = 0; c < kinds.length; c++) {
            boolean any = false;
            for (long w : out.nulls[c]) {
                any |= w != 0;
            }
            if (!any) {
                out.nulls[c] = null;
            }
        }
        for (int a = 0; a < aggs.length; a++) {
            if (aggs[a].stringResult()) {
                part.dictionaries()[nk + a] = null;
            }
        }
        return part;
    }

    /** Rows {@code [from, to)}: the groups of every table those rows fall in. */
    private static void write(Groups groups, int nk, GroupRows.Final[] finals, RowBuffer out, int from, int to) {
        for (int t = 0; t < groups.tables().size(); t++) {
            int lo = Math.max(from, groups.offset(t));
            int hi = Math.min(to, groups.offset(t + 1));
            if (lo >= hi) {
                continue;
            }
            GroupTable table = groups.tables().get(t);
            int off = groups.offset(t);
            for (int row = lo; row < hi; row++) {
                int g = groups.group(t, row - off);
                for (int k = 0; k < nk; k++) {
                    Long raw;
                    if (table instanceof DenseGroupTable d) {
                        raw = d.key(g, k);
                    } else {
                        HashGroupTable h = (HashGroupTable) table;
                        raw = h.isNullKey(g, k) ? null : h.keys[g * h.width + k];
                    }
                    if (raw == null) {
                        out.setNull(k, row);
                    } else if (out.kinds[k] == ValueKind.STRING) {
                        out.strings[k][row] = ((HashGroupTable) table).internedString(raw);
                    } else {
                        out.setRaw(k, row, raw);
                    }
                }
            }
            GroupRows.aggregates(finals, accumulated(table, groups, t), lo, hi, out, nk);
        }
    }

    /** What table t's groups accumulated, indexed by their rows. */
    private static GroupRows.Accumulated accumulated(GroupTable t, Groups groups, int table) {
        int off = groups.offset(table);
        return new GroupRows.Accumulated() {
            private int g(int row) {
                return groups.group(table, row - off);
            }

            @Override
            public long count(int a, int i) {
                if (t.aggs[a].function() == AggFunction.STRING_AGG && t.aggs[a].options().separator() == null) {
                    return 0; // STRING_AGG with a NULL separator: NULL
                }
                // SUM and AVG of DISTINCT values: the distinct values are what is summed and counted
                return sumsDistinct(a) ? t.distinctCount(a, g(i)) : t.counts[a][g(i)];
            }

            @Override
            public long longValue(int a, int i) {
                return holistic(a) ? HolisticValues.longValue(t.aggs[a], t.lists[a][g(i)])
                        : sumsDistinct(a) ? t.distinctLongSum(a, g(i)) : t.lvals[a][g(i)];
            }

            @Override
            public double doubleValue(int a, int i) {
                return holistic(a) ? HolisticValues.doubleValue(t.aggs[a], t.lists[a][g(i)])
                        : sumsDistinct(a) ? t.distinctDoubleSum(a, g(i)) : t.dvals[a][g(i)];
            }

            private boolean holistic(int a) {
                return t.aggs[a].function().holistic();
            }

            @Override
            public double secondMoment(int a, int i) {
                return t.d2vals[a][g(i)];
            }

            @Override
            public String stringValue(int a, int i) {
                return holistic(a) ? HolisticValues.stringValue(t.aggs[a], t.lists[a][g(i)]) : t.svals[a][g(i)];
            }

            private boolean sumsDistinct(int a) {
                return t.aggs[a].function() == AggFunction.SUM_DISTINCT || t.aggs[a].function() == AggFunction.AVG_DISTINCT;
            }

            @Override
            public long distinctCount(int a, int i) {
                return t.distinctCount(a, g(i));
            }
        };
    }
}
