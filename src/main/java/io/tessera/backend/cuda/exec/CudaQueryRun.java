package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaEvent;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.JoinLayout;
import io.tessera.backend.cuda.gen.KernelParam;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.cuda.runtime.DeviceColumnCache;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.backend.QueryState;
import io.tessera.plan.Source;
import io.tessera.storage.Table;
import io.tessera.variant.CudaVariantSpace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one query's run keeps on the GPU, and its pipelines' launches: binds each kernel's parameters (cached
 * columns, the join tables earlier kernels built, sink buffers from the pool), launches it with the genome's grid
 * (once per pass of a kernel of two passes, every launch timed), checks its error bits, and leaves what its sink
 * made on the device as the query's intermediate ({@link DeviceOutputs}). Join tables and outputs stay on the
 * device until the query ends; everything taken from the pool goes back then.
 */
final class CudaQueryRun implements AutoCloseable {


    private static final int ERR_OVERFLOW = 1;
    private static final int ERR_DIV_ZERO = 2;
    private static final int ERR_TABLE_FULL = 4;
    private static final int ERR_SENTINEL = 8;
    /** The largest SHARED group table of a first attempt (slots). */
    private static final long FIRST_SHARED_SLOTS = 1L << 22;
    /**
     * System property: the most slots the first run of a pipeline gives a hash table it fills (an agg=shared group
     * table, a linear or cuckoo join table); such tables then run again larger when they fill up. A small value
     * (1024) exercises that path on small data. Unset: the tables are sized from the planner's estimates.
     */
    static final String TABLE_SLOTS_PROPERTY = "tessera.gpu.tableSlots";
    private static final long FORCED_TABLE_SLOTS = Long.getLong(TABLE_SLOTS_PROPERTY, 0);
    /**
     * System property: group tables of more slots than this (default 65,536) are compacted on the device before
     * they are read back (dense tables of SSB Q3.2 to Q4.3 have 0.4 M to 2 M slots and a few thousand groups);
     * smaller ones are read whole, which costs less than the compaction's launches and copies. 0 compacts every
     * group table (to check the compaction on small data), a huge value none.
     */
    static final String COMPACT_PROPERTY = "tessera.gpu.compactAbove";
    static final long COMPACT_ABOVE = Long.getLong(COMPACT_PROPERTY, 64 * 1024);
    /** Shared memory a kernel may take without opting in to more. */
    private static final int STATIC_SHARED_LIMIT = 48 * 1024;
    /** How long the stream is held before a timed block: longer than the host takes to queue a launch. */
    private static final long BLOCK_HOLD_NANOS = 50_000;
    /** Whether launches ask the driver to keep as L1 what the resident blocks' shared memory leaves (the default). */
    private static final boolean CARVEOUT = !"driver".equals(System.getProperty("tessera.gpu.carveout"));

    /**
     * A join table on the device: its keys (or a perfect table's presence bits) and payload arrays by slot; a
     * chained table (keys that may repeat) also its first row per slot ({@code heads}) and next row per row
     * ({@code next}) for the {@code rows} rows of its build's input, its payload arrays by row (else those are null
     * and rows 0); a sorted table ({@link SortedJoinKeys}) its key words, by place until they are sorted, its
     * payload by place, and once sorted its {@code rows} and slots the rows built and {@code sorted} what its
     * probes search (else null).
     */
    record DeviceTable(JoinLayout layout, DeviceBuffer keys, List<DeviceBuffer> payload, long slots, int log2,
                       DeviceBuffer heads, DeviceBuffer next, long rows, SortedJoinKeys.Search sorted) {

        /** The entries a scan of the table's marks walks, and its marks: slots, or a chained table's rows. */
        long entries() {
            return layout.chained() ? rows : slots;
        }
    }

    /**
     * A GPU aggregation's group table, left on the device for the kernels that scan its groups: {@code slots} slots,
     * their rows, agg=shared's states and key words (else null), each aggregate's values by aggregate.
     */
    record GroupTable(long slots, DeviceBuffer rows, DeviceBuffer state, DeviceBuffer keys,
                      Map<Integer, DeviceBuffer> values) {
    }

