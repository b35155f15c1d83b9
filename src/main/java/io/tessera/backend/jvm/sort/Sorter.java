package io.tessera.backend.jvm.sort;

import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.SortKey;
import io.tessera.storage.CodePointOrder;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Orders the rows of a row buffer by sort keys (NULLs first or last as asked); strings by code point, and VARCHAR
 * codes compare as their strings since each column's dictionary is order-preserving. Keeps only the first {@code limit} rows when asked
 * (a bounded heap for TOP_K).
 */
public final class Sorter {
    private Sorter() {
    }

    public static int[] order(RowBuffer b, SortKey[] keys, long limit) {
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
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, cmp);
        return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
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
