package io.tessera.backend.host.sort;

import io.tessera.backend.host.HostWorkers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Merges sorted runs on the workers: the output is cut into parts at splitter elements sampled from the runs, each
 * splitter found by binary search in every run (the elements are distinct, since each carries its row number, so
 * a splitter cuts every run at one place), and each part is merged from its pieces of the runs by one worker.
 */
final class RunMerge {

    /** Samples taken from a run per part of the output. */
    private static final int SAMPLES_PER_PART = 8;

    private RunMerge() {
    }

    /** Runs of sorted, distinct elements in one array, an element named by its position there. */
    interface Runs {
        /** The order of the elements at positions p and q. */
        int compare(int p, int q);

        /** Writes the element at position p to position {@code at} of the output. */
        void emit(int p, int at);
    }

    /**
     * Emits the elements of all runs in order; run r holds positions {@code [starts[r], starts[r + 1])}. With more
     * than one thread, a few parts per thread.
     */
    static void merge(Runs runs, int[] starts, HostWorkers w) {
        inParts(runs, starts, w, (lo, hi, at) -> mergePart(runs, lo, hi, at));
    }

    /**
     * The longs of sorted runs of {@code a} merged into {@code out}: {@link #merge} for the packed keys, whose
     * order is that of the longs.
     */
    static void mergeLongs(long[] a, int[] starts, long[] out, HostWorkers w) {
        Runs runs = new Runs() {
            @Override
            public int compare(int p, int q) {
                return Long.compare(a[p], a[q]);
            }

            @Override
            public void emit(int p, int at) {
                out[at] = a[p];
            }
        };
        inParts(runs, starts, w, (lo, hi, at) -> mergeLongPart(a, lo, hi, out, at));
    }

    /**
     * Runs of (key, row) pairs, each sorted by its key as an unsigned number and then by row, merged: the rows in
     * that order into {@code out}. The keys of one word of the encoding, compared without a call per comparison.
     */
    static void mergeKeyed(long[] keys, int[] rows, int[] starts, int[] out, HostWorkers w) {
        Runs runs = new Runs() {
            @Override
            public int compare(int p, int q) {
                int c = Long.compareUnsigned(keys[p], keys[q]);
                return c != 0 ? c : Integer.compare(rows[p], rows[q]);
            }

            @Override
            public void emit(int p, int at) {
                out[at] = rows[p];
            }
        };
        inParts(runs, starts, w, (lo, hi, at) -> mergeKeyedPart(keys, rows, lo, hi, out, at));
    }

    /** Whether the pair at p comes before the pair at q: unsigned key, then row. */
    private static boolean keyedBefore(long[] keys, int[] rows, int p, int q) {
        long a = keys[p] ^ Long.MIN_VALUE;
        long b = keys[q] ^ Long.MIN_VALUE;
        return a < b || a == b && rows[p] < rows[q];
    }

    /** {@link #mergePart} for (key, row) pairs: two pieces merged in one loop, more through a heap. */
    private static void mergeKeyedPart(long[] keys, int[] rows, int[] lo, int[] hi, int[] out, int at) {
        int nRuns = lo.length;
        int[] pos = lo.clone();
        int[] live = new int[nRuns];
        int size = 0;
        for (int r = 0; r < nRuns; r++) {
            if (pos[r] < hi[r]) {
                live[size++] = r;
            }
        }
        if (size == 2) {
            int i = pos[live[0]];
            int ie = hi[live[0]];
            int j = pos[live[1]];
            int je = hi[live[1]];
            while (i < ie && j < je) {
                if (keyedBefore(keys, rows, i, j)) {
                    out[at++] = rows[i++];
                } else {
                    out[at++] = rows[j++];
                }
            }
            System.arraycopy(rows, i, out, at, ie - i);
            System.arraycopy(rows, j, out, at + ie - i, je - j);
            return;
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDownKeyed(keys, rows, live, size, i, pos);
        }
        while (size > 1) {
            int r = live[0];
            out[at++] = rows[pos[r]++];
            if (pos[r] == hi[r]) {
                live[0] = live[--size];
            }
            siftDownKeyed(keys, rows, live, size, 0, pos);
        }
        if (size == 1) {
            int r = live[0];
            System.arraycopy(rows, pos[r], out, at, hi[r] - pos[r]);
        }
    }

