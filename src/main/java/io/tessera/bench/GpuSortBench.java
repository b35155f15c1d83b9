package io.tessera.bench;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaEvent;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.ops.LargeSort;
import io.tessera.backend.cuda.ops.RadixScatter;
import io.tessera.backend.cuda.ops.SortMethod;
import io.tessera.backend.cuda.runtime.GpuRuntime;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code tessera bench gpu-sort}: the GPU's radix sort ({@link LargeSort}) of random 64-bit keys with their row
 * numbers, by each of its scatter kernels ({@link RadixScatter}), against CUB's {@code DeviceRadixSort::SortPairs}
 * on the same keys ({@link CubReference}), and the
 * bitonic top-k against sorting all rows and cutting them, for k from 16 to 1,024. Every result is checked: the
 * sort's order (keys non-decreasing, ties by row number, every row once) and its checksum against CUB's (a stable
 * sort of the same keys gives the same one), the top-k's rows against the sort's first k.
 */
public final class GpuSortBench {

    /** What to run. {@code cubBinary}, {@code cubSource}: null for the defaults of {@link CubReference#find}. */
    public record Setup(long rows, int bits, int runs, long seed, List<Integer> ks, Path cubBinary, Path cubSource,
                        boolean cub) {
    }

    private GpuSortBench() {
    }

    /** The bench's key {@code i}: SplitMix64's finalizer, as cub_sort_ref.cu makes it, cut to {@code bits} bits. */
    public static long key(long seed, long i, int bits) {
        long z = seed * 0x9E3779B97F4A7C15L + i;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return bits >= 64 ? z : z & ((1L << bits) - 1);
    }

    /** Runs the bench; the table goes to {@code out}, progress to {@code log}. Returns false when a check failed. */
    public static boolean run(Setup s, PrintStream out, PrintStream log) throws Exception {
        if (s.rows() < 2 || s.rows() > Math.min(LargeSort.MAX_ROWS, Integer.MAX_VALUE) || s.bits() < 1 || s.bits() > 64
                || s.runs() < 1) {
            throw new IllegalArgumentException("--rows 2..2^31-1, --bits 1..64, --runs >= 1");
        }
        try (GpuRuntime rt = GpuRuntime.open()) {
            return measure(s, out, log, rt);
        }
    }

    /** The bench on {@code rt}, a runtime of its own, closed after it. */
    private static boolean measure(Setup s, PrintStream out, PrintStream log, GpuRuntime rt) throws Exception {
        CudaContext ctx = rt.context();
        LargeSort sort = rt.largeSort();
        LargeSort.Scratch scratch = new LargeSort.Scratch() {
            @Override
            public DeviceBuffer take(long bytes) {
                return rt.pool().take(bytes);
            }

            @Override
            public void give(DeviceBuffer b) {
                rt.pool().give(b);
            }
        };
        long n = s.rows();
        boolean ok = true;
        List<String[]> rows = new ArrayList<>();
        try (Arena arena = Arena.ofShared();
             DeviceBuffer keys = ctx.allocate(n * 8);
             DeviceBuffer order = ctx.allocate(n * 8);
             DeviceBuffer cut = ctx.allocate(SortMethod.MAX_TOP_K * 8L);
             CudaEvent start = ctx.createEvent();
             CudaEvent stop = ctx.createEvent()) {
            log.printf(Locale.ROOT, "gpu-sort: %,d keys of %d bits (seed %d) on %s%n", n, s.bits(), s.seed(),
                    rt.info().name());
            MemorySegment hostKeys = arena.allocate(n * 8, 8);
            for (long i = 0; i < n; i++) {
                hostKeys.setAtIndex(JAVA_LONG, i, key(s.seed(), i, s.bits()));
            }
            keys.copyFromHost(hostKeys, 0);
            // the radix sort of every row, by each scatter kernel (the default's order is the one the top-k is
            // checked against)
            LargeSort.Outcome[] last = new LargeSort.Outcome[1];
            MemorySegment hostOrder = arena.allocate(n * 8, 8);
            MemorySegment variantOrder = arena.allocate(n * 8, 8);
            List<Double> variantMs = new ArrayList<>();
            List<Long> checksums = new ArrayList<>();
            for (RadixScatter scatter : RadixScatter.values()) {
                double sortMs = median(s.runs(), start, stop, () -> {
                    last[0] = sort.sortWords(keys.address(), 1, n, n, SortMethod.Preference.SORT, scatter, scratch, order);
                });
                MemorySegment into = scatter == RadixScatter.DEFAULT ? hostOrder : variantOrder;
                order.copyToHost(into, 0);
                String sortCheck = checkSorted(hostKeys, into, n);
                ok &= sortCheck == null;
                variantMs.add(sortMs);
                checksums.add(checksum(into, n));
                rows.add(new String[] {"radix sort (Tessera, " + scatter.label()
                        + (scatter == RadixScatter.DEFAULT ? ", default)" : ")"), ms(sortMs), rate(n, sortMs),
                        sortCheck == null ? "sorted, stable, every row once" : "WRONG: " + sortCheck});
            }
            log.println("gpu-sort: " + last[0].describe());
            // CUB on the same keys
            if (s.cub()) {
                ok &= compareWithCub(s, rt, variantMs, checksums, rows);
            }
            // top-k against sorting all rows and cutting them
            for (int k : s.ks()) {
                if (k < 1 || k > SortMethod.MAX_TOP_K || k >= n) {
                    throw new IllegalArgumentException("k = " + k + ": 1.." + SortMethod.MAX_TOP_K + " and below --rows");
                }
                double cutMs = median(s.runs(), start, stop, () -> {
                    sort.sortWords(keys.address(), 1, n, k, SortMethod.Preference.SORT, scratch, cut);
                });
                double topMs = median(s.runs(), start, stop, () -> {
                    last[0] = sort.sortWords(keys.address(), 1, n, k, SortMethod.Preference.BITONIC, scratch, cut);
                });
                MemorySegment top = arena.allocate(k * 8L, 8);
                cut.copyToHost(top, 0);
                boolean same = last[0].method() == SortMethod.TOP_K
                        && top.mismatch(hostOrder.asSlice(0, k * 8L)) == -1;
                ok &= same;
                rows.add(new String[] {"top-" + k + ": sort and cut", ms(cutMs), rate(n, cutMs), ""});
                rows.add(new String[] {"top-" + k + ": bitonic top-k", ms(topMs), rate(n, topMs),
                        String.format(Locale.ROOT, "%.1fx faster%s; %s", cutMs / topMs, k <= 256 ? " (target 4x)" : "",
                                same ? "rows equal the sort's first " + k : "DIFFERS from the sort's first " + k
                                        + " (" + last[0].method() + ")")});
            }
        }
        out.print(TableText.format(new String[] {"what", "median ms", "keys/s", "check"}, rows));
        out.println(ok ? "gpu-sort: every check passed" : "gpu-sort: A CHECK FAILED");
        return ok;
    }