    private final GpuRuntime rt;
    private final CudaContext ctx;
    private final GpuPlan plan;
    private final Map<Integer, DeviceTable> tables = new HashMap<>();
    /** The group tables of the aggregations whose groups later kernels scan, by relation. */
    private final Map<Integer, GroupTable> groupTables = new HashMap<>();
    /**
     * The relations kernels left on the device (a MATERIALIZE's rows, an aggregation's groups), by relation: the
     * handles as made, which later kernels read even where the host has moved the query's handle since.
     */
    private final Map<Integer, io.tessera.backend.Intermediate> leftRelations = new HashMap<>();
    /** The marks of the device join tables whose rows probes mark, one word per slot, by join. */
    private final Map<Integer, DeviceBuffer> marks = new HashMap<>();
    private final List<DeviceBuffer> taken = new ArrayList<>();
    private final PendingClears toClear = new PendingClears();
    /** The cached columns (values or NULL flags) this run's kernels read, once for each hold: released when the run closes. */
    private final List<DeviceColumnCache.Entry> heldColumns = new ArrayList<>();
    /** The pipeline whose input runs in blocks under a tuner's kernels, or null. */
    private final GpuBlocks blocks;
    /** Stops the query before its next kernel launch once cancelled (null: never). */
    private final io.tessera.api.QueryCancel cancel;
    /** The kernels' times, when the run asks for them ({@link io.tessera.backend.KernelTiming}). */
    private final KernelTimes times;
    /**
     * The error word that kernels which cannot be run again share (every kernel but those whose table runs again
     * larger when it fills up: {@link Launch#regrows}), and the pipelines that wrote it since it was read: it
     * is read once, before the host reads anything those kernels made, instead of once per kernel.
     */
    private DeviceBuffer sharedError;
    private final List<Integer> uncheckedPipelines = new ArrayList<>();
    private final long uploadNanosBefore;
    /** Waits for the device by polling, the cancel checked between polls. */
    private final KernelWait waiting = KernelWait.system();
    /** The current pipeline's device work, recorded to be issued at once (under graphs), or null: issued as it comes. */
    private DeviceSteps steps;
    /** Recorded after the queued work, polled by {@link #awaitDevice} (null until the first wait). */
    private CudaEvent doneEvent;
    /** A cancelled kernel did not end: the buffers it may still write are not given back. */
    private boolean abandoned;

    /**
     * A run of {@code plan}'s kernels; {@code blocks} (null: none) runs one pipeline's input in a tuner's blocks;
     * {@code cancel} (null: none) is checked before every kernel launch.
     */
    CudaQueryRun(GpuRuntime rt, GpuPlan plan, GpuBlocks blocks, io.tessera.api.QueryCancel cancel,
                 boolean timeKernels) {
        rt.checkUsable();
        this.cancel = cancel;
        this.rt = rt;
        this.ctx = rt.context();
        this.times = new KernelTimes(ctx, timeKernels);
        this.plan = plan;
        this.blocks = blocks;
        this.uploadNanosBefore = rt.columns().uploadNanos();
    }

    /** The kernels' time on the device so far; 0 unless the run times its kernels (or runs a tuner's blocks). */
    long kernelNanos() {
        return times.nanos();
    }

    void makeCurrent() {
        ctx.makeCurrent();
    }

    GpuRuntime runtime() {
        return rt;
    }

    long uploadNanos() {
        return rt.columns().uploadNanos() - uploadNanosBefore;
    }

