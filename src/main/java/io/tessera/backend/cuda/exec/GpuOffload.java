package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.CudaContext;
import io.tessera.backend.cuda.CudaEvent;
import io.tessera.backend.cuda.CudaKernel;
import io.tessera.backend.cuda.DeviceBuffer;
import io.tessera.backend.cuda.KernelArgs;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.JoinLayout;
import io.tessera.backend.cuda.gen.KernelParam;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.backend.jvm.EmittedPipeline;
import io.tessera.backend.jvm.GroupTable;
import io.tessera.backend.jvm.JKind;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.jvm.RowBuffer;
import io.tessera.plan.Source;
import io.tessera.storage.Table;
import io.tessera.variant.CudaVariantSpace;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a query's GPU pipelines for the JVM executor: binds each kernel's parameters (cached columns, the join
 * tables earlier kernels built, sink buffers from the pool), launches it with the genome's grid (once per pass of a
 * kernel of two passes, every launch timed), checks its error bits, and turns what its sink left into the state the JVM backend finishes (row buffers, group tables). Join
 * tables stay on the device until the query ends; everything taken from the pool goes back then.
 */
public final class GpuOffload implements JvmExecutor.Offload, AutoCloseable {

    /** A GPU result that only the JVM backend can produce (a key outside its statistics' range, a table too full). */
    public static final class Fallback extends RuntimeException {
        Fallback(String message) {
            super(message, null, false, false);
        }
    }

    private static final int ERR_OVERFLOW = 1;
    private static final int ERR_DIV_ZERO = 2;
    private static final int ERR_TABLE_FULL = 4;
    private static final int ERR_SENTINEL = 8;
    /** The largest SHARED group table of a first attempt (slots). */
    private static final long FIRST_SHARED_SLOTS = 1L << 22;
    /**
     * System property: group tables of more slots than this (default 65,536) are compacted on the device before
     * they are read back (dense tables of SSB Q3.2 to Q4.3 have 0.4 M to 2 M slots and a few thousand groups);
     * smaller ones are read whole, which costs less than the compaction's launches and copies. 0 compacts every
     * group table (to check the compaction on small data), a huge value none.
     */
    static final String COMPACT_PROPERTY = "tessera.gpu.compactAbove";
    private static final long COMPACT_ABOVE = Long.getLong(COMPACT_PROPERTY, 64 * 1024);
    /** Shared memory a kernel may take without opting in to more. */
    private static final int STATIC_SHARED_LIMIT = 48 * 1024;
    /** How long the stream is held before a timed block: longer than the host takes to queue a launch. */
    private static final long BLOCK_HOLD_NANOS = 50_000;
    /** Whether launches ask the driver to keep as L1 what the resident blocks' shared memory leaves (the default). */
    private static final boolean CARVEOUT = !"driver".equals(System.getProperty("tessera.gpu.carveout"));

    private record DeviceTable(JoinLayout layout, DeviceBuffer keys, List<DeviceBuffer> payload, long slots, int log2) {
    }

    private final GpuRuntime rt;
    private final CudaContext ctx;
    private final GpuPlan plan;
    private final Map<Integer, DeviceTable> tables = new HashMap<>();
    private final List<DeviceBuffer> taken = new ArrayList<>();
    /** The pipeline whose input runs in blocks under a tuner's kernels, or null. */
    private final GpuBlocks blocks;
    /** Stops the query before its next kernel launch once cancelled (null: never). */
    private final io.tessera.api.QueryCancel cancel;
    private long kernelNanos;
    private final long uploadNanosBefore;

    GpuOffload(GpuRuntime rt, GpuPlan plan) {
        this(rt, plan, null);
    }

    GpuOffload(GpuRuntime rt, GpuPlan plan, GpuBlocks blocks) {
        this(rt, plan, blocks, null);
    }

    /** {@code cancel} (null: none) is checked before every kernel launch. */
    public GpuOffload(GpuRuntime rt, GpuPlan plan, GpuBlocks blocks, io.tessera.api.QueryCancel cancel) {
        this.cancel = cancel;
        this.rt = rt;
        this.ctx = rt.context();
        this.plan = plan;
        this.blocks = blocks;
        this.uploadNanosBefore = rt.columns().uploadNanos();
    }

    public long kernelNanos() {
        return kernelNanos;
    }

