package io.tessera.backend.jvm.window;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.Sink;
import io.tessera.plan.WindowFunction;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Computes a WINDOW sink's functions over its collected rows: per distinct (PARTITION BY, ORDER BY) the rows are
 * sorted once ({@link WindowOrder}), each function fills one new column, and the rows keep the order they were
 * collected in, the new columns after theirs. On one thread (its sorts in runs on the workers), or, with more than
 * one thread and PARTITION BY columns that every function names, in groups of whole partitions
 * ({@link WindowPartitions}) that the workers sort and evaluate one group each.
 */
public final class WindowEvaluator {

    /** Groups of partitions per thread: a few, so that a large partition on one worker is evened out by the rest. */
    private static final int GROUPS_PER_THREAD = 4;

    private WindowEvaluator() {
    }

    /** The collected rows with one column per window function appended, on the calling thread. */
    public static RelationPart evaluate(RelationPart in, Sink.Window w, Function<String, Dictionary> dictionaries,
                                       Runnable checkCancel) {
        return evaluate(in, w, dictionaries, new HostWorkers(null, 1, checkCancel));
    }

    /**
     * The collected rows with one column per window function appended; VARCHAR results keep their dictionary. With
     * more than one thread, the partitions are evaluated by the workers where the functions share PARTITION BY
     * columns, else the sorts run in runs on the workers.
     */
    public static RelationPart evaluate(RelationPart in, Sink.Window w, Function<String, Dictionary> dictionaries,
                                       HostWorkers workers) {
        RowBuffer b = in.rows();
        List<WindowFunction> fns = w.functions();
        ValueKind[] outKinds = new ValueKind[fns.size()];
        String[] outDicts = new String[fns.size()];
        for (int f = 0; f < outKinds.length; f++) {
            WindowFunction fn = fns.get(f);
            outKinds[f] = kind(fn, b, in.dictionaries());
            outDicts[f] = outKinds[f] == ValueKind.CODE ? in.dictionaries()[fn.arg()] : null;
        }
        RowBuffer out = new RowBuffer(outKinds, b.size);
        out.size = b.size;
        List<Integer> shared = WindowPartitions.shared(fns);
        if (workers.threads() == 1 || shared.isEmpty() || b.size < 2) {
            Rows all = new Rows(in, w, dictionaries, out, false, workers.checkCancel());
            for (int f = 0; f < fns.size(); f++) {
                workers.checkCancel().run(); // between functions, and every few thousand rows of a pass
                all.function(f, null, b.size, workers);
            }
        } else {
            int[][] groups = WindowPartitions.groups(b, shared, GROUPS_PER_THREAD * workers.threads(), workers);
            List<Rows> done = new ArrayList<>();
            List<Runnable> tasks = new ArrayList<>();
            for (int[] group : groups) {
                Rows rows = new Rows(in, w, dictionaries, out, true, workers.checkCancel());
                done.add(rows);
                tasks.add(() -> {
                    for (int f = 0; f < fns.size(); f++) {
                        rows.function(f, group, group.length, HostWorkers.ONE);
                    }
                });
            }
            workers.run(tasks);
            for (Rows rows : done) {
                rows.applyNulls();
            }
        }
        return new RelationPart(join(b, out), concat(in.dictionaries(), outDicts));
    }

    /** The functions' results over some rows of the buffer (all, or a group of whole partitions), one thread's. */
    private static final class Rows {
        private final RelationPart in;
        private final Sink.Window w;
        private final WindowValues[] values;
        private final Map<List<Object>, WindowOrder> orders = new HashMap<>();
        /** The query's cancel check, run every few thousand rows of a function's pass. */
        private final Runnable checkCancel;

        Rows(RelationPart in, Sink.Window w, Function<String, Dictionary> dictionaries, RowBuffer out,
             boolean deferNulls, Runnable checkCancel) {
            this.in = in;
            this.checkCancel = checkCancel;
            this.w = w;
            values = new WindowValues[w.functions().size()];
            for (int f = 0; f < values.length; f++) {
                values[f] = new WindowValues(in.rows(), in.dictionaries(), dictionaries, out, f, deferNulls);
            }
        }

        /** Function f over buffer rows {@code subset[0 .. count)} (every row where subset is null). */
        void function(int f, int[] subset, int count, HostWorkers sortWorkers) {
            RowBuffer b = in.rows();
            WindowFunction fn = w.functions().get(f);
            WindowOrder o = orders.computeIfAbsent(List.of(fn.partition(), fn.order()),
                    k -> new WindowOrder(b, fn.partition(), fn.order(), subset, count, sortWorkers.threads(),
                            sortWorkers));
            WindowValues v = values[f];
            switch (fn.kind()) {
                case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE -> WindowRanks.compute(fn, o, v);
                case LAG, LEAD -> v.shifted(fn, o);
                case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> v.edge(fn, o, frames(b, o, fn));
                default -> WindowAggregates.compute(fn, fn.arg() < 0 ? null : w.outputs().get(fn.arg()).type(), b, o,
                        frames(b, o, fn), v, checkCancel);
            }
        }

        void applyNulls() {
            for (WindowValues v : values) {
                v.applyNulls();
            }
        }
    }

    private static WindowFrames frames(RowBuffer b, WindowOrder o, WindowFunction fn) {
        return new WindowFrames(b, o, fn.frame(), fn.order());
    }

    /**
     * The representation of a function's results: its type's, except that a VARCHAR stays codes of its argument's
     * dictionary unless LAG's or LEAD's default is a constant or a column of another dictionary (then strings).
     */
    private static ValueKind kind(WindowFunction fn, RowBuffer b, String[] dicts) {
        if (fn.type().kind() != TypeKind.VARCHAR) {
            return ValueKind.stored(fn.type());
        }
        ValueKind arg = b.kinds[fn.arg()];
        if (arg == ValueKind.STRING) {
            return ValueKind.STRING;
        }
        boolean foreignDefault = fn.defaultValue() != null || fn.defaultColumn() >= 0
                && (b.kinds[fn.defaultColumn()] != ValueKind.CODE || !dicts[fn.defaultColumn()].equals(dicts[fn.arg()]));
        return foreignDefault ? ValueKind.STRING : ValueKind.CODE;
    }

    /** The input's columns and the results' side by side, the arrays taken as they are. */
    private static RowBuffer join(RowBuffer a, RowBuffer b) {
        int n = a.kinds.length + b.kinds.length;
        ValueKind[] kinds = new ValueKind[n];
        int[][] ints = new int[n][];
        long[][] longs = new long[n][];
        double[][] doubles = new double[n][];
        byte[][] bytes = new byte[n][];
        String[][] strings = new String[n][];
        long[][] nulls = new long[n][];
        List<RowBuffer> both = List.of(a, b);
        int at = 0;
        for (RowBuffer r : both) {
            for (int c = 0; c < r.kinds.length; c++, at++) {
                kinds[at] = r.kinds[c];
                ints[at] = r.ints[c];
                longs[at] = r.longs[c];
                doubles[at] = r.doubles[c];
                bytes[at] = r.bytes[c];
                strings[at] = r.strings[c];
                nulls[at] = r.nulls[c];
            }
        }
        return new RowBuffer(kinds, ints, longs, doubles, bytes, strings, nulls, a.size);
    }

    private static String[] concat(String[] a, String[] b) {
        List<String> all = new ArrayList<>();
        for (String s : a) {
            all.add(s);
        }
        for (String s : b) {
            all.add(s);
        }
        return all.toArray(new String[0]);
    }
}