    /** Runs pipeline {@code id}'s kernel and leaves what its sink made in {@code state}, on the device. */
    void run(int id, QueryState state) {
        CudaKernel kernel = plan.kernels().get(id);
        if (kernel == null) {
            throw new IllegalStateException("pipeline " + id + " has no loaded kernel");
        }
        ctx.makeCurrent();
        CudaKernelSource k = plan.placement().kernels().get(id);
        // a table's rows, or the slots of a device join table whose marked or unmarked rows the pipeline scans
        Table table = k.pipeline().source() instanceof Source.TableScan ts ? ts.table() : null;
        // a relation's rows as columns: bound once, before any attempt (a run again keeps them)
        RelationColumns relation = RelationColumns.reads(k) ? RelationColumns.bind(this, state, k) : null;
        long n = table != null ? table.rowCount()
                : relation != null ? relation.rows()
                : k.pipeline().source() instanceof Source.RelationScan rs ? groups(rs.relationId()).slots()
                : table(((Source.JoinTableScan) k.pipeline().source()).joinId()).entries();
        state.pipelineStarted(n); // which pipeline runs; a kernel's rows are not counted as it goes
        long retrySlots = 0;
        long retryRows = 0;
        for (int attempt = 0; ; attempt++) {
            int mark = taken.size();
            long started = System.nanoTime();
            Launch l;
            if (blocks != null && blocks.pipeline() == id) {
                l = new Launch(k, table, relation, n, retrySlots, retryRows);
                runBlocks(k, l, n);
            } else {
                // untimed, under graphs: the pipeline's clears, fills and launches recorded, then issued together
                steps = !times.on() && blocks == null && PipelineGraphs.enabled() ? new DeviceSteps() : null;
                try {
                    l = new Launch(k, table, relation, n, retrySlots, retryRows);
                    for (int pass = 0; pass < k.passes(); pass++) {
                        if (pass == 1 && l.tileRows != null) {
                            // the tiles' counts into their offsets (exclusive prefix sums) and the total
                            if (steps != null) {
                                steps.scanCounts(rt, l.tileRows, l.tiles);
                            } else {
                                times.later(() -> rt.scanCounts(l.tileRows, l.tiles));
                            }
                        }
                        launch(kernel, k, l.bindings.args(k.params(), pass, 0, n), n);
                    }
                    if (steps != null) {
                        plan.graphs().issue(id, steps, ctx);
                    }
                } finally {
                    steps = null;
                }
            }
            if (l.deferErrors) {
                uncheckedPipelines.add(id);
                DeviceOutputs.leave(this, state, k, l);
                return;
            }
            awaitDevice();
            int err = (int) l.error.readLong(0);
            long made = (err & ERR_TABLE_FULL) != 0 && l.buildCursor != null ? l.buildCursor.readLong(0) : 0;
            if (made > l.buildRows) {
                // an expanded join table got more rows than places: again with as many places as the counter reached
                giveBackSince(mark);
                if (attempt + 1 >= TableGrowth.MAX_RUNS) {
                    throw new GpuFallbacks.Fallback("pipeline " + id + ": its join table ran out of rows "
                            + TableGrowth.MAX_RUNS + " times");
                }
                state.step("pipeline " + id + " on cuda: its join table of " + l.buildRows + " rows got " + made
                        + ", again with that many", System.nanoTime() - started);
                retryRows = made;
                retrySlots = l.tableSlots > 0
                        ? Math.max(l.tableSlots, ((SinkLayout.Build) k.sink()).table().hashedSlots(made)) : 0;
                continue;
            }
            if ((err & ERR_TABLE_FULL) != 0 && l.regrows && l.tableSlots > 0) {
                // the table filled up: again from cleared buffers into a larger one, or the query to the JVM
                TableGrowth.Next next = TableGrowth.afterFull(attempt, l.tableSlots, l.estimatedKeys, l.enoughSlots,
                        l.tableName);
                giveBackSince(mark);
                if (next.again()) {
                    // shown by --timing and EXPLAIN ANALYZE beside the pipelines' times
                    state.step("pipeline " + id + " on cuda: " + l.tableName + " of " + l.tableSlots
                            + " slots filled up, again with " + next.slots(), System.nanoTime() - started);
                    retrySlots = next.slots();
                    continue;
                }
                throw new GpuFallbacks.Fallback("pipeline " + id + ": " + next.reason()
                        + (k.sink() instanceof SinkLayout.Build ? " (or met a payload value outside its statistics' range)" : ""));
            }
            checkErrors(err, id);
            if (k.sink() instanceof SinkLayout.Build sb && sb.table().sorted()) {
                tables.put(sb.table().joinId(), SortedJoinKeys.sort(rt, table(sb.table().joinId()),
                        l.buildCursor.readLong(0), this::take));
            }
            DeviceOutputs.leave(this, state, k, l);
            return;
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
        if (k.passes() != 1 || !(k.sink() instanceof SinkLayout.Aggregate)
                || !(k.pipeline().source() instanceof Source.TableScan)) {
            throw new IllegalStateException("pipeline " + k.pipeline().id() + " cannot run in blocks: only an "
                    + "aggregation of one pass over a table can");
        }
        toClear.issue(steps, rt);
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
            long nanos = times.now(go);
            if (len == whole) {
                blocks.done(b, len, nanos);
            }
            first += len;
        }
    }