    public long uploadNanos() {
        return rt.columns().uploadNanos() - uploadNanosBefore;
    }

    @Override
    public List<Object> run(EmittedPipeline e) {
        int id = e.pipeline().id();
        CudaKernel kernel = plan.kernels().get(id);
        if (kernel == null) {
            return null;
        }
        ctx.makeCurrent();
        CudaKernelSource k = plan.placement().kernels().get(id);
        Table table = ((Source.TableScan) k.pipeline().source()).table();
        long n = table.rowCount();
        long groupSlots = 0;
        for (int attempt = 0; ; attempt++) {
            Launch l = new Launch(k, table, n, attempt == 0 ? 0 : groupSlots * 4, attempt);
            groupSlots = l.groupSlots;
            if (blocks != null && blocks.pipeline() == id) {
                runBlocks(k, l, n);
            } else {
                for (int pass = 0; pass < k.passes(); pass++) {
                    if (pass == 1 && l.tileRows != null) {
                        // the tiles' counts into their offsets (exclusive prefix sums) and the total
                        timed(() -> rt.scanCounts(l.tileRows, l.tiles));
                    }
                    launch(kernel, k, l.bindings.args(k.params(), pass, 0, n), n);
                }
            }
            int err = (int) l.error.readLong(0);
            if ((err & ERR_TABLE_FULL) != 0 && "shared".equals(l.mode) && attempt < 3) {
                continue; // the group hash table filled up: again with four times the slots
            }
            if ((err & ERR_TABLE_FULL) != 0 && l.cuckoo && attempt < 1) {
                continue; // an insert ran out of evictions: again into a table of four times the slots
            }
            checkErrors(err, id);
            return collect(e, k, l);
        }
    }

    /**
     * The pipeline's input in blocks of rows, each launched with the kernel {@link #blocks} chooses into the sink
     * buffers of {@code l}, and timed alone. Only a kernel of one pass whose sink accumulates (an aggregation) can
     * take its input in parts: a row sink places its rows by tile number.
     *
     * <p>A block is a whole number of the kernel's waves (a tile for every block resident on every SM), about
     * the rows {@link GpuBlocks#blockRows} asks for: a block of a partial wave would end in a tail the whole input
     * hardly has, and favour small tiles; a block asked for all {@code n} rows is the whole input. Before each block the stream is held for {@link #BLOCK_HOLD_NANOS}, so
     * that the block's start event fires once the host has queued its launch: a block takes a few tens of
     * microseconds, as long as the host takes to launch it. The last, partial block goes to the sink but not to
     * the tuner.
     */
    private void runBlocks(CudaKernelSource k, Launch l, long n) {
        if (k.passes() != 1 || !(k.sink() instanceof SinkLayout.Aggregate)) {
            throw new IllegalStateException("pipeline " + k.pipeline().id() + " cannot run in blocks: only an "
                    + "aggregation of one pass can");
        }
        long nominal = Math.max(1, blocks.blockRows(n));
        for (long first = 0; first < n; ) {
            GpuBlocks.Kernel b = blocks.next();
            if (b.source().passes() != 1) {
                throw new IllegalStateException("block genome " + b.genome() + " needs two passes");
            }
            int resident = residentBlocks(b.kernel(), b.source());
            // a wave: a tile for each block resident on every SM
            long wave = (long) b.source().threadsPerBlock() * b.source().itemsPerThread() * resident * rt.info().cores();
            // asked for the whole input, the block is the whole input, its last partial wave included, as a query runs it
            long whole = nominal >= n ? n : Math.max(1, Math.round((double) nominal / wave)) * wave;
            long len = Math.min(whole, n - first);
            io.tessera.api.QueryCancel.check(cancel);
            Runnable go = launcher(b.kernel(), b.source(), l.bindings.args(b.source().params(), 0, first, len), len,
                    resident);
            rt.holdStream(BLOCK_HOLD_NANOS); // queued before the block's start event
            long nanos = timed(go);
            if (len == whole) {
                blocks.done(b, len, nanos);
            }
            first += len;
        }
    }

