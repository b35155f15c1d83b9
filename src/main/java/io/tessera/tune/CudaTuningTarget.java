package io.tessera.tune;

import io.tessera.api.QueryResult;
import io.tessera.backend.KernelTiming;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.exec.CudaBackend;
import io.tessera.backend.cuda.exec.GpuBlocks;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.exec.RunOption;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.VariantSpace;
import io.tessera.variant.VariantSpaces;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A query on the GPU backend for tuning: the tuned pipeline's CUDA genome varies, the rest of the query runs as
 * the engine places it. Measured over whole queries (compile through NVRTC and load, one untimed run, then the
 * fastest of {@link JvmTarget#RUNS} runs); every answer is checked against the JVM backend's. A variant that
 * cannot run the tuned pipeline on the GPU counts as pruned. Plateau descent and the online pool run the tuned
 * pipeline's input in blocks of rows, a kernel launch each, timed on the device (see {@link #blocks}).
 */
public final class CudaTuningTarget implements Target {

    /** The measured runs time their kernels: the objective is the kernel time. */
    private static final RunOption<KernelTiming> TIMED = RunOption.of(KernelTiming.class, KernelTiming.ON);

    /**
     * What a block's kernel may change: its code and launch configuration. Not the sink (agg: the group table's
     * layout; hash: where a group's key lands), nor the join tables the builds made.
     */
    public static final Set<String> BLOCK_SWITCHABLE = Set.of(CudaVariantSpace.TPB, CudaVariantSpace.IPT,
            CudaVariantSpace.GRID, CudaVariantSpace.OCCUPANCY, CudaVariantSpace.PREDICATION, CudaVariantSpace.PROBE_ORDER,
            CudaVariantSpace.PROBE_PREDICATION, CudaVariantSpace.BITMAPS, CudaVariantSpace.GATHER);
    /**
     * A GPU block is this many times the rows the settings give (sized for a JVM worker's morsels). A launch has
     * costs the whole input pays once and a block pays each time (its blocks' start, the last tiles of its
     * blocks), and short blocks favour small tiles. At SSB SF 20 on the H200, the ratio of a block's time to the whole
     * query's, over twelve genomes of q3.3, spread by 26% at 8x and by 9% at 16x. Larger blocks take more runs.
     */
    public static final int BLOCK_SCALE = 16;

    private final TuningDevice device;
    private final String sql;
    private final Database db;
    private final QueryEngine engine;
    /** The runtime of the engine's GPU, which its queries load kernels from: the variants compile into it. */
    private final GpuRuntime rt;
    private final QueryPlan plan;
    private final VariantSpace space;
    private final Map<Integer, Genome> defaults;
    private final AnswerForm answerForm;
    private final List<String> expected;
    /** The query planned and compiled for the JVM once; each variant only changes its kernels. */
    private final QueryEngine.Prepared base;

    public CudaTuningTarget(TuningDevice device, Database db, String sql) {
        this(device, db, sql, d -> new QueryEngine(db, java.lang.Runtime.getRuntime().availableProcessors(), d, null));
    }

    /**
     * The target over engines from {@code engines} (one per device asked for): the GPU's, kept until {@link #close},
     * and the JVM's, closed once it gave the expected answer. Where the target cannot be made, both are closed
     * before the error goes on.
     */
    CudaTuningTarget(TuningDevice device, Database db, String sql,
                     java.util.function.Function<Device, QueryEngine> engines) {
        this.device = device;
        this.sql = sql;
        this.db = db;
        this.engine = engines.apply(Device.GPU);
        try {
            this.rt = gpuRuntime(device, engine);
            this.base = engine.prepare(sql);
            this.plan = base.plan();
            this.space = VariantSpaces.forBackend(device.backend(), device.units());
            this.defaults = Genomes.freeDefaults(space, plan);
            this.answerForm = AnswerForm.of(plan);
            try (QueryEngine jvm = engines.apply(Device.CPU)) {
                this.expected = rows(jvm.execute(sql));
            }
        } catch (RuntimeException | Error e) {
            try {
                engine.close();
            } catch (RuntimeException | Error closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** The runtime of the engine's GPU, opened now; says why where there is no usable GPU. */
    private static GpuRuntime gpuRuntime(TuningDevice device, QueryEngine engine) {
        try {
            return CudaBackend.runtime(engine.devices());
        } catch (RuntimeException | LinkageError e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new IllegalArgumentException("device " + device.name() + ": the GPU cannot be used: " + why, e);
        }
    }

    /** Closes the engine this target measures with, and so the GPU's runtime it opened. */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public TuningDevice device() {
        return device;
    }

    @Override
    public QueryPlan plan() {
        return plan;
    }

    @Override
    public VariantSpace space() {
        return space;
    }

    @Override
    public Map<Integer, Genome> defaults() {
        return defaults;
    }

    /** Kernels compiled before (in the disk cache, or loaded) are compiled and loaded again. */
    @Override
    public void coldStart() {
        rt.restartKernelCache();
    }

    /**
     * {@link #BLOCK_SWITCHABLE} where the tuned pipeline aggregates (its blocks add to one group table); a pipeline
     * that materializes rows places them by tile number and cannot run in blocks.
     */
    @Override
    public Set<String> blockSwitchable() {
        io.tessera.plan.Sink sink = pipeline(focus()).sink();
        boolean aggregates = sink instanceof io.tessera.plan.Sink.Aggregate || sink instanceof io.tessera.plan.Sink.GroupAggregate;
        return aggregates ? BLOCK_SWITCHABLE : Set.of();
    }

    /**
     * {@link #BLOCK_SWITCHABLE} for every pipeline: where a pipeline that materializes rows cannot run in blocks, the
     * in-query strategies run the whole query under each genome, with the same choices an aggregation's blocks have.
     */
    @Override
    public Set<String> runSwitchable() {
        return BLOCK_SWITCHABLE;
    }

    /**
     * Runs the query with the tuned pipeline's input in blocks of about {@link #BLOCK_SCALE} times {@code blockRows}
     * rows (at most a quarter of the input; whole waves of each block's kernel), each launched with the kernel of
     * the genome the tuner chose and timed with events. While the tuner compares its finalists, a query's input is
     * one block: at SSB SF 20 on the H200, q3.4's final rounds on blocks of 16M rows chose a genome 1.10x slower in
     * whole queries than another finalist. Every block's time is scaled to a full block's rows. The other pipelines
     * run with the start genomes. A run's cost is its wall time, kernels compiled for it included; every run's answer
     * is checked against the JVM backend's.
     */
    @Override
    public InQueryTuning.BlockSource blocks(TuningSpace tuning, long blockRows) {
        requireBlockKnobs(tuning);
        int focus = tuning.focus();
        Map<Integer, Genome> start = tuning.complete(tuning.start());
        QueryEngine.Prepared prepared = engine.withCudaGenomes(base, start);
        if (!(prepared.gpu() instanceof GpuPlan g) || !g.placement().onGpu(focus)) {
            throw new IllegalArgumentException("pipeline " + focus + " does not run on the GPU under its start genome"
                    + (prepared.notice() == null ? "" : ": " + prepared.notice()));
        }
        BlockKernels kernels = new BlockKernels(rt, db, plan, tuning);
        long rows = Math.multiplyExact(blockRows, BLOCK_SCALE);
        return tuner -> {
            long t0 = System.nanoTime();
            Map<Genome, Map<Integer, Genome>> byGenome = new java.util.HashMap<>();
            GpuBlocks control = new GpuBlocks() {
                @Override
                public int pipeline() {
                    return focus;
                }

                /** Rows of a full block of this query: the unit every block's time is scaled to. */
                private long full = 1;
                /** Whether this run is one block of the whole input, as the tuner's final rounds ask. */
                private boolean whole;

                @Override
                public long blockRows(long n) {
                    full = Math.min(rows, Math.max(1, n / 4));
                    whole = tuner.comparingFinalists();
                    return whole ? n : full;
                }

                @Override
                public Kernel next() {
                    Map<Integer, Genome> a = tuner.next();
                    Kernel k = kernels.get(a, tuner.upcoming());
                    byGenome.put(k.genome(), a);
                    return k;
                }

                @Override
                public void done(Kernel k, long n, long nanos) {
                    if (tuner.comparingFinalists() && !whole) {
                        return; // a block of a run begun before the final rounds: they compare whole inputs only
                    }
                    // blocks are whole waves of their kernel, a whole input its own rows: scaled to a full block
                    tuner.observe(byGenome.get(k.genome()), nanos / 1e9 * full / n);
                }
            };
            QueryResult r = engine.run(prepared, RunOption.of(GpuBlocks.class, control));
            if (!r.execution().device().startsWith("gpu")) {
                throw new IllegalStateException("a run of blocks fell back to the JVM: " + r.execution().notice());
            }
            if (!rows(r).equals(expected)) {
                throw new IllegalStateException("the block genomes of pipeline " + focus + " gave a different answer");
            }
            return (System.nanoTime() - t0) / 1e9;
        };
    }

    /**
     * The answer's rows as text in {@link AnswerForm}'s compared form, floating-point values to 9 significant
     * digits (their sums vary in order).
     */
    private List<String> rows(QueryResult r) {
        return answerForm.compared(r.rows(), row -> {
            StringBuilder sb = new StringBuilder();
            for (Object v : row) {
                sb.append(v instanceof Double x ? String.format(java.util.Locale.ROOT, "%.9g", x) : String.valueOf(v))
                        .append('|');
            }
            return sb.toString();
        });
    }

    /**
     * The GPU time of the query: the sum of its kernels' times (CUDA events), the fastest of {@link JvmTarget#RUNS}
     * runs after an untimed one. What the CUDA variants change is the kernels; uploads are cached, and reading back
     * and finishing on the JVM cost the same for every variant but agg's (a hash table reads back fewer slots than
     * a large dense array), and would bury differences of a tenth of a millisecond in a few milliseconds of noise.
     */
    @Override
    public Objective objective() {
        int focus = focus();
        return new Objective() {
            @Override
            public Measurement measure(Map<Integer, Genome> genomes, double limitSeconds) {
                long t0 = System.nanoTime();
                QueryEngine.Prepared p = engine.withCudaGenomes(base, genomes);
                if (!(p.gpu() instanceof GpuPlan g) || !g.placement().onGpu(focus)) {
                    return new Measurement(limitSeconds, (System.nanoTime() - t0) / 1e9, true);
                }
                QueryResult first = engine.run(p);
                if (!first.execution().device().startsWith("gpu")) {
                    return new Measurement(limitSeconds, (System.nanoTime() - t0) / 1e9, true);
                }
                if (!rows(first).equals(expected)) {
                    throw new IllegalStateException("CUDA variant " + genomes.get(focus) + " gave a different answer");
                }
                double best = Double.POSITIVE_INFINITY;
                for (int r = 0; r < JvmTarget.RUNS; r++) {
                    double kernels = engine.run(p, TIMED).execution().kernelNanos() / 1e9;
                    best = Math.min(best, kernels);
                    if (kernels > limitSeconds) {
                        return new Measurement(kernels, (System.nanoTime() - t0) / 1e9, true);
                    }
                }
                return new Measurement(best, (System.nanoTime() - t0) / 1e9, false);
            }

            /** Compiles every variant's kernels at once, in parallel, into the disk cache the runs then load from. */
            @Override
            public double prepare(List<Map<Integer, Genome>> variants) {
                long t0 = System.nanoTime();
                Map<String, String[]> sources = new java.util.LinkedHashMap<>();
                for (Map<Integer, Genome> v : variants) {
                    GpuPlacement placed = GpuPlacement.place(plan, v,
                            key -> GpuPlan.dictionary(db, key));
                    for (CudaKernelSource k : placed.kernels().values()) {
                        sources.putIfAbsent(k.source(), new String[] {k.source(), k.kernelName(), k.fileName()});
                    }
                }
                rt.compile(new ArrayList<>(sources.values()));
                return (System.nanoTime() - t0) / 1e9;
            }
        };
    }
}
