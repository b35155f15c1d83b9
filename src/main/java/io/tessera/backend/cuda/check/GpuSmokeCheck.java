package io.tessera.backend.cuda.check;

import io.tessera.backend.cuda.CudaException;
import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.compile.KernelCompiler;
import io.tessera.backend.cuda.compile.Nvrtc;
import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaDevices;
import io.tessera.backend.cuda.driver.CudaDriver;
import io.tessera.backend.cuda.driver.CudaEvent;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.CudaMemoryStats;
import io.tessera.backend.cuda.driver.CudaModule;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.driver.PinnedBuffer;
import io.tessera.backend.cuda.measure.BandwidthProbe;
import io.tessera.backend.cuda.ops.RangeClear;
import io.tessera.backend.cuda.ops.SlotCompaction;
import io.tessera.profile.DeviceInfo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongBinaryOperator;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Checks the CUDA backend's foundation on a GPU machine, end to end, printing one PASS or FAIL line
 * per check and a summary: driver and device, NVRTC compilation of the sample kernels (and the
 * kernel cache), pinned uploads of four synthetic SSB lineorder columns, SSB Q1.1, a compacting
 * select and hash probes against CPU results, concurrent cuckoo inserts (distinct and repeated keys), the
 * prefix sum of tile counts, the compaction of group-table slots, the sorts, the sorted search and the window
 * functions' scans, read bandwidth, and no leaked allocation.
 * Needs only java.base and this project's own classes.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp tessera.jar io.tessera.backend.cuda.check.GpuSmokeCheck [--rows N] [--cache DIR]</pre>
 * Exit code 0 when every check passed.
 */
public final class GpuSmokeCheck {
    private static final int BLOCK_THREADS = 128;
    private static final int TILE = 128 * 4;
    private static final int DATE_LO = 19930101, DATE_HI = 19931231, DISC_LO = 1, DISC_HI = 3, QTY_BELOW = 25;
    private static final int SELECT_CUTOFF = 40;
    private static final int PROBE_FLOOR = 5;
    private static final int EMPTY_KEY = Integer.MIN_VALUE;

    private final List<String> failures = new ArrayList<>();
    private int passes;

