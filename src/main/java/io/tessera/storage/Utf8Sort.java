package io.tessera.storage;

import java.util.Arrays;

/**
 * Sorts strings held as UTF-8 bytes end to end in one array by code point ({@link CodePointOrder}), which is the
 * unsigned order of their bytes. A multikey quicksort on eight-byte digits: the strings are partitioned by their
 * first eight bytes read as one unsigned number (kept beside the indices, so partitioning reads arrays in order), and
 * those equal in them by the next eight, and so on. Strings sharing their first words (TPC-H's comments, names with a
 * common prefix) are so compared word by word once, not again at every comparison.
 */
final class Utf8Sort {

    /** Ranges shorter than this are sorted by insertion. */
    private static final int SMALL = 12;

    private final byte[] bytes;
    private final int[] starts;
    private final int[] idx;
    private final long[] key;
    /** Partitioning levels after which a range is sorted by merging instead (a guard against bad pivots). */
    private final int maxLevel;

    private Utf8Sort(byte[] bytes, int[] starts, int from, int n) {
        this.bytes = bytes;
        this.starts = starts;
        this.idx = new int[n];
        this.key = new long[n];
        this.maxLevel = 2 * (32 - Integer.numberOfLeadingZeros(n)) + 8;
        for (int i = 0; i < n; i++) {
            idx[i] = from + i;
            key[i] = digit(from + i, 0);
        }
    }

    /**
     * The indices {@code 0 .. n-1} in the order of their values: value i is {@code bytes[starts[i], starts[i+1])}.
     * Equal values end up next to each other.
     */
    static int[] order(byte[] bytes, int[] starts, int n) {
        return order(bytes, starts, 0, n);
    }

    /** As {@link #order(byte[], int[], int)}, for the values {@code from .. from + n - 1}. */
    static int[] order(byte[] bytes, int[] starts, int from, int n) {
        Utf8Sort s = new Utf8Sort(bytes, starts, from, n);
        s.sort(0, n, 0, 0);
        return s.idx;
    }

    /** The first eight bytes of {@code bytes[from, to)} as an unsigned big-endian number, zero-padded. */
    static long prefix(byte[] bytes, int from, int to) {
        long p = 0;
        int end = Math.min(to, from + 8);
        for (int i = from; i < end; i++) {
            p = p << 8 | (bytes[i] & 0xff);
        }
        return end <= from ? 0 : p << (8 * (8 - (end - from)));
    }

    private int length(int value) {
        return starts[value + 1] - starts[value];
    }

    /** Bytes [8d, 8d + 8) of value i as an unsigned number, zero-padded. */
    private long digit(int value, int d) {
        return prefix(bytes, Math.min(starts[value] + 8 * d, starts[value + 1]), starts[value + 1]);
    }

    /** Sorts idx[lo, hi), whose values agree in their first {@code depth} digits. */
    private void sort(int lo, int hi, int depth, int level) {
        while (hi - lo > 1) {
            if (hi - lo < SMALL || level > maxLevel) {
                if (hi - lo < SMALL) {
                    insertion(lo, hi, depth);
                } else {
                    mergeSort(Arrays.copyOfRange(idx, lo, hi), lo, hi - lo, depth);
                }
                return;
            }
            long p = median(key[lo], key[(lo + hi) >>> 1], key[hi - 1]);
            int lt = lo;
            int gt = hi;
            for (int i = lo; i < gt; ) {
                int c = Long.compareUnsigned(key[i], p);
                if (c < 0) {
                    swap(lt++, i++);
                } else if (c > 0) {
                    swap(i, --gt);
                } else {
                    i++;
                }
            }
            sort(lo, lt, depth, level + 1);
            sort(gt, hi, depth, level + 1);
            // equal in this digit: values that end within it come first (a shorter one is a prefix of a longer one,
            // the bytes between being zeros), the others go on to the next digit
            int ended = lt;
            int limit = 8 * (depth + 1);
            for (int i = lt; i < gt; i++) {
                if (length(idx[i]) <= limit) {
                    swap(ended++, i);
                }
            }
            if (ended - lt < SMALL) {
                insertion(lt, ended, depth);
            } else {
                mergeSort(Arrays.copyOfRange(idx, lt, ended), lt, ended - lt, depth);
            }
            lo = ended;
            hi = gt;
            depth++;
            level++;
            for (int i = lo; i < hi; i++) {
                key[i] = digit(idx[i], depth);
            }
        }
    }

    private static long median(long a, long b, long c) {
        if (Long.compareUnsigned(a, b) > 0) {
            long t = a;
            a = b;
            b = t;
        }
        if (Long.compareUnsigned(b, c) > 0) {
            b = c;
        }
        return Long.compareUnsigned(a, b) > 0 ? a : b;
    }

    private void swap(int i, int j) {
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        long k = key[i];
        key[i] = key[j];
        key[j] = k;
    }

    /** Compares two values that agree in their first {@code depth} digits (zero-padded where they are shorter). */
    private int compare(int x, int y, int depth) {
        int skip = Math.min(8 * depth, Math.min(length(x), length(y)));
        return Arrays.compareUnsigned(bytes, starts[x] + skip, starts[x + 1], bytes, starts[y] + skip, starts[y + 1]);
    }

    /** Sorts a short range whose keys hold digit {@code depth}: by key, then by the bytes after it. */
    private void insertion(int lo, int hi, int depth) {
        for (int i = lo + 1; i < hi; i++) {
            int v = idx[i];
            long k = key[i];
            int j = i - 1;
            while (j >= lo && greater(idx[j], key[j], v, k, depth)) {
                idx[j + 1] = idx[j];
                key[j + 1] = key[j];
                j--;
            }
            idx[j + 1] = v;
            key[j + 1] = k;
        }
    }

    private boolean greater(int x, long kx, int y, long ky, int depth) {
        int c = Long.compareUnsigned(kx, ky);
        return c != 0 ? c > 0 : compare(x, y, depth + 1) > 0;
    }

    /** Sorts {@code a} (the values of idx[at, at + n)) by merging and puts them back there. */
    private void mergeSort(int[] a, int at, int n, int depth) {
        int[] tmp = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int from = 0; from < n - width; from += 2 * width) {
                int mid = from + width;
                int to = Math.min(n, mid + width);
                System.arraycopy(a, from, tmp, from, to - from);
                int i = from;
                int j = mid;
                for (int k = from; k < to; k++) {
                    a[k] = j >= to || (i < mid && compare(tmp[i], tmp[j], depth) <= 0) ? tmp[i++] : tmp[j++];
                }
            }
        }
        System.arraycopy(a, 0, idx, at, n);
    }
}
