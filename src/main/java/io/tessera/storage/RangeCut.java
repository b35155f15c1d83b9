package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts the value space of some sorted runs ({@link StringRuns}) into ranges of about equal numbers of run strings,
 * for {@link DictionaryMerge} to merge one range per task. Each run gives samples in proportion to its size, each
 * sample standing for the run strings around it (its weight); the samples sorted, a splitter is the sample where
 * their weights add up to its share of all strings, and each run is cut at its first string not below each
 * splitter (so that equal strings of different runs fall into one range). Sampling every run equally, as before,
 * gave a small run (a file's last row group) the weight of a large one and made ranges up to half again the mean.
 */
final class RangeCut {

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong BIG_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /**
     * Samples taken per range, at least, and per range and run: a splitter's rank is off by at most half the strings
     * one sample of each run stands for, so that with s samples per range and run a range is off by at most 1/s of
     * the mean, at each end (at 4, TPC-H's comments in 7 runs cut in 8 ranges came out 11% above the mean).
     */
    private static final int SAMPLES_PER_RANGE = 32;
    private static final int SAMPLES_PER_RANGE_AND_RUN = 16;
    /** Samples beyond which more runs add none. */
    private static final int MAX_SAMPLES = 1 << 17;

    private final MemorySegment runs;
    private final List<StringRuns.Run> list;

    private RangeCut(MemorySegment runs, List<StringRuns.Run> list) {
        this.runs = runs;
        this.list = list;
    }

    /**
     * Per range r and run k: run k's strings {@code [bound[r][k], bound[r + 1][k])} fall in range r, of
     * {@code ranges} ranges.
     */
    static int[][] cut(MemorySegment runs, List<StringRuns.Run> list, int ranges) {
        return new RangeCut(runs, list).cut(ranges);
    }

    /** The number of run strings in each range of {@code bound}. */
    static long[] counts(int[][] bound) {
        long[] count = new long[bound.length - 1];
        for (int r = 0; r < count.length; r++) {
            for (int k = 0; k < bound[r].length; k++) {
                count[r] += bound[r + 1][k] - bound[r][k];
            }
        }
        return count;
    }

    private int[][] cut(int ranges) {
        int[][] bound = new int[ranges + 1][list.size()];
        long total = 0;
        for (int k = 0; k < list.size(); k++) {
            bound[ranges][k] = list.get(k).count();
            total += list.get(k).count();
        }
        if (ranges == 1 || total == 0) {
            return bound;
        }
        long wanted = Math.max((long) ranges * SAMPLES_PER_RANGE,
                Math.min(MAX_SAMPLES, (long) ranges * SAMPLES_PER_RANGE_AND_RUN * list.size()));
        int samples = 0;
        int[] per = new int[list.size()];
        for (int k = 0; k < list.size(); k++) {
            int n = list.get(k).count();
            per[k] = n == 0 ? 0 : (int) Math.min(n, Math.max(1, (wanted * n + total - 1) / total));
            samples += per[k];
        }
        // {run, index, weight}: a sample in the middle of the run strings it stands for, so that the weights of the
        // samples below a string miss as many strings of other runs below it as they count above it
        long[][] sample = new long[samples][];
        for (int k = 0, s = 0; k < list.size(); k++) {
            int n = list.get(k).count();
            for (int j = 0; j < per[k]; j++) {
                long from = (long) j * n / per[k];
                long to = (long) (j + 1) * n / per[k];
                sample[s++] = new long[] {k, (from + to - 1) / 2, to - from};
            }
        }
        Arrays.parallelSort(sample, (x, y) -> compare(list.get((int) x[0]), (int) x[1], list.get((int) y[0]), (int) y[1]));
        // a sample's rank among all run strings, estimated: the weights of the samples before it and half its own
        double[] rank = new double[samples];
        long below = 0;
        for (int s = 0; s < samples; s++) {
            rank[s] = below + sample[s][2] / 2.0;
            below += sample[s][2];
        }
        long[][] splitter = new long[ranges][];
        int s = 0;
        for (int r = 1; r < ranges; r++) {
            double target = (double) total * r / ranges;
            while (s < samples - 1 && rank[s] < target) {
                s++;
            }
            // the sample whose estimated rank is nearest the range's end
            int pick = s > 0 && target - rank[s - 1] < rank[s] - target ? s - 1 : s;
            splitter[r] = sample[pick];
        }
        ClaimedTasks.run(java.util.stream.IntStream.range(1, ranges).toArray(), r -> {
            StringRuns.Run of = list.get((int) splitter[r][0]);
            for (int k = 0; k < list.size(); k++) {
                bound[r][k] = lowerBound(list.get(k), of, (int) splitter[r][1]);
            }
        });
        return bound;
    }

    /** The first string of {@code run} that is not below string {@code i} of {@code of}. */
    private int lowerBound(StringRuns.Run run, StringRuns.Run of, int i) {
        int lo = 0;
        int hi = run.count();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(run, mid, of, i) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private long start(StringRuns.Run r, int i) {
        return r.bytesAt() + runs.get(INT, r.offsetsAt() + 4L * i);
    }

    private int length(StringRuns.Run r, int i) {
        return runs.get(INT, r.offsetsAt() + 4L * (i + 1)) - runs.get(INT, r.offsetsAt() + 4L * i);
    }

    /** Compares two run strings by their bytes, unsigned, the shorter first on a tie: eight bytes at a time. */
    private int compare(StringRuns.Run a, int i, StringRuns.Run b, int j) {
        int la = length(a, i);
        int lb = length(b, j);
        int n = Math.min(la, lb);
        long sa = start(a, i);
        long sb = start(b, j);
        int k = 0;
        for (; k + 8 <= n; k += 8) {
            long x = runs.get(BIG_LONG, sa + k);
            long y = runs.get(BIG_LONG, sb + k);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; k < n; k++) {
            int x = runs.get(ValueLayout.JAVA_BYTE, sa + k) & 0xff;
            int y = runs.get(ValueLayout.JAVA_BYTE, sb + k) & 0xff;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return Integer.compare(la, lb);
    }
}
