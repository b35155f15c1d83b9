package io.tessera.backend.jvm.sort;

import io.tessera.backend.jvm.relation.HostWorkers;
import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.SortKey;
import io.tessera.storage.CodePointOrder;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Orders the rows of a row buffer by sort keys (NULLs first or last as asked); strings by code point, and VARCHAR
 * codes compare as their strings since each column's dictionary is order-preserving. Keeps only the first
 * {@code limit} rows when asked and they are few (a bounded heap); else sorts every row ({@link SortedRows}, in
 * runs on the workers), rows equal in every key in buffer order.
 */
public final class Sorter {
    /** The fewest rows worth a run of their own: fewer rows are sorted in fewer runs, down to one. */
    public static final int MIN_RUN_ROWS = 2048;

    private Sorter() {
    }

    /** The rows in order on the calling thread; with {@code limit} >= 0, at least the first limit rows. */
    public static int[] order(RowBuffer b, SortKey[] keys, long limit) {
        return order(b, keys, limit, 1, HostWorkers.ONE);
    }

    /**
     * The rows in order, sorted in {@code runs} runs on the workers; with {@code limit} >= 0 at least the first
     * limit rows (exactly those when they are fewer than a quarter of the rows).
     */
    public static int[] order(RowBuffer b, SortKey[] keys, long limit, int runs, HostWorkers w) {
        Comparator<Integer> cmp = (x, y) -> compare(b, keys, x, y);
        int n = b.size;
        if (limit >= 0 && limit < n / 4) {
            int k = (int) limit;
            if (k == 0) {
                return new int[0];
            }
            PriorityQueue<Integer> heap = new PriorityQueue<>(k + 1, cmp.reversed());
            for (int r = 0; r < n; r++) {
                if (heap.size() < k) {
                    heap.add(r);
                } else if (cmp.compare(r, heap.peek()) < 0) {
                    heap.poll();
                    heap.add(r);
                }
            }
            Integer[] top = heap.toArray(new Integer[0]);
            Arrays.sort(top, cmp);
            return Arrays.stream(top).mapToInt(Integer::intValue).toArray();
        }
        return SortedRows.sort(b, keys, runs, w).order;
    }

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
                case DOUBLE -> Double.compare(b.doubles[c][x], b.doubles[c][y]);
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