    /**
     * Reads the error word the kernels since the last read share, and throws what it reports; call before the host
     * reads anything on the device (a synchronous copy: it waits for the kernels).
     */
    void checkDeferredErrors() {
        if (uncheckedPipelines.isEmpty()) {
            return;
        }
        awaitDevice();
        int err = (int) sharedError.readLong(0);
        String which = uncheckedPipelines.size() == 1 ? String.valueOf(uncheckedPipelines.get(0))
                : uncheckedPipelines.toString().replaceAll("[\\[\\]]", "");
        uncheckedPipelines.clear();
        checkErrors(err, which);
    }

    /**
     * Waits until the device has run everything queued so far, by polling: a cancel ends the wait (and the query)
     * once the kernel has stopped; a kernel that does not stop within the grace leaves the GPU marked unusable for
     * this process, its buffers not given back.
     */
    void awaitDevice() {
        toClear.issue(steps, rt);
        if (doneEvent == null) {
            doneEvent = ctx.createEvent();
        }
        doneEvent.record();
        CudaEvent event = doneEvent;
        try {
            waiting.await(event::isDone, cancel);
        } catch (KernelWait.Stuck e) {
            abandoned = true;
            doneEvent = null; // the runtime keeps it, to see when the device is free again
            rt.markUnusable(e.getMessage(), event);
            throw new io.tessera.api.QueryCancelledException();
        }
    }

    /** Gives the pool back the buffers taken since {@code mark} (a run whose results are dropped). */
    private void giveBackSince(int mark) {
        List<DeviceBuffer> since = taken.subList(mark, taken.size());
        marks.values().removeIf(since::contains); // made by the dropped run: no earlier pipeline had marked them
        rt.pool().giveAll(new ArrayList<>(since));
        since.clear();
    }

    private void checkErrors(int err, int pipeline) {
        checkErrors(err, String.valueOf(pipeline));
    }

    private void checkErrors(int err, String pipeline) {
        if ((err & ERR_OVERFLOW) != 0) {
            throw new ArithmeticException("long overflow");
        }
        if ((err & ERR_DIV_ZERO) != 0) {
            throw new ArithmeticException("division by zero"); // the JVM backend's words (lib.Runtime)
        }
        if ((err & ERR_TABLE_FULL) != 0) {
            throw new GpuFallbacks.Fallback(pipelines(pipeline) + " met a key outside its table's range, a payload value outside its statistics' range, or filled its hash table");
        }
        if ((err & ERR_SENTINEL) != 0) {
            throw new GpuFallbacks.Fallback(pipelines(pipeline) + " met a key equal to its hash table's empty marker");
        }
    }

    private static String pipelines(String ids) {
        return ids.contains(",") ? "one of pipelines " + ids : "pipeline " + ids;
    }

    /**
     * Launches a kernel over {@code n} rows with its genome's grid, its time on the device read later; while the
     * pipeline's steps are recorded, records the launch instead.
     */
    private void launch(CudaKernel kernel, CudaKernelSource k, KernelArgs args, long n) {
        io.tessera.api.QueryCancel.check(cancel);
        toClear.issue(steps, rt);
        KernelStep step = launcher(kernel, k, args, n, residentBlocks(kernel, k));
        if (steps != null) {
            steps.kernel(kernel, step.grid(), step.block(), step.shared(), args);
        } else {
            times.later(step);
        }
    }

    /** One launch of a kernel on the default stream. */
    private record KernelStep(CudaKernel kernel, int grid, int block, int shared, KernelArgs args) implements Runnable {
        @Override
        public void run() {
            kernel.launch(grid, block, shared, null, args);
        }
    }