    private void checkErrors(int err, int pipeline) {
        if ((err & ERR_OVERFLOW) != 0) {
            throw new ArithmeticException("long overflow");
        }
        if ((err & ERR_DIV_ZERO) != 0) {
            throw new ArithmeticException("/ by zero");
        }
        if ((err & ERR_TABLE_FULL) != 0) {
            throw new Fallback("pipeline " + pipeline + " met a key outside its table's range, a payload value outside its statistics' range, or filled its hash table");
        }
        if ((err & ERR_SENTINEL) != 0) {
            throw new Fallback("pipeline " + pipeline + " met a key equal to its hash table's empty marker");
        }
    }

    /** Launches a kernel over {@code n} rows with its genome's grid, and returns its time on the device. */
    private long launch(CudaKernel kernel, CudaKernelSource k, KernelArgs args, long n) {
        io.tessera.api.QueryCancel.check(cancel);
        return timed(launcher(kernel, k, args, n, residentBlocks(kernel, k)));
    }

    /**
     * What launches a kernel over {@code n} rows with its genome's grid: one block per tile, or its {@code resident}
     * blocks (from {@link #residentBlocks}) on every SM (a persistent grid). Sets the kernel's carve-out first.
     */
    private Runnable launcher(CudaKernel kernel, CudaKernelSource k, KernelArgs args, long n, int resident) {
        int tpb = k.threadsPerBlock();
        long tiles = k.tiles(n);
        int shared = (int) k.sharedBytes();
        long blocks = k.genome().get(CudaVariantSpace.GRID).equals("tile") ? tiles
                : Math.min(tiles, (long) resident * rt.info().cores());
        if (CARVEOUT) {
            // the shared memory the resident blocks take, the rest of the SM kept as L1
            kernel.preferSharedPerSm((long) resident
                    * (shared + kernel.staticSharedBytes() + CudaVariantSpace.SHARED_RESERVED_PER_BLOCK));
        }
        if (blocks > Integer.MAX_VALUE) {
            throw new Fallback("a grid of " + blocks + " blocks");
        }
        int gridBlocks = (int) blocks;
        return () -> kernel.launch(gridBlocks, tpb, shared, null, args);
    }

    /**
     * The kernel's blocks resident on an SM at once: what its threads, registers and shared memory allow, at most k
     * under grid=pk. Opts in to the kernel's shared memory beyond the static limit first.
     */
    private int residentBlocks(CudaKernel kernel, CudaKernelSource k) {
        int shared = (int) k.sharedBytes();
        if (shared > STATIC_SHARED_LIMIT) {
            try {
                kernel.allowDynamicShared(shared);
            } catch (io.tessera.backend.cuda.CudaException e) {
                throw new Fallback("pipeline " + k.pipeline().id() + " needs " + shared / 1024
                        + " KB of shared memory per block, more than this GPU gives: " + e.getMessage());
            }
        }
        int resident = Math.max(1, kernel.maxActiveBlocksPerSM(k.threadsPerBlock(), shared));
        String grid = k.genome().get(CudaVariantSpace.GRID);
        return grid.equals("tile") ? resident : Math.min(Integer.parseInt(grid.substring(1)), resident);
    }

    /** Runs device work, adds its time on the device to the kernel time, and returns that time. */
    private long timed(Runnable work) {
        try (CudaEvent start = ctx.createEvent(); CudaEvent stop = ctx.createEvent()) {
            start.record();
            work.run();
            stop.record();
            stop.synchronize();
            long nanos = (long) (stop.elapsedMillisSince(start) * 1e6);
            kernelNanos += nanos;
            return nanos;
        }
    }

    private DeviceBuffer take(long bytes) {
        DeviceBuffer b = rt.pool().take(Math.max(8, bytes));
        taken.add(b);
        return b;
    }

    private DeviceBuffer zeroed(long bytes) {
        DeviceBuffer b = take(bytes);
        b.zero();
        return b;
    }

    /** The arguments of one launch and the buffers its sink writes. */
    private final class Launch {
        final KernelBindings bindings = new KernelBindings();
        /** A cuckoo BUILD, which may try again with a larger table. */
        boolean cuckoo;
        DeviceBuffer error;
        DeviceBuffer rows;
        DeviceBuffer cursor;
        /** mat=twopass / bitmap: the tiles' row counts, then their offsets and (word {@link #tiles}) the total. */
        DeviceBuffer tileRows;
        long tiles;
        DeviceBuffer groupKeys;
        DeviceBuffer groupState;
        final Map<Integer, DeviceBuffer> values = new HashMap<>();
        final Map<Integer, DeviceBuffer> counts = new HashMap<>();
        final Map<Integer, DeviceBuffer> outputs = new HashMap<>();
        long groupSlots;
        String mode;