    private static void siftDownKeyed(long[] keys, int[] rows, int[] heap, int size, int i, int[] pos) {
        int r = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && keyedBefore(keys, rows, pos[heap[c + 1]], pos[heap[c]])) {
                c++;
            }
            if (!keyedBefore(keys, rows, pos[heap[c]], pos[r])) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = r;
    }

    /** Merges the pieces {@code [lo[r], hi[r])} of the runs into the output from position {@code at}. */
    private interface PartMerge {
        void merge(int[] lo, int[] hi, int at);
    }

    /** Cuts the output into parts (a few per thread) and merges each on a worker. */
    private static void inParts(Runs runs, int[] starts, HostWorkers w, PartMerge merge) {
        int nRuns = starts.length - 1;
        int n = starts[nRuns];
        int parts = w.threads() == 1 || nRuns == 1 ? 1 : (int) Math.max(1, Math.min(4L * w.threads(), n / 4096));
        int[][] bounds = bounds(runs, starts, parts);
        List<Runnable> tasks = new ArrayList<>();
        for (int t = 0; t < parts; t++) {
            int[] lo = bounds[t];
            int[] hi = bounds[t + 1];
            int at = 0;
            for (int r = 0; r < nRuns; r++) {
                at += lo[r] - starts[r];
            }
            int outAt = at;
            tasks.add(() -> merge.merge(lo, hi, outAt));
        }
        w.run(tasks);
    }

    /** {@link #mergePart} for longs: two pieces merged in one loop, more through a heap. */
    private static void mergeLongPart(long[] a, int[] lo, int[] hi, long[] out, int at) {
        int nRuns = lo.length;
        int[] pos = lo.clone();
        int[] live = new int[nRuns];
        int size = 0;
        for (int r = 0; r < nRuns; r++) {
            if (pos[r] < hi[r]) {
                live[size++] = r;
            }
        }
        if (size == 2) {
            int i = pos[live[0]];
            int ie = hi[live[0]];
            int j = pos[live[1]];
            int je = hi[live[1]];
            while (i < ie && j < je) {
                long x = a[i];
                long y = a[j];
                if (x < y) {
                    out[at++] = x;
                    i++;
                } else {
                    out[at++] = y;
                    j++;
                }
            }
            System.arraycopy(a, i, out, at, ie - i);
            System.arraycopy(a, j, out, at + ie - i, je - j);
            return;
        }
        // a binary heap of the runs with elements left, the run of the smallest element on top
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDownLongs(a, live, size, i, pos);
        }
        while (size > 1) {
            int r = live[0];
            out[at++] = a[pos[r]++];
            if (pos[r] == hi[r]) {
                live[0] = live[--size];
            }
            siftDownLongs(a, live, size, 0, pos);
        }
        if (size == 1) {
            int r = live[0];
            System.arraycopy(a, pos[r], out, at, hi[r] - pos[r]);
        }
    }

    private static void siftDownLongs(long[] a, int[] heap, int size, int i, int[] pos) {
        int r = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && a[pos[heap[c + 1]]] < a[pos[heap[c]]]) {
                c++;
            }
            if (a[pos[heap[c]]] >= a[pos[r]]) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = r;
    }

    /** Per part boundary (parts + 1 of them), the position in every run where that part's piece starts. */
    private static int[][] bounds(Runs runs, int[] starts, int parts) {
        int nRuns = starts.length - 1;
        int[][] bounds = new int[parts + 1][];
        bounds[0] = Arrays.copyOf(starts, nRuns);
        bounds[parts] = Arrays.copyOfRange(starts, 1, nRuns + 1);
        if (parts == 1) {
            return bounds;
        }
        List<Integer> samples = new ArrayList<>();
        for (int r = 0; r < nRuns; r++) {
            int len = starts[r + 1] - starts[r];
            int s = Math.min(len, SAMPLES_PER_PART * parts);
            for (int j = 0; j < s; j++) {
                samples.add(starts[r] + (int) ((long) j * len / s));
            }
        }
        samples.sort(runs::compare);
        for (int t = 1; t < parts; t++) {
            int splitter = samples.get((int) ((long) t * samples.size() / parts));
            int[] at = new int[nRuns];
            for (int r = 0; r < nRuns; r++) {
                at[r] = lowerBound(runs, Math.max(starts[r], bounds[t - 1][r]), starts[r + 1], splitter);
            }
            bounds[t] = at;
        }
        return bounds;
    }

    /** The first position of {@code [lo, hi)} whose element is not below the splitter's. */
    private static int lowerBound(Runs runs, int lo, int hi, int splitter) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (runs.compare(mid, splitter) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Merges the pieces {@code [lo[r], hi[r])} of the runs into the output from {@code at}. */
    private static void mergePart(Runs runs, int[] lo, int[] hi, int at) {
        int nRuns = lo.length;
        int[] pos = lo.clone();
        // a binary heap of the runs with elements left, the run of the smallest element on top
        int[] heap = new int[nRuns];
        int size = 0;
        for (int r = 0; r < nRuns; r++) {
            if (pos[r] < hi[r]) {
                heap[size++] = r;
            }
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(runs, heap, size, i, pos);
        }
        while (size > 1) {
            int r = heap[0];
            runs.emit(pos[r]++, at++);
            if (pos[r] == hi[r]) {
                heap[0] = heap[--size];
            }
            siftDown(runs, heap, size, 0, pos);
        }
        if (size == 1) {
            int r = heap[0];
            while (pos[r] < hi[r]) {
                runs.emit(pos[r]++, at++);
            }
        }
    }

    private static void siftDown(Runs runs, int[] heap, int size, int i, int[] pos) {
        int r = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && runs.compare(pos[heap[c + 1]], pos[heap[c]]) < 0) {
                c++;
            }
            if (runs.compare(pos[heap[c]], pos[r]) >= 0) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = r;
    }
}
