package io.tessera.backend.host.sort;

import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.RowGather;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.storage.CodePointOrder;

/**
 * Orders the rows of a row buffer by sort keys (NULLs first or last as asked); strings by code point, and VARCHAR
 * codes compare as their strings since each column's dictionary is order-preserving. Keeps only the first
 * {@code limit} rows when asked and they are few ({@link TopK}, a bounded heap); else sorts every row
 * ({@link SortedRows}, in runs on the workers); either way rows equal in every key keep their buffer order.
 */
public final class Sorter {
    /** The fewest rows worth a run of their own: fewer rows are sorted in fewer runs, down to one. */
    public static final int MIN_RUN_ROWS = 2048;

    private Sorter() {
    }

    /** Runs for {@code rows} rows on {@code threads} threads by size: one a thread, of {@link #MIN_RUN_ROWS} rows or more. */
    public static int runsBySize(int rows, int threads) {
        return Math.max(1, Math.min(threads, rows / MIN_RUN_ROWS));
    }

    /**
     * The rows in order, sorted in {@code runs} runs on the workers; with {@code limit} >= 0 at least the first
     * limit rows (exactly those, by {@link TopK}, when they are fewer than a quarter of the rows).
     */
    public static int[] order(RowBuffer b, SortKey[] keys, long limit, int runs, HostWorkers w) {
        if (limit >= 0 && limit < b.size / 4) {
            return TopK.order(b, keys, (int) limit);
        }
        return SortedRows.sort(b, keys, runs, w).order;
    }

    /**
     * The end of a SORT sink: the rows in the sink's order, cut to its OFFSET and LIMIT, sorted in {@code runs}
     * runs and copied on the workers.
     */
    public static RowBuffer sorted(RowBuffer rows, Sink.Sort s, int runs, HostWorkers w) {
        int[] order = order(rows, keys(s), s.isTopK() ? s.offset() + s.fetch() : -1, runs, w);
        int from = (int) Math.min(s.offset(), order.length);
        int to = s.isTopK() ? (int) Math.min(order.length, s.offset() + s.fetch()) : order.length;
        return RowGather.gather(rows, order, from, to, w);
    }

    /** A SORT sink's keys. */
    public static SortKey[] keys(Sink.Sort s) {
        return s.keys().toArray(new SortKey[0]);
    }

    /** Compares rows x and y by the keys (0 where they are equal in every key); DOUBLE -0.0 equals 0.0. */
    public static int compare(RowBuffer b, SortKey[] keys, int x, int y) {
        for (SortKey k : keys) {
            int c = k.column();
            boolean nx = b.isNull(c, x);
            boolean ny = b.isNull(c, y);
            int r;
            if (nx || ny) {
                if (nx && ny) {
                    continue;
                }
                r = nx == k.nullsFirst() ? -1 : 1;
                return r; // NULL placement does not flip with the direction
            }
            r = switch (b.kinds[c]) {
                case INT, CODE -> Integer.compare(b.ints[c][x], b.ints[c][y]);
                case LONG -> Long.compare(b.longs[c][x], b.longs[c][y]);
                case DOUBLE -> Double.compare(b.doubles[c][x] + 0.0, b.doubles[c][y] + 0.0);
                case BOOL -> Byte.compare(b.bytes[c][x], b.bytes[c][y]);
                case STRING -> CodePointOrder.compare(b.strings[c][x], b.strings[c][y]);
            };
            if (r != 0) {
                return k.descending() ? -r : r;
            }
        }
        return 0;
    }
}
