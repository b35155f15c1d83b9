package io.tessera.bench;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaEvent;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.ops.SearchIndex;
import io.tessera.backend.cuda.runtime.GpuRuntime;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code tessera bench gpu-search}: a batch of lookups in a sorted array of 64-bit keys on the GPU, each answered
 * with the range of its duplicates (lower and upper bound), by one thread per lookup (binary search) and by p-ary
 * search with groups of 4, 8, 16 and 32 lanes per lookup, and by p-ary search over an index of cache lines
 * ({@link SearchIndex}: 1, 4, 8 or 16 lanes per lookup read a line of 16 keys a step; tessera_search.cuh). The
 * sorted array holds every key twice (the duplicates a join's build side has), its keys spread so that about half
 * the lookups find theirs.
 * Every p-ary answer is checked against binary search's, and binary search's against the host's on a sample.
 */
public final class GpuSearchBench {

    /** The group sizes of p-ary search that the bench runs (each a kernel tessera_search_pary_P). */
    public static final int[] GROUPS = {4, 8, 16, 32};
    /** The group sizes of p-ary search over the index of cache lines (each a kernel tessera_search_index_G). */
    public static final int[] INDEX_GROUPS = {1, 4, 8, 16};
    private static final int THREADS = 256;
    private static final int MAX_BLOCKS = 1 << 20;
    private static final int HOST_SAMPLE = 10_000;

    /** What to run: {@code rows} sorted keys, {@code lookups} lookups. */
    public record Setup(long rows, long lookups, int runs, long seed) {
    }

    private GpuSearchBench() {
    }

    /** Sorted key {@code i}: pairs of equal keys, 8 apart, with a random offset of 0 to 3 per pair. */
    public static long sortedKey(long seed, long i) {
        return (i / 2) * 8 + (GpuSortBench.key(seed, i / 2, 2));
    }

    /** Lookup {@code j}: a random value from 0 to the largest key and a little beyond. */
    public static long lookup(long seed, long j, long rows) {
        return Long.remainderUnsigned(GpuSortBench.key(seed + 1, j, 64), rows * 4 + 8);
    }

    /** Runs the bench; the table goes to {@code out}. Returns false when a check failed. */
    public static boolean run(Setup s, PrintStream out, PrintStream log) {
        if (s.rows() < 1 || s.lookups() < 1 || s.runs() < 1 || s.rows() > (1L << 40)) {
            throw new IllegalArgumentException("--rows and --lookups at least 1, --runs >= 1");
        }
        try (GpuRuntime rt = GpuRuntime.open()) {
            return measure(s, out, log, rt);
        }
    }

    /** The bench on {@code rt}, a runtime of its own, closed after it. */
    private static boolean measure(Setup s, PrintStream out, PrintStream log, GpuRuntime rt) {
        CudaContext ctx = rt.context();
        long n = s.rows();
        long m = s.lookups();
        boolean ok = true;
        List<String[]> rows = new ArrayList<>();
        try (Arena arena = Arena.ofShared();
             DeviceBuffer sorted = ctx.allocate(n * 8);
             DeviceBuffer lookups = ctx.allocate(m * 8);
             DeviceBuffer lower = ctx.allocate(m * 8);
             DeviceBuffer upper = ctx.allocate(m * 8);
             DeviceBuffer lowerP = ctx.allocate(m * 8);
             DeviceBuffer upperP = ctx.allocate(m * 8);
             CudaEvent start = ctx.createEvent();
             CudaEvent stop = ctx.createEvent()) {
            log.printf(Locale.ROOT, "gpu-search: %,d lookups in %,d sorted keys (%d MB) on %s%n", m, n, n * 8 >> 20,
                    rt.info().name());
            MemorySegment host = arena.allocate(n * 8, 8);
            for (long i = 0; i < n; i++) {
                host.setAtIndex(JAVA_LONG, i, sortedKey(s.seed(), i));
            }
            sorted.copyFromHost(host, 0);
            MemorySegment hostLookups = arena.allocate(m * 8, 8);
            for (long j = 0; j < m; j++) {
                hostLookups.setAtIndex(JAVA_LONG, j, lookup(s.seed(), j, n));
            }
            lookups.copyFromHost(hostLookups, 0);

            CudaKernel binary = kernel(rt, "tessera_search_binary");
            double binaryMs = GpuSortBench.median(s.runs(), start, stop,
                    () -> launch(binary, 1, n, m, sorted, lookups, lower, upper));
            MemorySegment lo = arena.allocate(m * 8, 8);
            MemorySegment hi = arena.allocate(m * 8, 8);
            lower.copyToHost(lo, 0);
            upper.copyToHost(hi, 0);
            String hostCheck = checkSample(host, n, hostLookups, m, lo, hi);
            ok &= hostCheck == null;
            rows.add(new String[] {"binary search (a thread per lookup)", GpuSortBench.ms(binaryMs),
                    GpuSortBench.rate(m, binaryMs), "1.00x", hostCheck == null
                    ? "equal to the host's on " + Math.min(m, HOST_SAMPLE) + " lookups" : "WRONG: " + hostCheck});
            MemorySegment loP = arena.allocate(m * 8, 8);
            MemorySegment hiP = arena.allocate(m * 8, 8);
            for (int p : GROUPS) {
                CudaKernel pary = kernel(rt, "tessera_search_pary_" + p);
                lowerP.fill32(-1, m * 2); // a lookup left unanswered then differs
                upperP.fill32(-1, m * 2);
                double ms = GpuSortBench.median(s.runs(), start, stop,
                        () -> launch(pary, p, n, m, sorted, lookups, lowerP, upperP));
                lowerP.copyToHost(loP, 0);
                upperP.copyToHost(hiP, 0);
                boolean same = loP.mismatch(lo) == -1 && hiP.mismatch(hi) == -1;
                ok &= same;
                rows.add(new String[] {"p-ary search, p = " + p, GpuSortBench.ms(ms), GpuSortBench.rate(m, ms),
                        String.format(Locale.ROOT, "%.2fx", binaryMs / ms),
                        same ? "equal to binary search's" : "DIFFERS from binary search's"});
            }
            // p-ary search over the index of cache lines: built once (timed apart), then searched by each group size
            try (DeviceBuffer index = ctx.allocate(SearchIndex.size(n) * 8)) {
                CudaKernel level = kernel(rt, "tessera_search_index_level");
                double buildMs = GpuSortBench.median(s.runs(), start, stop,
                        () -> SearchIndex.build(level, sorted.address(), n, index));
                int levels = SearchIndex.levels(n);
                rows.add(new String[] {"index of lines: build (" + levels + " levels, "
                        + SearchIndex.size(n) * 8 / 1024 + " KB)", GpuSortBench.ms(buildMs), "", "", "once per sorted array"});
                for (int g : INDEX_GROUPS) {
                    CudaKernel indexed = kernel(rt, SearchIndex.kernel(g));
                    lowerP.fill32(-1, m * 2);
                    upperP.fill32(-1, m * 2);
                    double ms = GpuSortBench.median(s.runs(), start, stop, () -> launchIndexed(indexed, g, n, m, sorted,
                            index, levels, lookups, lowerP, upperP));
                    lowerP.copyToHost(loP, 0);
                    upperP.copyToHost(hiP, 0);
                    boolean same = loP.mismatch(lo) == -1 && hiP.mismatch(hi) == -1;
                    ok &= same;
                    rows.add(new String[] {"p-ary search over the index, " + g + (g == 1 ? " lane" : " lanes")
                            + " per lookup" + (g == SearchIndex.DEFAULT_LANES ? " (default)" : ""), GpuSortBench.ms(ms),
                            GpuSortBench.rate(m, ms),
                            String.format(Locale.ROOT, "%.2fx (%.2fx with the build)", binaryMs / ms,
                                    binaryMs / (ms + buildMs)),
                            same ? "equal to binary search's" : "DIFFERS from binary search's"});
                }
            }
        }
        out.print(TableText.format(new String[] {"search (lower and upper bound)", "median ms", "lookups/s",
                "vs binary", "check"}, rows));
        out.println("target: p-ary search at least 1.3x binary search's lookups/s (the index's build apart: it is made"
                + " once per sorted array)");
        out.println(ok ? "gpu-search: every check passed" : "gpu-search: A CHECK FAILED");
        return ok;
    }

    private static CudaKernel kernel(GpuRuntime rt, String name) {
        return rt.kernel(CudaSources.sortSource(), name, CudaSources.SORT_MODULE);
    }

    /** One launch over every lookup, {@code lanes} threads per lookup. */
    private static void launch(CudaKernel k, int lanes, long n, long m, DeviceBuffer sorted, DeviceBuffer lookups,
                               DeviceBuffer lower, DeviceBuffer upper) {
        long threads = m * lanes;
        int blocks = (int) Math.max(1, Math.min(MAX_BLOCKS, (threads + THREADS - 1) / THREADS));
        k.launch(blocks, THREADS, KernelArgs.of().ptr(sorted).i64(n).ptr(lookups).i64(m).ptr(lower).ptr(upper));
    }

    /** One launch of an index search over every lookup, {@code lanes} threads per lookup. */
    private static void launchIndexed(CudaKernel k, int lanes, long n, long m, DeviceBuffer sorted, DeviceBuffer index,
                                      int levels, DeviceBuffer lookups, DeviceBuffer lower, DeviceBuffer upper) {
        long threads = m * lanes;
        int blocks = (int) Math.max(1, Math.min(MAX_BLOCKS, (threads + THREADS - 1) / THREADS));
        k.launch(blocks, THREADS, KernelArgs.of().ptr(sorted).i64(n).ptr(index).i32(levels).ptr(lookups).i64(m)
                .ptr(lower).ptr(upper));
    }

    /** Null when the bounds of a sample of the lookups equal the host's binary search's, else the first that differs. */
    static String checkSample(MemorySegment keys, long n, MemorySegment lookups, long m, MemorySegment lo,
                              MemorySegment hi) {
        long step = Math.max(1, m / HOST_SAMPLE);
        for (long j = 0; j < m; j += step) {
            long q = lookups.getAtIndex(JAVA_LONG, j);
            long l = bound(keys, n, q, false);
            long h = bound(keys, n, q, true);
            if (lo.getAtIndex(JAVA_LONG, j) != l || hi.getAtIndex(JAVA_LONG, j) != h) {
                return "lookup " + j + " (" + q + "): [" + lo.getAtIndex(JAVA_LONG, j) + ", " + hi.getAtIndex(JAVA_LONG, j)
                        + ") on the GPU, [" + l + ", " + h + ") on the host";
            }
        }
        return null;
    }

    /** The first place whose key is not below {@code q} (upper: above {@code q}), unsigned. */
    static long bound(MemorySegment keys, long n, long q, boolean upper) {
        long lo = 0;
        long hi = n;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(keys.getAtIndex(JAVA_LONG, mid), q);
            if (c < 0 || (upper && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