        /** {@code attempt}: 0 first; a retry gives a cuckoo table four times the slots. */
        Launch(CudaKernelSource k, Table table, long n, long sharedSlots, int attempt) {
            SinkLayout sink = k.sink();
            long slots = 1;
            if (sink instanceof SinkLayout.Aggregate a) {
                mode = a.mode();
                if (a.mode().equals("shared")) {
                    long want = sharedSlots > 0 ? sharedSlots : Math.max(1024, 2 * Math.min(n, estimatedGroups(k)));
                    slots = Long.highestOneBit(Math.max(1, want - 1)) << 1;
                } else {
                    slots = a.denseSlots();
                }
                groupSlots = slots;
            }
            DeviceTable building = null;
            if (sink instanceof SinkLayout.Build b) {
                cuckoo = b.table().kind().cuckoo();
                building = newTable(b.table(), n, cuckoo ? 1L << (2 * attempt) : 1);
                tables.put(b.table().joinId(), building);
            }
            for (KernelParam p : k.params()) {
                switch (p.kind()) {
                    case ROWS, PASS -> {
                        // given per launch
                    }
                    case COLUMN -> bindings.column(p, rt.columns().hold(table.column(p.index())).address(),
                            CType.stored(table.column(p.index()).type()).bytes);
                    case PROBE_KEYS -> bindings.ptr(p, table(p.index()).keys().address());
                    case PROBE_PAYLOAD -> bindings.ptr(p, table(p.index()).payload().get(p.sub()).address());
                    case PROBE_MIN -> bindings.i64(p, table(p.index()).layout().min());
                    case PROBE_SLOTS -> bindings.i64(p, table(p.index()).slots());
                    case PROBE_LOG2 -> bindings.i32(p, table(p.index()).log2());
                    case BUILD_KEYS -> bindings.ptr(p, building.keys().address());
                    case BUILD_PAYLOAD -> bindings.ptr(p, building.payload().get(p.sub()).address());
                    case BUILD_MIN -> bindings.i64(p, building.layout().min());
                    case BUILD_SLOTS -> bindings.i64(p, building.slots());
                    case BUILD_LOG2 -> bindings.i32(p, building.log2());
                    case GROUP_ROWS -> bindings.ptr(p, (rows = zeroed(slots * 8)).address());
                    case AGG_VALUE -> {
                        SinkLayout.Agg agg = ((SinkLayout.Aggregate) sink).aggs().get(p.index());
                        DeviceBuffer v = take(slots * 8);
                        rt.fill64(v, agg.identityBits(), slots);
                        values.put(p.index(), v);
                        bindings.ptr(p, v.address());
                    }
                    case AGG_COUNT -> {
                        DeviceBuffer c = zeroed(slots * 8);
                        counts.put(p.index(), c);
                        bindings.ptr(p, c.address());
                    }
                    case GROUP_KEYS -> bindings.ptr(p, (groupKeys = take(slots * 8 * ((SinkLayout.Aggregate) sink).keyWidth())).address());
                    case GROUP_STATE -> bindings.ptr(p, (groupState = zeroed(slots * 4)).address());
                    case GROUP_LOG2 -> bindings.i32(p, Long.numberOfTrailingZeros(slots));
                    case OUT_COLUMN -> {
                        CType t = ((SinkLayout.Rows) sink).types().get(p.index());
                        DeviceBuffer o = take(Math.max(1, n) * (t == CType.BOOL ? 1 : t.bytes));
                        outputs.put(p.index(), o);
                        bindings.ptr(p, o.address());
                    }
                    case OUT_CURSOR -> bindings.ptr(p, (cursor = zeroed(8)).address());
                    case TILE_ROWS -> {
                        // zeroed: with no rows at all, no tile writes its count
                        tiles = k.tiles(n);
                        tileRows = zeroed((tiles + 1) * 8);
                        bindings.ptr(p, tileRows.address());
                    }
                    case SEL_BITS -> {
                        // one bit per item of every tile (pass 0 writes every word of every tile)
                        long words = k.tiles(n) * k.threadsPerBlock() * k.itemsPerThread() / 32;
                        bindings.ptr(p, take(words * 4).address());
                    }
                    case ERROR -> {
                        error = zeroed(8);
                        bindings.ptr(p, error.address());
                    }
                }
            }
        }
    }

