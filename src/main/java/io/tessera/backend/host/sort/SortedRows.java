package io.tessera.backend.host.sort;

import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.SortKey;

import java.util.ArrayList;
import java.util.List;

/**
 * Rows of a buffer in the order of sort keys, rows equal in every key in the order they are given (row number
 * order): the keys encoded ({@link KeyEncoding}), the rows cut into runs that the workers radix-sort each, and the
 * runs merged by the workers ({@link RunMerge}). One run is a sort on one thread.
 */
public final class SortedRows {

    /** The buffer rows in key order. */
    public final int[] order;
    /** The encoded rows in key order (the same array as {@link #order} where every row of the buffer was sorted). */
    private final int[] encodedOrder;
    /** The sorted longs of a packed encoding, position by position (null for words). */
    private final long[] sortedPacked;
    private final KeyEncoding keys;
    /** Per count of leading keys, the shift that leaves only their bits of a packed long. */
    private final int[] shifts;

    private SortedRows(int[] order, int[] encodedOrder, long[] sortedPacked, KeyEncoding keys, int keyCount) {
        this.order = order;
        this.encodedOrder = encodedOrder;
        this.sortedPacked = sortedPacked;
        this.keys = keys;
        shifts = new int[keyCount + 1];
        for (int m = 0; m <= keyCount; m++) {
            shifts[m] = keys.rowBits + keys.keyBits - keys.prefixBits(m);
        }
    }

    /** Every row of the buffer, sorted in {@code runs} runs. */
    public static SortedRows sort(RowBuffer b, SortKey[] keys, int runs, HostWorkers w) {
        return sort(b, keys, null, b.size, runs, w);
    }

    /**
     * Buffer rows {@code rows[0 .. count)} (every row where rows is null), sorted in {@code runs} runs (at most one
     * per row) on the workers.
     */
    public static SortedRows sort(RowBuffer b, SortKey[] keys, int[] rows, int count, int runs, HostWorkers w) {
        KeyEncoding enc = KeyEncoding.of(b, keys, rows, count, w);
        int nRuns = Math.max(1, Math.min(runs, count));
        int[] starts = new int[nRuns + 1];
        for (int r = 0; r <= nRuns; r++) {
            starts[r] = (int) ((long) count * r / nRuns);
        }
        int[] encoded;
        long[] sorted = null;
        if (enc.keyBits == 0) {
            encoded = new int[count];
            for (int i = 0; i < count; i++) {
                encoded[i] = i;
            }
        } else if (enc.packed != null) {
            sorted = sortPacked(enc, starts, w);
            encoded = new int[count];
            long mask = (1L << enc.rowBits) - 1;
            long[] s = sorted;
            int[] e = encoded;
            w.chunks(count, 65536, (from, to) -> {
                for (int i = from; i < to; i++) {
                    e[i] = (int) (s[i] & mask);
                }
            });
        } else {
            encoded = sortWords(enc, starts, w);
        }
        int[] order = encoded;
        if (rows != null) {
            int[] o = order = new int[count];
            int[] e = encoded;
            w.chunks(count, 65536, (from, to) -> {
                for (int i = from; i < to; i++) {
                    o[i] = rows[e[i]];
                }
            });
        }
        return new SortedRows(order, encoded, sorted, enc, keys.length);
    }

    /** Whether the rows at positions p and q of the order are equal in the first {@code keyCount} keys. */
    public boolean sameKeys(int p, int q, int keyCount) {
        if (keys.keyBits == 0) {
            return true;
        }
        if (sortedPacked != null) {
            int shift = shifts[keyCount];
            return sortedPacked[p] >>> shift == sortedPacked[q] >>> shift;
        }
        return keys.sameKeys(encodedOrder[p], encodedOrder[q], keyCount);
    }

    /** The packed longs sorted: each run radix-sorted by a worker, then the runs merged. */
    private static long[] sortPacked(KeyEncoding enc, int[] starts, HostWorkers w) {
        long[] a = enc.packed;
        long[] tmp = new long[a.length];
        runTasks(starts, w, (from, to) -> RadixSort.sort(a, tmp, from, to, w.checkCancel()));
        if (starts.length == 2) {
            return a;
        }
        long[] out = tmp; // free again once the runs are sorted
        RunMerge.mergeLongs(a, starts, out, w);
        return out;
    }

    /**
     * The encoded rows sorted by their key words: in each run (a worker's), a stable radix sort of the row numbers
     * by the last word, then the one before it, up to the first; then the runs merged.
     */
    private static int[] sortWords(KeyEncoding enc, int[] starts, HostWorkers w) {
        int n = enc.count;
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        long[] keys = new long[n];
        long[] tmpKeys = new long[n];
        int[] tmpPerm = new int[n];
        runTasks(starts, w, (from, to) -> {
            for (int wd = enc.words.length - 1; wd >= 0; wd--) {
                long[] word = enc.words[wd];
                for (int i = from; i < to; i++) {
                    keys[i] = word[perm[i]];
                }
                RadixSort.sort(keys, perm, tmpKeys, tmpPerm, from, to, w.checkCancel());
            }
        });
        if (starts.length == 2) {
            return perm;
        }
        // keys holds each position's first word now: the merge compares it first, and the other words on a tie
        int[] out = tmpPerm;
        if (enc.words.length == 1) {
            RunMerge.mergeKeyed(keys, perm, starts, out, w);
            return out;
        }
        RunMerge.merge(new RunMerge.Runs() {
            @Override
            public int compare(int p, int q) {
                int c = Long.compareUnsigned(keys[p], keys[q]);
                if (c != 0) {
                    return c;
                }
                return enc.compareWords(perm[p], perm[q]);
            }

            @Override
            public void emit(int p, int at) {
                out[at] = perm[p];
            }
        }, starts, w);
        return out;
    }

    /** One task per run {@code [starts[r], starts[r + 1])}. */
    private static void runTasks(int[] starts, HostWorkers w, HostWorkers.RangeTask task) {
        List<Runnable> tasks = new ArrayList<>();
        for (int r = 0; r + 1 < starts.length; r++) {
            int from = starts[r];
            int to = starts[r + 1];
            tasks.add(() -> task.run(from, to));
        }
        w.run(tasks);
    }
}