    /**
     * What launches a kernel over {@code n} rows with its genome's grid: one block per tile, or its {@code resident}
     * blocks (from {@link #residentBlocks}) on every SM (a persistent grid). Sets the kernel's carve-out first.
     */
    private KernelStep launcher(CudaKernel kernel, CudaKernelSource k, KernelArgs args, long n, int resident) {
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
            throw new GpuFallbacks.Fallback("a grid of " + blocks + " blocks");
        }
        int gridBlocks = (int) blocks;
        return new KernelStep(kernel, gridBlocks, tpb, shared, args);
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
                throw new GpuFallbacks.Fallback("pipeline " + k.pipeline().id() + " needs " + shared / 1024
                        + " KB of shared memory per block, more than this GPU gives: " + e.getMessage());
            }
        }
        int resident = Math.max(1, kernel.maxActiveBlocksPerSM(k.threadsPerBlock(), shared));
        String grid = k.genome().get(CudaVariantSpace.GRID);
        return grid.equals("tile") ? resident : Math.min(Integer.parseInt(grid.substring(1)), resident);
    }

    GpuPlan plan() {
        return plan;
    }

    DeviceBuffer take(long bytes) {
        DeviceBuffer b = rt.pool().take(Math.max(8, bytes));
        taken.add(b);
        return b;
    }

    /** A buffer of at least {@code bytes} bytes, cleared before the next launch ({@link PendingClears}). */
    private DeviceBuffer zeroed(long bytes) {
        DeviceBuffer b = take(bytes);
        toClear.add(b);
        return b;
    }

    /** The arguments of one launch and the buffers its sink writes. */
    final class Launch {
        final KernelBindings bindings = new KernelBindings();
        /** Whether the sink's table runs again larger when it fills up (else a full table ends the GPU run). */
        final boolean regrows;
        /** The slots of the table the sink fills (a group table's or a hashed join table's), else 0. */
        long tableSlots;
        /** The keys the planner expects in that table, and the slots that hold every input row's key. */
        long estimatedKeys;
        long enoughSlots;
        String tableName;
        /**
         * An expanded or sorted BUILD's ({@link SinkLayout.Build#expanded}) counter of the rows it made, and the
         * places its table has; else null and 0.
         */
        DeviceBuffer buildCursor;
        long buildRows;
        /** Whether the kernel writes the shared error word, read later ({@link #checkDeferredErrors}). */
        final boolean deferErrors;
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
        /** The NULL flags of the output columns that can be NULL, by column. */
        final Map<Integer, DeviceBuffer> outNulls = new HashMap<>();
        long groupSlots;
        String mode;

        /**
         * {@code retrySlots}: 0 on a pipeline's first run (its table sized from the estimates, at most
         * {@link #FORCED_TABLE_SLOTS} when that is set), else the slots of the larger table to run again into;
         * {@code retryRows} likewise the places of an expanded BUILD's table (0: from the input and the estimate).
         * {@code table} or {@code relation} (else null) is the source whose columns the kernel reads.
         */
        Launch(CudaKernelSource k, Table table, RelationColumns relation, long n, long retrySlots, long retryRows) {
            SinkLayout sink = k.sink();
            boolean sharedGroups = sink instanceof SinkLayout.Aggregate a0 && a0.mode().equals("shared");
            boolean hashedBuild = sink instanceof SinkLayout.Build b0 && !b0.table().perfect() && !b0.table().sorted();
            // the groups of an aggregation: a kernel over the group table's slots, most of them empty where it is dense
            GroupTable scanned = relation == null && k.pipeline().source() instanceof Source.RelationScan rs
                    ? groups(rs.relationId()) : null;
            // a linear join table sized from its input rows is never more than half full: its errors are read later;
            // one built from groups is sized from their estimate, and runs again larger when it fills up
            // a sorted table's rows always take places from a counter, as an expanded build's
            boolean expandedBuild = sink instanceof SinkLayout.Build b1 && (b1.expanded() || b1.table().sorted());
            // an expanded build's table may lack places for its rows: its errors are read at once, as a regrowing one's
            regrows = sharedGroups || expandedBuild || hashedBuild && (((SinkLayout.Build) sink).table().kind().cuckoo()
                    || FORCED_TABLE_SLOTS > 0 || scanned != null);
            deferErrors = !regrows && (blocks == null || blocks.pipeline() != k.pipeline().id());
            long slots = 1;
            if (sink instanceof SinkLayout.Aggregate a) {
                mode = a.mode();
                if (sharedGroups) {
                    estimatedKeys = estimatedGroups(k, Long.MAX_VALUE);
                    enoughSlots = TableGrowth.powerOfTwo(2 * Math.max(1, n));
                    tableName = "its group table";
                    long want = retrySlots > 0 ? retrySlots
                            : forced(Math.max(1024, 2 * Math.min(n, estimatedGroups(k, FIRST_SHARED_SLOTS / 2))));
                    slots = TableGrowth.powerOfTwo(want);
                    tableSlots = slots;
                } else {
                    slots = a.denseSlots();
                }
                groupSlots = slots;
            }
            DeviceTable building = null;
            if (sink instanceof SinkLayout.Build b) {
                // the rows the table holds: its input's, or an expanded build's places
                long rows = n;
                if (expandedBuild) {
                    buildRows = retryRows > 0 ? retryRows : TableGrowth.firstRows(n,
                            ((io.tessera.plan.Sink.Build) k.pipeline().sink()).estimatedRows(), FORCED_TABLE_SLOTS);
                    rows = buildRows;
                }
                if (hashedBuild) {
                    estimatedKeys = scanned != null ? Math.min(rows, estimatedGroups(k)) : rows;
                    enoughSlots = b.table().hashedSlots(rows);
                    tableName = "its join table";
                    tableSlots = retrySlots > 0 ? retrySlots
                            : regrows ? forced(b.table().hashedSlots(estimatedKeys)) : enoughSlots;
                }
                building = newTable(b.table(), tableSlots, rows);
                tables.put(b.table().joinId(), building);
            }
            for (KernelParam p : k.params()) {
                switch (p.kind()) {
                    case ROWS, PASS -> {
                        // given per launch
                    }
                    case COLUMN -> {
                        if (relation != null) {
                            bindings.column(p, relation.address(p.index()), relation.width(p.index()));
                        } else {
                            io.tessera.storage.Column column = table.column(p.index());
                            bindings.column(p, rt.columns().hold(column).address(),
                                    CType.stored(column.type()).bytes);
                            heldColumns.add(DeviceColumnCache.Entry.values(column));
                        }
                    }
                    case COLUMN_NULLS -> {
                        if (relation != null) {
                            bindings.column(p, relation.nullsAddress(p.index()), 1);
                        } else {
                            DeviceColumnCache.Entry nulls = DeviceColumnCache.Entry.nulls(table.column(p.index()));
                            bindings.column(p, rt.columns().hold(nulls).address(), 1);
                            heldColumns.add(nulls);
                        }
                    }
                    case PROBE_KEYS -> bindings.ptr(p, table(p.index()).keys().address());
                    case PROBE_PAYLOAD -> bindings.ptr(p, table(p.index()).payload().get(p.sub()).address());
                    case PROBE_MIN -> bindings.i64(p, table(p.index()).layout().min());
                    case PROBE_SLOTS -> bindings.i64(p, table(p.index()).slots());
                    case PROBE_LOG2 -> bindings.i32(p, table(p.index()).log2());
                    case PROBE_MARKS, SCAN_MARKS -> bindings.ptr(p, marks(p.index()).address());
                    case SCAN_KEYS -> bindings.ptr(p, table(p.index()).keys().address());
                    case SCAN_PAYLOAD -> bindings.ptr(p, table(p.index()).payload().get(p.sub()).address());
                    case BUILD_KEYS -> bindings.ptr(p, building.keys().address());
                    case BUILD_PAYLOAD -> bindings.ptr(p, building.payload().get(p.sub()).address());
                    case BUILD_MIN -> bindings.i64(p, building.layout().min());
                    case BUILD_SLOTS -> bindings.i64(p, building.slots());
                    case BUILD_LOG2 -> bindings.i32(p, building.log2());
                    case BUILD_HEADS -> bindings.ptr(p, building.heads().address());
                    case BUILD_NEXT -> bindings.ptr(p, building.next().address());
                    case BUILD_CURSOR -> bindings.ptr(p, (buildCursor = zeroed(8)).address());
                    case BUILD_ROWS -> bindings.i64(p, building.rows());
                    case PROBE_HEADS -> bindings.ptr(p, table(p.index()).heads().address());
                    case PROBE_NEXT, SCAN_NEXT -> bindings.ptr(p, table(p.index()).next().address());
                    case PROBE_ROWS -> bindings.i64(p, table(p.index()).rows());
                    case PROBE_ORDER -> bindings.ptr(p, table(p.index()).sorted().order().address());
                    case PROBE_INDEX -> bindings.ptr(p, table(p.index()).sorted().index().address());
                    case PROBE_LEVELS -> bindings.i32(p, table(p.index()).sorted().levels());
                    case CODE_MASK, CODE_MAP -> {
                        if (!bindings.hasMask(p)) {
                            // kept beside the columns: the same dictionary's mask or map serves the next run too
                            DeviceColumnCache.Entry words = DeviceColumnCache.Entry.words(p.words().words());
                            bindings.mask(p, rt.columns().hold(words).address());
                            heldColumns.add(words);
                        }
                    }
                    case SCAN_GROUP_ROWS -> bindings.ptr(p, scanned.rows().address());
                    case SCAN_GROUP_STATE -> bindings.ptr(p, scanned.state().address());
                    case SCAN_GROUP_KEYS -> bindings.ptr(p, scanned.keys().address());
                    case SCAN_GROUP_VALUE -> bindings.ptr(p, scanned.values().get(p.index()).address());
                    case GROUP_ROWS -> bindings.ptr(p, (rows = zeroed(slots * 8)).address());
                    case AGG_VALUE -> {
                        SinkLayout.Agg agg = ((SinkLayout.Aggregate) sink).aggs().get(p.index());
                        DeviceBuffer v = take(slots * 8);
                        DeviceSteps.fill64(steps, rt, v, agg.identityBits(), slots);
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
                    case OUT_NULLS -> {
                        DeviceBuffer o = take(Math.max(1, n));
                        outNulls.put(p.index(), o);
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
                        if (deferErrors && sharedError == null) {
                            sharedError = zeroed(8);
                        }
                        error = deferErrors ? sharedError : zeroed(8);
                        bindings.ptr(p, error.address());
                    }
                }
            }
            toClear.issue(steps, rt);
        }
    }

    /**
     * Groups to size a SHARED table for: the planner's estimate, at most the product of the keys' ranges where they
     * are known, and at most {@code cap}: a first table is capped at {@link #FIRST_SHARED_SLOTS} because estimates
     * over join results run high (a table of 2^28 slots took seconds to clear and read back), and a table that fills
     * up runs again larger ({@link TableGrowth}).
     */
    private static long estimatedGroups(CudaKernelSource k, long cap) {
        if (k.pipeline().sink() instanceof io.tessera.plan.Sink.GroupAggregate ga) {
            long groups = (long) Math.min(Long.MAX_VALUE / 4, Math.max(1, ga.estimatedGroups()));
            groups = Math.min(groups, CudaVariantSpace.denseSlots(ga));
            return Math.min(groups, cap);
        }
        return 1;
    }

    /**
     * Groups that a scan of an aggregation's groups may put into a join table: twice the planner's estimate of the
     * rows it scans (at least 1,024), as a first table; one that fills up runs again larger ({@link TableGrowth}).
     */
    private static long estimatedGroups(CudaKernelSource k) {
        double rows = ((Source.RelationScan) k.pipeline().source()).estimatedRows();
        return Math.max(1024, 2 * (long) Math.min(Long.MAX_VALUE / 8, Math.ceil(rows)));
    }

    /** A first run's table of {@code slots}, or fewer under {@link #TABLE_SLOTS_PROPERTY}. */
    private static long forced(long slots) {
        return FORCED_TABLE_SLOTS > 0 ? Math.min(slots, TableGrowth.powerOfTwo(FORCED_TABLE_SLOTS)) : slots;
    }

    /** Keeps the group table {@code l} filled as relation {@code relationId}, for the kernels that scan its groups. */
    void keepGroups(int relationId, Launch l) {
        groupTables.put(relationId, new GroupTable(l.groupSlots, l.rows, l.groupState, l.groupKeys, Map.copyOf(l.values)));
    }

    /** Keeps relation {@code relationId} as a kernel left it on the device, for the kernels that read its rows. */
    void keepRelation(int relationId, io.tessera.backend.Intermediate made) {
        leftRelations.put(relationId, made);
    }

    /** Relation {@code relationId} as a kernel of this run left it on the device, or null. */
    io.tessera.backend.Intermediate leftRelation(int relationId) {
        return leftRelations.get(relationId);
    }

    private GroupTable groups(int relationId) {
        GroupTable g = groupTables.get(relationId);
        if (g == null) {
            throw new IllegalStateException("r" + relationId + " has no device group table");
        }
        return g;
    }

    DeviceTable table(int joinId) {
        DeviceTable t = tables.get(joinId);
        if (t == null) {
            throw new IllegalStateException("join j" + joinId + " has no device table");
        }
        return t;
    }

    /**
     * The marks of join {@code joinId}'s device table, one word per slot: zeroed when the first pipeline that marks
     * or scans them binds them, then kept until the query ends (a mark is only ever set, so a pipeline that runs
     * again leaves the same marks).
     */
    private DeviceBuffer marks(int joinId) {
        DeviceBuffer m = marks.get(joinId);
        if (m == null) {
            m = zeroed(table(joinId).entries() * 4);
            marks.put(joinId, m);
        }
        return m;
    }

    /**
     * The device table of a join: a perfect table's presence bits, or a hashed table's keys (every slot the empty
     * marker) in {@code hashedSlots} slots (a power of two); and one payload array per payload column, indexed by
     * slot, or for a chained table by row, with the chains' heads (-1, none) and each of the {@code inputRows} rows'
     * next (-2, not taken); a sorted table's key word and payload for each of its {@code inputRows} places.
     */
    private DeviceTable newTable(JoinLayout layout, long hashedSlots, long inputRows) {
        long slots;
        int log2 = 0;
        if (layout.perfect()) {
            slots = layout.perfectSlots();
        } else {
            slots = hashedSlots;
            log2 = Long.numberOfTrailingZeros(slots);
        }
        long rows = layout.chained() || layout.sorted() ? Math.max(1, inputRows) : 0;
        DeviceBuffer keys;
        if (layout.sorted()) {
            keys = take(rows * 8); // each place's key word, sorted after the build
        } else if (layout.perfect()) {
            keys = zeroed((slots + 31) / 32 * 4); // presence bits
        } else if (layout.keyType() == CType.INT) {
            keys = take(slots * 4);
            DeviceSteps.fill32(steps, keys, Integer.MIN_VALUE, slots);
        } else {
            keys = take(slots * 8);
            DeviceSteps.fill64(steps, rt, keys, Long.MIN_VALUE, slots);
        }
        DeviceBuffer heads = null;
        DeviceBuffer next = null;
        if (layout.chained() && !layout.sorted()) {
            heads = take(slots * 8);
            DeviceSteps.fill64(steps, rt, heads, -1, slots);
            next = take(rows * 8);
            DeviceSteps.fill64(steps, rt, next, -2, rows);
        }
        List<DeviceBuffer> payload = new ArrayList<>();
        for (int c = 0; c < layout.payloadTypes().size(); c++) {
            payload.add(take((rows > 0 ? rows : slots) * layout.payloadBytes(c)));
        }
        return new DeviceTable(layout, keys, payload, slots, log2, heads, next, rows, null);
    }

    @Override
    public void close() {
        if (abandoned) {
            // a kernel may still write these buffers: they stay out of the pool, and the columns it reads stay
            // held, the GPU unused from now on
            taken.clear();
            heldColumns.clear();
            tables.clear();
            marks.clear();
            groupTables.clear();
            leftRelations.clear();
            return;
        }
        ctx.makeCurrent();
        if (doneEvent != null) {
            doneEvent.close();
            doneEvent = null;
        }
        times.close();
        rt.columns().release(heldColumns);
        heldColumns.clear();
        // newest first: the pool hands out the last given first, so the next run of the query takes the same buffers
        // in the same order (its arguments equal, its pipelines' graphs launched again)
        rt.pool().giveAll(taken.reversed());
        taken.clear();
        tables.clear();
        marks.clear();
        groupTables.clear();
        leftRelations.clear();
    }
}