    /**
     * Groups to size a SHARED table for: the planner's estimate, at most the product of the keys' ranges where they
     * are known, and at most {@link #FIRST_SHARED_SLOTS}: estimates over join results run high (a table of 2^28
     * slots took seconds to clear and read back), and a table that fills up is retried four times larger.
     */
    private static long estimatedGroups(CudaKernelSource k) {
        if (k.pipeline().sink() instanceof io.tessera.plan.Sink.GroupAggregate ga) {
            long groups = (long) Math.min(Long.MAX_VALUE / 4, Math.max(1, ga.estimatedGroups()));
            groups = Math.min(groups, CudaVariantSpace.denseSlots(ga));
            return Math.min(groups, FIRST_SHARED_SLOTS / 2);
        }
        return 1;
    }

    private DeviceTable table(int joinId) {
        DeviceTable t = tables.get(joinId);
        if (t == null) {
            throw new IllegalStateException("join j" + joinId + " has no device table");
        }
        return t;
    }

    /**
     * The device table of a join over {@code buildRows} rows: a perfect table's presence bits, or a hashed table's
     * keys (every slot the empty marker) with {@code grow} times the slots of {@link JoinLayout#hashedSlots}; and
     * one payload array per payload column, indexed by slot.
     */
    private DeviceTable newTable(JoinLayout layout, long buildRows, long grow) {
        long slots;
        int log2 = 0;
        if (layout.perfect()) {
            slots = layout.perfectSlots();
        } else {
            slots = layout.hashedSlots(buildRows) * grow;
            log2 = Long.numberOfTrailingZeros(slots);
        }
        DeviceBuffer keys;
        if (layout.perfect()) {
            keys = zeroed((slots + 31) / 32 * 4); // presence bits
        } else if (layout.keyType() == CType.INT) {
            keys = take(slots * 4);
            keys.fill32(Integer.MIN_VALUE, slots);
        } else {
            keys = take(slots * 8);
            rt.fill64(keys, Long.MIN_VALUE, slots);
        }
        List<DeviceBuffer> payload = new ArrayList<>();
        for (int c = 0; c < layout.payloadTypes().size(); c++) {
            payload.add(take(slots * layout.payloadBytes(c)));
        }
        return new DeviceTable(layout, keys, payload, slots, log2);
    }

    // ---- results into the JVM backend's sink states ----

    private List<Object> collect(EmittedPipeline e, CudaKernelSource k, Launch l) {
        return switch (k.sink()) {
            case SinkLayout.Build b -> List.of();
            case SinkLayout.Rows r -> List.of(rows(e, r, l));
            case SinkLayout.Aggregate a -> List.of(groups(e, a, l));
        };
    }