    public static void main(String[] args) throws Exception {
        long rows = 100_000_000L;
        Path cache = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Long.parseLong(args[++i].replace("_", ""));
                case "--cache" -> cache = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: GpuSmokeCheck [--rows N] [--cache DIR]");
                    System.exit(2);
                }
            }
        }
        System.exit(new GpuSmokeCheck().run(rows, cache));
    }

    private void pass(String what) {
        passes++;
        System.out.println("PASS " + what);
    }

    private void fail(String what) {
        failures.add(what);
        System.out.println("FAIL " + what);
    }

    private void check(boolean ok, String what) {
        if (ok) {
            pass(what);
        } else {
            fail(what);
        }
    }

    private static void info(String s) {
        System.out.println("     " + s);
    }

    int run(long rows, Path cacheDir) throws Exception {
        System.out.println("Tessera GPU smoke check: " + rows + " rows, Java " + Runtime.version());
        CudaDriver driver;
        try {
            driver = CudaDriver.get();
            pass("driver " + driver.loadedFrom() + ", CUDA " + CudaDevices.versionText(driver.driverVersion())
                    + ", " + driver.deviceCount() + " device(s)");
        } catch (CudaException e) {
            fail("driver: " + e.getMessage());
            return summary();
        }
        DeviceInfo cpu = DeviceInfo.cpu();
        info("CPU: " + cpu.name() + ", " + cpu.cores() + " threads, " + gib(cpu.memoryBytes()) + " GiB");
        for (DeviceInfo g : CudaDevices.gpus()) {
            info("GPU " + g.ordinal() + ": " + g.name() + ", " + g.cores() + " SMs, cc " + g.computeCapability() + ", "
                    + gib(g.memoryBytes()) + " GiB, " + g.clockMHz() + " MHz, " + g.software());
            info("     fingerprint " + g.fingerprint());
        }

        if (cacheDir == null) {
            cacheDir = Files.createTempDirectory("tessera-smoke-kernels");
        }
        try (CudaContext ctx = CudaContext.open(0)) {
            pass("context on device 0 (" + ctx.info().name() + ")");
            KernelCompiler compiler;
            KernelCompiler.Compiled compiled;
            try {
                compiler = KernelCompiler.nvrtc(cacheDir);
                info("NVRTC " + Nvrtc.get().loadedFrom() + ", " + compiler.compilerVersion() + ", options "
                        + KernelCompiler.options(ctx.info().ccMajor(), ctx.info().ccMinor()));
                compiled = compiler.compile(CudaSources.samples(), CudaSources.SAMPLES, CudaSources.headers(), ctx);
                pass(String.format("NVRTC compiled the sample kernels for sm_%d%d in %.0f ms (%d bytes of CUBIN)%s",
                        ctx.info().ccMajor(), ctx.info().ccMinor(), compiled.compileMillis(), compiled.cubin().length,
                        compiled.fromCache() ? " [from cache]" : ""));
                KernelCompiler.Compiled again = compiler.compile(CudaSources.samples(), CudaSources.SAMPLES,
                        CudaSources.headers(), ctx);
                check(again.fromCache() && again.key().equals(compiled.key()),
                        "second compile came from the kernel cache (" + cacheDir + ")");
            } catch (CudaException e) {
                fail("NVRTC: " + e.getMessage());
                return summary();
            }

            try (CudaModule module = ctx.loadModule(compiled.cubin())) {
                for (String k : List.of("ssb_q11", "tessera_select_gt", "tessera_probe_sum", "tessera_read_bandwidth",
                        "tessera_cuckoo_insert", "tessera_cuckoo_find", "tessera_scan_counts")) {
                    CudaKernel kernel = module.kernel(k);
                    int local = kernel.localBytes();
                    check(local == 0, k + ": " + kernel.registers() + " registers, " + kernel.staticSharedBytes()
                            + " bytes shared, " + local + " bytes local (tiles stay in registers)");
                }
                runQueries(ctx, module, rows);
            } catch (RuntimeException e) {
                fail("queries: " + e);
                e.printStackTrace(System.out);
            }

            try {
                checkCompaction(ctx, compiler);
            } catch (RuntimeException e) {
                fail("group-slot compaction: " + e);
                e.printStackTrace(System.out);
            }

            try (CudaModule utility = ctx.loadModule(compiler.compile(CudaSources.utilitySource(), CudaSources.UTILITY,
                    CudaSources.headers(), ctx).cubin())) {
                checkRangeClear(ctx, utility);
                SmallSortCheck.run(ctx, utility, this::check);
                try (CudaModule sorts = ctx.loadModule(compiler.compile(CudaSources.sortSource(), CudaSources.SORT_MODULE,
                        CudaSources.headers(), ctx).cubin())) {
                    LargeSortCheck.run(ctx, utility, sorts, this::check);
                    SortedSearchCheck.run(ctx, sorts, this::check);
                }
                try (CudaModule windows = ctx.loadModule(compiler.compile(CudaSources.windowSource(),
                        CudaSources.WINDOW_MODULE, CudaSources.headers(), ctx).cubin())) {
                    WindowScanCheck.run(ctx, windows, this::check);
                }
            } catch (RuntimeException e) {
                fail("ORDER BY, sorted search and window scans on the GPU: " + e);
                e.printStackTrace(System.out);
            }

            try {
                BandwidthProbe.Result bw = BandwidthProbe.measureGpu(ctx, compiler);
                pass(String.format("GPU read bandwidth %.0f GB/s (%s, %.3f ms)", bw.gbPerSecond(), bw.method(),
                        bw.millis()));
            } catch (RuntimeException e) {
                fail("GPU bandwidth: " + e);
            }
        } catch (CudaException e) {
            fail("CUDA: " + e.getMessage());
        }
        try {
            BandwidthProbe.Result cbw = BandwidthProbe.measureCpu();
            info(String.format("CPU read bandwidth %.1f GB/s (%s)", cbw.gbPerSecond(), cbw.method()));
        } catch (RuntimeException | OutOfMemoryError e) {
            info("CPU bandwidth not measured: " + e);
        }
        CudaMemoryStats.Snapshot s = CudaMemoryStats.snapshot();
        check(s.nothingLive(), "no allocation left after close: " + s);
        return summary();
    }

    private int summary() {
        if (failures.isEmpty()) {
            System.out.println("SMOKE PASS (" + passes + " checks)");
            return 0;
        }
        System.out.println("SMOKE FAIL (" + failures.size() + " of " + (passes + failures.size()) + " checks failed)");
        for (String f : failures) {
            System.out.println("  - " + f);
        }
        return 1;
    }

    private void runQueries(CudaContext ctx, CudaModule module, long rows) {
        int sms = ctx.info().cores();
        long bytesPerColumn = rows * 4;
        try (Arena arena = Arena.ofShared()) {
            long t0 = System.nanoTime();
            MemorySegment orderdate = arena.allocate(bytesPerColumn, 64);
            MemorySegment discount = arena.allocate(bytesPerColumn, 64);
            MemorySegment quantity = arena.allocate(bytesPerColumn, 64);
            MemorySegment price = arena.allocate(bytesPerColumn, 64);
            parallelFor(rows, (from, to) -> {
                for (long i = from; i < to; i++) {
                    long h = mix(i * 4);
                    orderdate.setAtIndex(JAVA_INT, i, (int) (1992 + Long.remainderUnsigned(h, 7)) * 10000
                            + (int) (1 + Long.remainderUnsigned(h >>> 8, 12)) * 100
                            + (int) (1 + Long.remainderUnsigned(h >>> 16, 28)));
                    discount.setAtIndex(JAVA_INT, i, (int) Long.remainderUnsigned(mix(i * 4 + 1), 11));
                    quantity.setAtIndex(JAVA_INT, i, (int) (1 + Long.remainderUnsigned(mix(i * 4 + 2), 50)));
                    price.setAtIndex(JAVA_INT, i, (int) (90_000 + Long.remainderUnsigned(mix(i * 4 + 3), 10_410_000)));
                }
                return 0;
            }, Long::sum);
            info(String.format("generated 4 int columns of %d rows in %.0f ms", rows, ms(t0)));

            // CPU references
            t0 = System.nanoTime();
            long expectRevenue = parallelFor(rows, (from, to) -> {
                long s = 0;
                for (long i = from; i < to; i++) {
                    int d = orderdate.getAtIndex(JAVA_INT, i);
                    int q = quantity.getAtIndex(JAVA_INT, i);
                    int disc = discount.getAtIndex(JAVA_INT, i);
                    if (d >= DATE_LO && d <= DATE_HI && q < QTY_BELOW && disc >= DISC_LO && disc <= DISC_HI) {
                        s += (long) price.getAtIndex(JAVA_INT, i) * disc;
                    }
                }
                return s;
            }, Long::sum);
            double cpuQ11 = ms(t0);
            long expectSelected = parallelFor(rows, (from, to) -> {
                long c = 0;
                for (long i = from; i < to; i++) {
                    c += quantity.getAtIndex(JAVA_INT, i) > SELECT_CUTOFF ? 1 : 0;
                }
                return c;
            }, Long::sum);
            long expectSelectedSum = parallelFor(rows, (from, to) -> {
                long c = 0;
                for (long i = from; i < to; i++) {
                    int q = quantity.getAtIndex(JAVA_INT, i);
                    c += q > SELECT_CUTOFF ? q : 0;
                }
                return c;
            }, Long::sum);
            // probe: keys = lo_quantity; the table holds the odd keys 1..49 with payload 7 * key
            long expectProbeSum = parallelFor(rows, (from, to) -> {
                long c = 0;
                for (long i = from; i < to; i++) {
                    int q = quantity.getAtIndex(JAVA_INT, i);
                    c += q >= PROBE_FLOOR && (q & 1) == 1 ? 7L * q : 0;
                }
                return c;
            }, Long::sum);
            long expectProbeMatches = parallelFor(rows, (from, to) -> {
                long c = 0;
                for (long i = from; i < to; i++) {
                    int q = quantity.getAtIndex(JAVA_INT, i);
                    c += q >= PROBE_FLOOR && (q & 1) == 1 ? 1 : 0;
                }
                return c;
            }, Long::sum);
            info(String.format("CPU Q1.1 revenue %d in %.0f ms (%d threads)", expectRevenue, cpuQ11,
                    Runtime.getRuntime().availableProcessors()));

            long s0 = CudaMemoryStats.bytesToDevice();
            t0 = System.nanoTime();
            try (PinnedBuffer staging = ctx.allocatePinned(64L << 20);
                 DeviceBuffer dOrderdate = ctx.upload(orderdate, staging);
                 DeviceBuffer dDiscount = ctx.upload(discount, staging);
                 DeviceBuffer dQuantity = ctx.upload(quantity, staging);
                 DeviceBuffer dPrice = ctx.upload(price, staging);
                 DeviceBuffer result = ctx.allocate(16);
                 CudaEvent start = ctx.createEvent();
                 CudaEvent end = ctx.createEvent()) {
                double upMs = ms(t0);
                long moved = CudaMemoryStats.bytesToDevice() - s0;
                check(moved == 4 * bytesPerColumn, String.format(
                        "uploaded %d MiB through pinned staging in %.0f ms (%.1f GB/s)", moved >> 20, upMs,
                        moved / (upMs * 1e6)));

                // SSB Q1.1, one tile per block (Crystal) and grid-stride over the SMs
                CudaKernel q11 = module.kernel("ssb_q11");
                long tiles = (rows + TILE - 1) / TILE;
                int resident = sms * Math.max(1, q11.maxActiveBlocksPerSM(BLOCK_THREADS, 0));
                for (int grid : new int[] {(int) Math.min(tiles, Integer.MAX_VALUE), resident}) {
                    double best = Double.MAX_VALUE;
                    long got = 0;
                    boolean allEqual = true;
                    for (int run = 0; run < 6; run++) {
                        result.zero();
                        start.record();
                        q11.launch(grid, BLOCK_THREADS, KernelArgs.of().ptr(dOrderdate).ptr(dDiscount).ptr(dQuantity)
                                .ptr(dPrice).i64(rows).i32(DATE_LO).i32(DATE_HI).i32(DISC_LO).i32(DISC_HI)
                                .i32(QTY_BELOW).ptr(result));
                        end.record();
                        float ms = end.elapsedMillisSince(start);
                        got = result.readLong(0);
                        allEqual &= got == expectRevenue;
                        if (run > 0) {
                            best = Math.min(best, ms);
                        }
                    }
                    check(allEqual, String.format("SSB Q1.1 grid %d x %d: revenue %d (CPU %d), best %.3f ms, "
                                    + "%.0f GB/s over the 4 columns", grid, BLOCK_THREADS, got, expectRevenue, best,
                            4 * bytesPerColumn / (best * 1e6)));
                }

                // compacting select: scan, reserve, shuffle, store
                CudaKernel select = module.kernel("tessera_select_gt");
                try (DeviceBuffer out = ctx.allocate(bytesPerColumn)) {
                    result.zero();
                    start.record();
                    select.launch((int) Math.min(tiles, Integer.MAX_VALUE), BLOCK_THREADS,
                            KernelArgs.of().ptr(dQuantity).i64(rows).i32(SELECT_CUTOFF).ptr(out).ptr(result));
                    end.record();
                    float ms = end.elapsedMillisSince(start);
                    long count = result.readLong(0);
                    long sum = 0;
                    boolean allAbove = true;
                    if (count == expectSelected) {
                        MemorySegment host = arena.allocate(Math.max(4, count * 4), 64);
                        out.copyToHost(host.asSlice(0, count * 4), 0);
                        for (long i = 0; i < count; i++) {
                            int v = host.getAtIndex(JAVA_INT, i);
                            sum += v;
                            allAbove &= v > SELECT_CUTOFF;
                        }
                    }
                    check(count == expectSelected && sum == expectSelectedSum && allAbove, String.format(
                            "select lo_quantity > %d: %d rows (CPU %d), sum %d (CPU %d), %.3f ms", SELECT_CUTOFF,
                            count, expectSelected, sum, expectSelectedSum, ms));
                }

                // hash probes: perfect table over keys 1..50, and a murmur linear-probing table of 128 slots
                CudaKernel probe = module.kernel("tessera_probe_sum");
                MemorySegment perfect = arena.allocate(50 * 8, 16);
                for (int k = 1; k <= 50; k++) {
                    perfect.setAtIndex(JAVA_INT, 2L * (k - 1), (k & 1) == 1 ? k : EMPTY_KEY);
                    perfect.setAtIndex(JAVA_INT, 2L * (k - 1) + 1, 7 * k);
                }
                int log2 = 7;
                MemorySegment linear = arena.allocate((1L << log2) * 8, 16);
                for (long s = 0; s < (1L << log2); s++) {
                    linear.setAtIndex(JAVA_INT, 2 * s, EMPTY_KEY);
                    linear.setAtIndex(JAVA_INT, 2 * s + 1, 0);
                }
                for (int k = 1; k <= 49; k += 2) {
                    long slot = murmurSlot(k, log2);
                    while (linear.getAtIndex(JAVA_INT, 2 * slot) != EMPTY_KEY) {
                        slot = (slot + 1) & ((1L << log2) - 1);
                    }
                    linear.setAtIndex(JAVA_INT, 2 * slot, k);
                    linear.setAtIndex(JAVA_INT, 2 * slot + 1, 7 * k);
                }
                try (DeviceBuffer dPerfect = ctx.upload(perfect, staging);
                     DeviceBuffer dLinear = ctx.upload(linear, staging);
                     DeviceBuffer probeOut = ctx.allocate(16)) {
                    for (boolean isPerfect : new boolean[] {true, false}) {
                        probeOut.zero();
                        start.record();
                        probe.launch(resident, BLOCK_THREADS, KernelArgs.of().ptr(dQuantity).i64(rows).i32(PROBE_FLOOR)
                                .i32(isPerfect ? 1 : 0).ptr(isPerfect ? dPerfect : dLinear).i32(1)
                                .i64(isPerfect ? 50 : 1L << log2).i32(log2).ptr(probeOut.address())
                                .ptr(probeOut.address() + 8));
                        end.record();
                        float ms = end.elapsedMillisSince(start);
                        long sum = probeOut.readLong(0);
                        long matches = probeOut.readLong(8);
                        check(sum == expectProbeSum && matches == expectProbeMatches, String.format(
                                "probe %s table: %d matches (CPU %d), sum %d (CPU %d), %.3f ms",
                                isPerfect ? "perfect" : "linear-probing", matches, expectProbeMatches, sum,
                                expectProbeSum, ms));
                    }
                }
                checkCuckoo(ctx, module, staging, arena, resident);
                checkScanCounts(ctx, module, staging, arena);
                ctx.synchronize();
            }
        }
    }

    /**
     * Cuckoo join tables (ht=cuckoo2..4, both hash families), filled by concurrent inserts as a BUILD kernel's first
     * pass fills them: 2^20 distinct keys must each end in exactly one slot, found by the lookup, with absent keys not
     * found; 2^17 keys inserted 8 times each (a semi join's key-only table) must all be found, with no error and at
     * most one slot per insert.
     */
    private void checkCuckoo(CudaContext ctx, CudaModule module, PinnedBuffer staging, Arena arena, int grid) {
        CudaKernel insert = module.kernel("tessera_cuckoo_insert");
        CudaKernel find = module.kernel("tessera_cuckoo_find");
        int n = 1 << 20;
        int distinct = n / 8;
        MemorySegment keys = arena.allocate(2L * n * 4, 64); // 1 .. 2n; the first n are inserted
        MemorySegment repeated = arena.allocate((long) n * 4, 64); // 1 .. n/8, each 8 times, far apart
        for (int i = 0; i < 2 * n; i++) {
            keys.setAtIndex(JAVA_INT, i, i + 1);
        }
        for (int i = 0; i < n; i++) {
            repeated.setAtIndex(JAVA_INT, i, 1 + i % distinct);
        }
        MemorySegment slots = arena.allocate(2L * n * 8, 64);
        try (DeviceBuffer dKeys = ctx.upload(keys, staging);
             DeviceBuffer dRepeated = ctx.upload(repeated, staging);
             DeviceBuffer dSlots = ctx.allocate(2L * n * 8);
             DeviceBuffer error = ctx.allocate(8)) {
            for (int ways = 2; ways <= 4; ways++) {
                for (int murmur = 0; murmur <= 1; murmur++) {
                    int log2 = 64 - Long.numberOfLeadingZeros((ways == 2 ? 4L : 2L) * n - 1);
                    long tableSlots = 1L << log2;
                    MemorySegment host = arena.allocate(tableSlots * 4, 64);
                    String what = "cuckoo" + ways + (murmur == 1 ? " murmur" : " multiply-shift");
                    try (DeviceBuffer table = ctx.allocate(tableSlots * 4)) {
                        // distinct keys, then every key and as many absent ones looked up
                        table.fill32(EMPTY_KEY, tableSlots);
                        error.zero();
                        long t0 = System.nanoTime();
                        insert.launch(grid, BLOCK_THREADS, KernelArgs.of().ptr(table).ptr(dKeys).i64(n).i32(log2).i32(ways)
                                .i32(murmur).ptr(error));
                        ctx.synchronize();
                        double insertMs = ms(t0);
                        find.launch(grid, BLOCK_THREADS, KernelArgs.of().ptr(table).ptr(dKeys).i64(2L * n).i32(log2)
                                .i32(ways).i32(murmur).ptr(dSlots));
                        int err = (int) error.readLong(0);
                        dSlots.copyToHost(slots, 0);
                        table.copyToHost(host, 0);
                        long occupied = 0;
                        for (long s = 0; s < tableSlots; s++) {
                            occupied += host.getAtIndex(JAVA_INT, s) != EMPTY_KEY ? 1 : 0;
                        }
                        long found = 0;
                        long wrong = 0;
                        for (int i = 0; i < 2 * n; i++) {
                            long s = slots.getAtIndex(JAVA_LONG, i);
                            if (i < n) {
                                boolean ok = s >= 0 && s < tableSlots && host.getAtIndex(JAVA_INT, s) == i + 1;
                                found += ok ? 1 : 0;
                            } else {
                                wrong += s != -1 ? 1 : 0;
                            }
                        }
                        check(err == 0 && found == n && wrong == 0 && occupied == n, String.format(
                                "%s table of %d slots: %d distinct keys inserted (error bits %d) in %.3f ms, %d found, "
                                        + "%d slots used, %d absent keys found", what, tableSlots, n, err, insertMs, found,
                                occupied, wrong));

                        // repeated keys
                        table.fill32(EMPTY_KEY, tableSlots);
                        error.zero();
                        insert.launch(grid, BLOCK_THREADS, KernelArgs.of().ptr(table).ptr(dRepeated).i64(n).i32(log2)
                                .i32(ways).i32(murmur).ptr(error));
                        find.launch(grid, BLOCK_THREADS, KernelArgs.of().ptr(table).ptr(dKeys).i64(2L * distinct)
                                .i32(log2).i32(ways).i32(murmur).ptr(dSlots));
                        err = (int) error.readLong(0);
                        dSlots.copyToHost(slots.asSlice(0, 2L * distinct * 8), 0);
                        table.copyToHost(host, 0);
                        occupied = 0;
                        for (long s = 0; s < tableSlots; s++) {
                            occupied += host.getAtIndex(JAVA_INT, s) != EMPTY_KEY ? 1 : 0;
                        }
                        found = 0;
                        wrong = 0;
                        for (int i = 0; i < 2 * distinct; i++) {
                            long s = slots.getAtIndex(JAVA_LONG, i);
                            if (i < distinct) {
                                found += s >= 0 && s < tableSlots && host.getAtIndex(JAVA_INT, s) == i + 1 ? 1 : 0;
                            } else {
                                wrong += s != -1 ? 1 : 0;
                            }
                        }
                        check(err == 0 && found == distinct && wrong == 0 && occupied >= distinct && occupied <= n,
                                String.format("%s: %d keys inserted 8 times each (error bits %d): %d found, %d slots used "
                                        + "(copies left by concurrent inserts: %d), %d absent keys found", what, distinct, err,
                                        found, occupied, occupied - distinct, wrong));
                    }
                }
            }
        }
    }

    /**
     * The compaction kernels of tessera_query.cuh against the host: the indices of the non-empty slots (row count not
     * 0, and state 2 where there is a state array) in ascending order, and the gathers of one and of three words per
     * slot, over tables from one slot to two million, empty, sparse, half full and full.
     */
    private void checkCompaction(CudaContext ctx, KernelCompiler compiler) {
        KernelCompiler.Compiled c = compiler.compile(CudaSources.utilitySource(), CudaSources.UTILITY,
                CudaSources.headers(), ctx);
        try (CudaModule module = ctx.loadModule(c.cubin());
             CudaEvent start = ctx.createEvent();
             CudaEvent end = ctx.createEvent()) {
            SlotCompaction compaction = new SlotCompaction(module::kernel);
            long[][] cases = { // slots, per mille non-empty, with a state array
                    {1, 1000, 0}, {1, 0, 0}, {1000, 3, 0}, {2048, 1000, 0}, {65_537, 0, 0}, {65_537, 500, 1},
                    {300_007, 2, 0}, {1 << 20, 10, 1}, {2_000_003, 1, 0}, {2_000_003, 1000, 0}};
            for (long[] k : cases) {
                int slots = (int) k[0];
                boolean withState = k[2] != 0;
                try (Arena arena = Arena.ofConfined();
                     DeviceBuffer rows = ctx.allocate(slots * 8L);
                     DeviceBuffer state = ctx.allocate(slots * 4L);
                     DeviceBuffer keys = ctx.allocate(slots * 24L);
                     DeviceBuffer index = ctx.allocate(slots * 8L);
                     DeviceBuffer scratch = ctx.allocate(SlotCompaction.scratchBytes(slots));
                     DeviceBuffer out = ctx.allocate(slots * 32L + 8)) {
                    MemorySegment hRows = arena.allocate(slots * 8L, 8);
                    MemorySegment hState = arena.allocate(slots * 4L, 4);
                    MemorySegment hKeys = arena.allocate(slots * 24L, 8);
                    List<Long> expect = new ArrayList<>();
                    for (int s = 0; s < slots; s++) {
                        long h = mix(s * 31L + slots);
                        boolean used = Long.remainderUnsigned(h, 1000) < k[1];
                        long r = used ? 1 + (h >>> 40) : 0;
                        int st = 2;
                        if (withState) {
                            int odd = (int) Long.remainderUnsigned(h >>> 20, 8);
                            if (odd == 0) {
                                st = used ? 1 : 2; // rows without a published group, a group without rows: both empty
                                r = used ? r : 0;
                                used = false;
                            } else if (!used) {
                                st = 0;
                            }
                        }
                        hRows.setAtIndex(JAVA_LONG, s, r);
                        hState.setAtIndex(JAVA_INT, s, st);
                        for (int w = 0; w < 3; w++) {
                            hKeys.setAtIndex(JAVA_LONG, 3L * s + w, mix(3L * s + w));
                        }
                        if (used) {
                            expect.add((long) s);
                        }
                    }
                    rows.copyFromHost(hRows, 0);
                    state.copyFromHost(hState, 0);
                    keys.copyFromHost(hKeys, 0);
                    start.record();
                    long n = compaction.compact(rows, withState ? state : null, slots, index, scratch);
                    end.record();
                    float ms = end.elapsedMillisSince(start);
                    boolean ok = n == expect.size();
                    if (ok && n > 0) {
                        // rows at word 0, keys (three words per slot) at word n: one launch, or one per array
                        if (withState || (slots & 1) != 0) {
                            compaction.gather(List.of(new SlotCompaction.Gather(rows.address(), 1, 0),
                                    new SlotCompaction.Gather(keys.address(), 3, n)), index, n, out);
                        } else {
                            compaction.gather(rows, 1, index, n, out, 0);
                            compaction.gather(keys, 3, index, n, out, n);
                        }
                        MemorySegment hIndex = arena.allocate(n * 8, 8);
                        MemorySegment hOut = arena.allocate(n * 32, 8);
                        index.copyToHost(hIndex, 0);
                        out.copyToHost(hOut, 0);
                        for (int i = 0; i < n && ok; i++) {
                            long s = expect.get(i);
                            ok = hIndex.getAtIndex(JAVA_LONG, i) == s
                                    && hOut.getAtIndex(JAVA_LONG, i) == hRows.getAtIndex(JAVA_LONG, s);
                            for (int w = 0; w < 3; w++) {
                                ok &= hOut.getAtIndex(JAVA_LONG, n + 3L * i + w) == hKeys.getAtIndex(JAVA_LONG, 3 * s + w);
                            }
                        }
                    }
                    check(ok, String.format("compaction of %d slots%s: %d non-empty (host %d) in slot order, "
                                    + "gathered; count and compact %.3f ms", slots, withState ? " with states" : "", n,
                            expect.size(), ms));
                }
            }
        }
    }

    /**
     * tessera_zero_ranges through {@link RangeClear}: eleven buffers of odd and even sizes (8 bytes to 4 MB and 3
     * bytes), two launches, filled with ones first; every byte of each cleared, and a twelfth buffer not in the
     * list left as it was.
     */
    private void checkRangeClear(CudaContext ctx, CudaModule module) {
        long[] sizes = {8, 13, 16, 4100, 65_539, 1 << 20, (1 << 22) + 3, 24, 8, 1000, 77, 4096};
        List<DeviceBuffer> buffers = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            for (long size : sizes) {
                DeviceBuffer b = ctx.allocate(size);
                buffers.add(b);
                MemorySegment ones = arena.allocate(b.size());
                ones.fill((byte) 0xFF);
                b.copyFromHost(ones, 0);
            }
            new RangeClear(module::kernel).clear(buffers.subList(0, sizes.length - 1), null);
            long wrong = 0;
            for (int i = 0; i < buffers.size(); i++) {
                DeviceBuffer b = buffers.get(i);
                MemorySegment back = arena.allocate(b.size());
                b.copyToHost(back, 0);
                byte expect = i < sizes.length - 1 ? 0 : (byte) 0xFF;
                for (long k = 0; k < b.size(); k++) {
                    wrong += back.get(java.lang.foreign.ValueLayout.JAVA_BYTE, k) != expect ? 1 : 0;
                }
            }
            check(wrong == 0, "clearing " + (sizes.length - 1) + " buffers in two launches: " + wrong
                    + " bytes wrong (the last buffer untouched)");
        } finally {
            buffers.forEach(DeviceBuffer::close);
        }
    }

    /** The exclusive prefix sum of per-tile row counts (mat=twopass, mat=bitmap) against the CPU's. */
    private void checkScanCounts(CudaContext ctx, CudaModule module, PinnedBuffer staging, Arena arena) {
        CudaKernel scan = module.kernel("tessera_scan_counts");
        for (int tiles : new int[] {1, 4096, 300_001}) {
            MemorySegment counts = arena.allocate((tiles + 1L) * 8, 64);
            for (int i = 0; i < tiles; i++) {
                counts.setAtIndex(JAVA_LONG, i, Long.remainderUnsigned(mix(i), 2049));
            }
            counts.setAtIndex(JAVA_LONG, tiles, 12345);
            try (DeviceBuffer d = ctx.upload(counts, staging)) {
                scan.launch(1, 1024, KernelArgs.of().ptr(d).i64(tiles));
                MemorySegment out = arena.allocate((tiles + 1L) * 8, 64);
                d.copyToHost(out, 0);
                long running = 0;
                long wrong = 0;
                for (int i = 0; i < tiles; i++) {
                    wrong += out.getAtIndex(JAVA_LONG, i) != running ? 1 : 0;
                    running += counts.getAtIndex(JAVA_LONG, i);
                }
                long total = out.getAtIndex(JAVA_LONG, tiles);
                check(wrong == 0 && total == running, String.format(
                        "prefix sum of %d tile counts: %d offsets differ from the CPU's, total %d (CPU %d)", tiles, wrong,
                        total, running));
            }
        }
    }

    /** The host twin of HashMurmur::Slot in tessera_crystal.cuh. */
    static long murmurSlot(long key, int log2Slots) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h & ((1L << log2Slots) - 1);
    }

    /** SplitMix64's finalizer: a well-mixed 64-bit value per row, the same on every run. */
    static long mix(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private interface RangeTask {
        long run(long from, long to);
    }

    private static long parallelFor(long n, RangeTask task, LongBinaryOperator combine) {
        int threads = Runtime.getRuntime().availableProcessors();
        long per = (n + threads - 1) / threads;
        AtomicLong acc = new AtomicLong();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long from = Math.min(n, t * per);
            long to = Math.min(n, from + per);
            ts.add(Thread.ofPlatform().start(() -> {
                long v = task.run(from, to);
                acc.accumulateAndGet(v, combine);
            }));
        }
        for (Thread t : ts) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return acc.get();
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    private static String gib(long bytes) {
        return String.format("%.1f", bytes / (double) (1L << 30));
    }
}
