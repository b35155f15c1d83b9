package io.tessera.backend.jvm.window;

import io.tessera.backend.jvm.gen.JKind;
import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.SortKey;
import io.tessera.storage.CodePointOrder;

/**
 * Orders the rows of a window sink by its keys (partition columns, then ORDER BY keys) without boxing: each key
 * column is read once into a long per row that compares as the column's values do (integers and codes as they are,
 * a double's bits turned so that signed comparison orders them as {@link Double#compare}, -0.0 as 0.0), then a stable merge sort
 * over row numbers compares those longs. Strings a union left undecoded compare as strings.
 */
final class WindowSort {

    private final RowBuffer b;
    private final SortKey[] keys;
    private final long[][] values;

    WindowSort(RowBuffer b, SortKey[] keys) {
        this.b = b;
        this.keys = keys;
        this.values = new long[keys.length][];
        for (int k = 0; k < keys.length; k++) {
            int c = keys[k].column();
            if (b.kinds[c] == JKind.STRING) {
                continue;
            }
            long[] v = new long[b.size];
            for (int r = 0; r < b.size; r++) {
                v[r] = switch (b.kinds[c]) {
                    case INT, CODE -> b.ints[c][r];
                    case LONG -> b.longs[c][r];
                    case BOOL -> b.bytes[c][r];
                    case DOUBLE -> {
                        // + 0.0 makes -0.0 equal to 0.0, as SQL compares them
                        long bits = Double.doubleToLongBits(b.doubles[c][r] + 0.0);
                        yield bits ^ ((bits >> 63) & Long.MAX_VALUE);
                    }
                    case STRING -> 0;
                };
            }
            values[k] = v;
        }
    }

    /** Compares rows x and y by keys {@code [from, to)}: NULLs where each key puts them, then values. */
    int compare(int x, int y, int from, int to) {
        for (int k = from; k < to; k++) {
            SortKey key = keys[k];
            int c = key.column();
            boolean nx = b.isNull(c, x);
            boolean ny = b.isNull(c, y);
            if (nx || ny) {
                if (nx && ny) {
                    continue;
                }
                return nx == key.nullsFirst() ? -1 : 1;
            }
            int r = values[k] != null ? Long.compare(values[k][x], values[k][y])
                    : CodePointOrder.compare(b.strings[c][x], b.strings[c][y]);
            if (r != 0) {
                return key.descending() ? -r : r;
            }
        }
        return 0;
    }

    /** The rows in key order; rows equal in every key keep their collection order. */
    int[] order() {
        int n = b.size;
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        if (keys.length > 0) {
            mergeSort(a, new int[n], 0, n);
        }
        return a;
    }

    private void mergeSort(int[] a, int[] tmp, int lo, int hi) {
        if (hi - lo <= 16) {
            for (int i = lo + 1; i < hi; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= lo && compare(a[j], v, 0, keys.length) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid);
        mergeSort(a, tmp, mid, hi);
        if (compare(a[mid - 1], a[mid], 0, keys.length) <= 0) {
            return; // already in order
        }
        System.arraycopy(a, lo, tmp, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
            if (j >= hi || i < mid && compare(tmp[i], tmp[j], 0, keys.length) <= 0) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }
}