    private RowBuffer rows(EmittedPipeline e, SinkLayout.Rows r, Launch l) {
        long count = l.tileRows != null ? l.tileRows.readLong(l.tiles * 8) : l.cursor.readLong(0);
        if (count > Integer.MAX_VALUE - 16) {
            throw new Fallback("more than 2^31 result rows");
        }
        int n = (int) count;
        RowBuffer b = new RowBuffer(e.bufferKinds(), n);
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < r.types().size(); c++) {
                CType t = r.types().get(c);
                int width = t == CType.BOOL ? 1 : t.bytes;
                MemorySegment host = arena.allocate(Math.max(8, (long) n * width), 8);
                if (n > 0) {
                    l.outputs.get(c).copyToHost(host.asSlice(0, (long) n * width), 0);
                }
                switch (t) {
                    case INT -> MemorySegment.copy(host, ValueLayout.JAVA_INT, 0, b.ints[c], 0, n);
                    case LONG -> MemorySegment.copy(host, ValueLayout.JAVA_LONG, 0, b.longs[c], 0, n);
                    case DOUBLE -> MemorySegment.copy(host, ValueLayout.JAVA_DOUBLE, 0, b.doubles[c], 0, n);
                    case BOOL -> MemorySegment.copy(host, ValueLayout.JAVA_BYTE, 0, b.bytes[c], 0, n);
                }
            }
        }
        b.size = n;
        return b;
    }

    private static long[] longs(DeviceBuffer b, long n) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate(n * 8, 8);
            b.copyToHost(host, 0);
            return host.toArray(ValueLayout.JAVA_LONG);
        }
    }

    private GroupTable groups(EmittedPipeline e, SinkLayout.Aggregate a, Launch l) {
        long slots = l.groupSlots;
        if (slots > Integer.MAX_VALUE / Math.max(1, a.keyWidth())) {
            throw new Fallback("a group table of " + slots + " slots");
        }
        boolean shared = a.mode().equals("shared");
        if (slots > COMPACT_ABOVE && !a.mode().equals("single")) {
            return GpuGroups.table(GpuGroups.Target.of(e), a, compacted(a, l, shared));
        }
        long[] rows = longs(l.rows, slots);
        long[][] vals = new long[a.aggs().size()][];
        long[][] cnts = new long[a.aggs().size()][];
        for (int i = 0; i < vals.length; i++) {
            vals[i] = l.values.containsKey(i) ? longs(l.values.get(i), slots) : null;
            cnts[i] = l.counts.containsKey(i) ? longs(l.counts.get(i), slots) : null;
        }
        if (a.mode().equals("single")) {
            return GpuGroups.single(e.aggs(), new GpuGroups.Slots(1, new long[1], rows, vals, cnts, null));
        }
        long[] keys = shared ? longs(l.groupKeys, slots * a.keyWidth()) : null;
        int[] state = null;
        if (shared) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment host = arena.allocate(slots * 4, 4);
                l.groupState.copyToHost(host, 0);
                state = host.toArray(ValueLayout.JAVA_INT);
            }
        }
        return GpuGroups.table(GpuGroups.Target.of(e), a, GpuGroups.compact(rows, state, vals, cnts, keys, a.keyWidth()));
    }

    /**
     * The non-empty slots of a large group table, compacted on the device: the indices of the slots with rows (and
     * state 2 for agg=shared), then every array gathered at them into one pooled buffer (row counts, each
     * aggregate's value and own count, agg=shared's keys), so that two copies of a few thousand entries replace
     * the copies of whole arrays and the walk over every slot. The compaction's kernels are not added to
     * {@link #kernelNanos}, which times the pipeline kernels that the bandwidth model is compared with: like the
     * read-back they shorten, they count in the query's end-to-end time.
     */
    private GpuGroups.Slots compacted(SinkLayout.Aggregate a, Launch l, boolean shared) {
        long slots = l.groupSlots;
        int na = a.aggs().size();
        int width = a.keyWidth();
        DeviceBuffer index = take(slots * 8);
        long found = rt.compactSlots(l.rows, shared ? l.groupState : null, slots, index);
        if (found < 0 || found > slots) {
            throw new IllegalStateException("compacting " + slots + " group slots found " + found);
        }
        int n = (int) found;
        boolean[] hasValue = new boolean[na];
        boolean[] hasCount = new boolean[na];
        for (int i = 0; i < na; i++) {
            hasValue[i] = l.values.containsKey(i);
            hasCount[i] = l.counts.containsKey(i);
        }
        GpuGroups.Packing p = GpuGroups.Packing.of(n, hasValue, hasCount, shared ? width : 0);
        if (n == 0) {
            return p.unpack(new long[0], new long[0]);
        }
        if (p.words() > Integer.MAX_VALUE - 8) {
            throw new Fallback(n + " groups of " + p.words() / n + " words each");
        }
        DeviceBuffer packed = take(p.words() * 8);
        rt.gather64(l.rows, 1, index, n, packed, 0);
        for (int i = 0; i < na; i++) {
            if (hasValue[i]) {
                rt.gather64(l.values.get(i), 1, index, n, packed, p.valueAt()[i]);
            }
            if (hasCount[i]) {
                rt.gather64(l.counts.get(i), 1, index, n, packed, p.countAt()[i]);
            }
        }
        if (shared) {
            rt.gather64(l.groupKeys, width, index, n, packed, p.keysAt());
        }
        // synchronous copies, after the gathers
        return p.unpack(longs(index, n), longs(packed, p.words()));
    }

    @Override
    public void close() {
        ctx.makeCurrent();
        rt.columns().releaseHeld();
        rt.pool().giveAll(taken);
        taken.clear();
        tables.clear();
    }
}