    /**
     * Runs the CUB reference on the same keys and adds its rows to the table; false when it sorted them otherwise
     * than Tessera did. A reference that cannot run is reported as skipped or failed (a binary built for another
     * GPU), and Tessera's results stand alone.
     */
    private static boolean compareWithCub(Setup s, GpuRuntime rt, List<Double> variantMs, List<Long> checksums,
                                          List<String[]> rows) throws InterruptedException {
        String what = "CUB DeviceRadixSort::SortPairs";
        CubReference.Found cub = CubReference.find(s.cubBinary(), s.cubSource(), rt.info().ccMajor(), rt.info().ccMinor());
        if (cub.binary() == null) {
            rows.add(new String[] {what, "-", "-", "skipped: " + cub.why()});
            return true;
        }
        CubReference.Result r;
        try {
            r = CubReference.run(cub.binary(), s.rows(), s.bits(), s.runs(), s.seed());
        } catch (java.io.IOException e) {
            rows.add(new String[] {what, "-", "-", "failed (" + cub.binary() + "): " + e.getMessage()});
            return true;
        }
        RadixScatter[] scatters = RadixScatter.values();
        long checksum = checksums.get(RadixScatter.DEFAULT.ordinal());
        boolean same = r.sorted() && r.checksum() == checksum;
        rows.add(new String[] {what, ms(r.medianMillis()), rate(s.rows(), r.medianMillis()),
                same ? "same order as Tessera's (checksum)" : "DIFFERS: sorted=" + r.sorted() + ", checksum "
                        + Long.toUnsignedString(r.checksum()) + " against " + Long.toUnsignedString(checksum)});
        for (RadixScatter scatter : scatters) {
            boolean equal = r.checksum() == checksums.get(scatter.ordinal());
            same &= equal;
            rows.add(new String[] {"Tessera (" + scatter.label() + ") / CUB time", String.format(Locale.ROOT, "%.2fx",
                    variantMs.get(scatter.ordinal()) / r.medianMillis()), "", "target: at most 1.5x; "
                    + (equal ? "order equals CUB's (checksum)" : "order DIFFERS from CUB's (checksum)")});
        }
        return same;
    }

    /** Null when {@code order} sorts {@code keys} stably (unsigned keys) and holds every row once, else what is wrong. */
    static String checkSorted(MemorySegment keys, MemorySegment order, long n) {
        BitSet seen = new BitSet((int) n);
        long prevRow = -1;
        for (long i = 0; i < n; i++) {
            long row = order.getAtIndex(JAVA_LONG, i);
            if (row < 0 || row >= n || seen.get((int) row)) {
                return "place " + i + " holds row " + row + (row >= 0 && row < n ? " a second time" : ", out of range");
            }
            seen.set((int) row);
            if (prevRow >= 0) {
                int c = Long.compareUnsigned(keys.getAtIndex(JAVA_LONG, prevRow), keys.getAtIndex(JAVA_LONG, row));
                if (c > 0 || (c == 0 && prevRow > row)) {
                    return "rows " + prevRow + " and " + row + " at places " + (i - 1) + " and " + i + " are out of order";
                }
            }
            prevRow = row;
        }
        return null;
    }

    /** The sum of (i + 1) * row over the places i, modulo 2^64, as cub_sort_ref.cu computes it. */
    static long checksum(MemorySegment order, long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += (i + 1) * order.getAtIndex(JAVA_LONG, i);
        }
        return sum;
    }

    /** The median device time of {@code runs} runs of {@code work} after one warm-up run, in ms. */
    static double median(int runs, CudaEvent start, CudaEvent stop, Runnable work) {
        work.run();
        double[] ms = new double[runs];
        for (int r = 0; r < runs; r++) {
            start.record();
            work.run();
            stop.record();
            ms[r] = stop.elapsedMillisSince(start);
        }
        Arrays.sort(ms);
        return ms[runs / 2];
    }

    static String ms(double ms) {
        return String.format(Locale.ROOT, "%.3f", ms);
    }

    static String rate(long n, double ms) {
        return String.format(Locale.ROOT, "%.3e", n / (ms / 1e3));
    }
}
