package io.tessera.tune;

import io.tessera.backend.jvm.BlockControl;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.host.ResultRelation;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.storage.TypeKind;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;
import io.tessera.variant.VariantSpace;
import io.tessera.variant.VariantSpaces;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.DoubleConsumer;
import java.util.function.Supplier;

/**
 * A query on the JVM backend for tuning, planned, compiled and run by the engine ({@link QueryEngine#plan},
 * {@link QueryEngine#prepareJvm(QueryPlan, Map, java.util.function.BiFunction)}, {@link JvmExecutor#run}). Its
 * objective compiles each variant with a cache of its own (keyed by
 * code, so variants that differ only in workers and morsel share a class and its JIT warm-up, and small, so that
 * classes no longer used can be unloaded), runs a variant while its code is new and still getting faster (the
 * JIT's warm-up, whose last two runs, the last no longer getting faster, count as timed runs), then up to
 * {@link #RUNS} runs in all, and takes the fastest run ({@link TimedRuns}). A run stops at the limit; a second run
 * over it, with none under it, prunes the variant (one may be noise). Every variant's answer is checked against the
 * default genomes' answer (row count and a checksum of its non-floating-point values).
 */
public final class JvmTarget implements Target {

    /** Timed runs per measurement. */
    public static final int RUNS = 3;
    /** No warm-up run lasts longer (a variant that slow is cut, and counts as pruned). */
    static final double WARM_UP_LIMIT_SECONDS = 60;
    /**
     * When new code is warm ({@link #warmUp}): at most {@code maxRuns} runs, ending at one during which the JIT was
     * quiet, its compiling finished meanwhile under {@code quietMs} milliseconds and under a tenth of the run (with
     * {@code quietMs} 0: no compiling at all).
     */
    record WarmUpRule(int maxRuns, long quietMs) {
        boolean quiet(long jitMs, double runSeconds) {
            return jitMs == 0 || (jitMs < quietMs && jitMs < 0.1 * runSeconds * 1e3);
        }

        /**
         * Whether a run of {@code seconds}, after one of {@code previousSeconds} (infinite for the first), ran warm
         * code: it is no longer 10% faster than the one before, and the JIT was quiet while it ran.
         */
        boolean warm(double previousSeconds, double seconds, long jitMs) {
            return seconds >= 0.9 * previousSeconds && quiet(jitMs, seconds);
        }
    }

    /** New code of a whole query. */
    static final WarmUpRule QUERY_WARM_UP = new WarmUpRule(6, 3);
    /** New block code: blocks are short, so more runs pass while the JIT works. */
    static final WarmUpRule BLOCK_WARM_UP = new WarmUpRule(20, 0);
    /** Compiled classes an objective keeps. */
    static final int CACHE = 48;

    private final TuningDevice device;
    /** The engine that plans, compiles and runs the query: JVM only, no profile (every genome is given). */
    private final QueryEngine engine;
    private final Database db;
    private final QueryPlan plan;
    private final VariantSpace space;
    private final Map<Integer, Genome> defaults;
    private final AnswerForm answerForm;
    private Long expectedChecksum;
    private int expectedRows = -1;

    public JvmTarget(TuningDevice device, Database db, String sql) {
        this.device = device;
        this.engine = new QueryEngine(db, device.units(), Device.CPU, null);
        this.db = db;
        this.plan = engine.plan(sql);
        this.space = VariantSpaces.forBackend(device.backend(), device.units());
        this.defaults = Genomes.freeDefaults(space, plan);
        this.answerForm = AnswerForm.of(plan);
    }

    /** Closes the engine this target runs its query with (it holds the database's devices). */
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

    @Override
    public Set<String> blockSwitchable() {
        return JvmExecutor.BLOCK_SWITCHABLE;
    }

    @Override
    public Map<String, Set<String>> blockFixedValues() {
        return JvmExecutor.BLOCK_FIXED_VALUES;
    }

    @Override
    public Objective objective() {
        return new JvmObjective();
    }

    /**
     * Three: the JIT lays out each compile of a genome a little differently, and on the 2-core VM six compiles of
     * one genome ran 1.04 to 1.10x apart (SSB SF 1), as far apart as the ratios the tuning bench reports. With three,
     * a ratio no longer rests on one compile's layout, although the optimum measured against itself did not come
     * out steadier in two bench runs on that VM (docs/PERFORMANCE.md).
     */
    @Override
    public int remeasureCompiles() {
        return 3;
    }

    /** A run's options on this device, with a deadline {@code limitSeconds} from now (none when infinite). */
    private JvmExecutor.Options options(BlockControl blocks, double limitSeconds) {
        long deadline = 0;
        if (Double.isFinite(limitSeconds)) {
            deadline = System.nanoTime() + Math.max(1, (long) (limitSeconds * 1e9));
            if (deadline == 0) {
                deadline = 1;
            }
        }
        return new JvmExecutor.Options(device.pool(), blocks, deadline);
    }

    /** Checks a run's answer against the first answer seen (the default genomes' unless measured otherwise). */
    private synchronized void check(ResultRelation rel, Map<Integer, Genome> genomes) {
        long sum = checksum(rel);
        if (expectedChecksum == null) {
            expectedChecksum = sum;
            expectedRows = rel.rowCount();
            return;
        }
        if (rel.rowCount() != expectedRows || sum != expectedChecksum) {
            throw new IllegalStateException("variant " + genomes + " gave a different answer (" + rel.rowCount()
                    + " rows, expected " + expectedRows + ")");
        }
    }

    /**
     * An order-independent checksum of the answer's rows in {@link AnswerForm}'s compared form, leaving out DOUBLE
     * columns (their sums vary in order).
     */
    private long checksum(ResultRelation rel) {
        List<ColumnInfo> cols = plan.resultColumns();
        List<Object[]> rows = new ArrayList<>(rel.rowCount());
        for (int r = 0; r < rel.rowCount(); r++) {
            Object[] row = new Object[cols.size()];
            for (int c = 0; c < cols.size(); c++) {
                row[c] = cols.get(c).type().kind() == TypeKind.DOUBLE ? null : rel.value(c, r);
            }
            rows.add(row);
        }
        long sum = 0;
        for (String row : answerForm.comparedInOrder(rows, java.util.Arrays::toString)) {
            sum += (row.hashCode() * 1_000_003L + row.length()) * 0x9E3779B97F4A7C15L;
        }
        return sum;
    }

    /**
     * The first answer, with the default genomes: every later answer must equal it. Its classes are compiled apart
     * from any objective's: in an objective's cache they would pass for warm code after this one run, and the
     * defaults' first measurement would skip its warm-up (38.9 to 42.2 ms against 27 to 29 warm, SSB q4.2 at SF 1
     * on the 2-core VM): the start of every search in a new process.
     */
    private void reference() {
        if (expectedChecksum == null) {
            Map<Integer, Genome> completed = complete(defaults);
            check(runJvm(new Compiler().compile(completed).query, options(null, Double.POSITIVE_INFINITY)),
                    completed);
        }
    }

    Map<Integer, Genome> complete(Map<Integer, Genome> a) {
        Map<Integer, Genome> out = new TreeMap<>();
        for (Pipeline p : plan.pipelines()) {
            out.put(p.id(), space.complete(plan, p, a.get(p.id()), a));
        }
        return out;
    }

    /** A compiled variant and whether any of its classes was compiled for it. */
    private record Compiled(QueryEngine.Prepared query, boolean fresh) {
    }

    /**
     * Runs a query prepared for the JVM with {@code options} (its workers' pool, pipelines run in blocks, a
     * deadline) and returns the result relation unread, for measurements that must not pay for reading it out.
     */
    private ResultRelation runJvm(QueryEngine.Prepared q, JvmExecutor.Options options) {
        return JvmExecutor.run(JvmExecutor.compiled(q.jvm()), db, options);
    }

    /** Compiles variants through the engine, with a small cache of classes keyed by code. */
    private final class Compiler {
        private final Map<String, Class<? extends PipelineCode>> cache = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Class<? extends PipelineCode>> e) {
                return size() > CACHE;
            }
        };

        Compiled compile(Map<Integer, Genome> genomes) {
            boolean[] fresh = {false};
            QueryEngine.Prepared q = engine.prepareJvm(plan, genomes, (className, source) -> {
                String key = JavaCompiler.codeKey(source);
                Class<? extends PipelineCode> c = cache.get(key);
                if (c == null) {
                    c = JavaCompiler.compileUncached(className, source);
                    cache.put(key, c);
                    fresh[0] = true;
                }
                return c;
            });
            return new Compiled(q, fresh[0]);
        }
    }

    /**
     * The same classes as {@code q}, each pipeline's workers lowered to leave one of the device's cores free (at
     * least one worker), or {@code q} itself where nothing changes. New code's first run waits for the JIT: with
     * every core a worker, the JIT's compiler threads take turns with them. On the 2-core VM the first runs of
     * twelve new classes of SSB q3.2 took 101 ms on one worker against 138 ms on two, on average (a diagnostic
     * harness). Workers do not change the code: the classes are the same, and so is the answer.
     */
    QueryEngine.Prepared leavingACore(QueryEngine.Prepared q) {
        int most = Math.max(1, device.units() - 1);
        Map<Integer, Genome> lowered = new TreeMap<>();
        boolean changed = false;
        for (EmittedPipeline e : JvmExecutor.compiled(q.jvm()).pipelines()) {
            Genome g = e.genome();
            if (g.has(JvmDimensions.WORKERS) && g.getInt(JvmDimensions.WORKERS) > most) {
                g = g.with(JvmDimensions.WORKERS, Integer.toString(most));
                changed = true;
            }
            lowered.put(e.pipeline().id(), g);
        }
        if (!changed) {
            return q;
        }
        List<EmittedPipeline> before = JvmExecutor.compiled(q.jvm()).pipelines();
        int[] next = {0};
        try {
            // the engine emits the pipelines in plan order; each keeps its class while its code is the same
            return engine.prepareJvm(q.plan(), lowered, (className, source) -> {
                int i = next[0]++;
                if (!JavaCompiler.codeKey(source).equals(JavaCompiler.codeKey(before.get(i).source()))) {
                    throw new CodeChanged();
                }
                return JvmExecutor.compiled(q.jvm()).classes().get(i);
            });
        } catch (CodeChanged e) {
            return q; // the workers changed the code after all: the first run runs as the others
        }
    }

    /** The code of a pipeline changed with its workers. */
    private static final class CodeChanged extends RuntimeException {
        CodeChanged() {
            super(null, null, false, false);
        }
    }

    /**
     * Runs new code until the JIT is done with it: until a run is no longer 10% faster than the one before and the
     * JIT was quiet while it ran (at least two runs, at most the rule's). The JIT compiles in the background, so
     * a run can look as fast as the one before while the compiled code it waits for is still in the queue (the Vector
     * API's code runs many times slower until C2 has compiled it). Its first answer is checked. Quiet is not idle:
     * the process keeps compiling small methods of its own (the tuner's, Janino's) during most runs, 1 to 3 ms of
     * it, so waiting for no compiling at all ran most new code all six runs, although its pipeline had been
     * compiled during the first (SSB Q3.3 at SF 1, 2-core VM). Block code still waits for no compiling at all:
     * a block is timed against the others of its configuration within 1.9% (plateau descent's v_max), and in two
     * full runs of the tuning bench with the quieter rule for blocks too, plateau descent chose genomes 1.29 to
     * 1.49x slower than the optimum on three queries where it had been within 1.15x.
     * With {@code blocks}, the code warmed is that of the blocks' genomes. Returns the last two runs' seconds when
     * the last was warm by this rule (the one before was at most a ninth slower: warm code too, or nearly), null when
     * the runs ran out first.
     */
    private double[] warmUp(QueryEngine.Prepared q, Map<Integer, Genome> genomes, BlockControl blocks,
                            WarmUpRule rule) {
        return warmUp(q, q, genomes, blocks, rule);
    }

    /** {@link #warmUp}, its first run with {@code first} (the same classes, perhaps fewer workers). */
    private double[] warmUp(QueryEngine.Prepared first, QueryEngine.Prepared q, Map<Integer, Genome> genomes,
                            BlockControl blocks, WarmUpRule rule) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean watched = jit != null && jit.isCompilationTimeMonitoringSupported();
        double previous = Double.POSITIVE_INFINITY;
        for (int i = 0; i < rule.maxRuns(); i++) {
            long compiling = watched ? jit.getTotalCompilationTime() : 0;
            long s = System.nanoTime();
            ResultRelation rel = runJvm(i == 0 ? first : q, options(blocks, WARM_UP_LIMIT_SECONDS));
            double el = (System.nanoTime() - s) / 1e9;
            if (i == 0) {
                check(rel, genomes);
            }
            long jitMs = watched ? jit.getTotalCompilationTime() - compiling : 0;
            if (rule.warm(previous, el, jitMs)) {
                return new double[] {previous, el};
            }
            previous = el;
        }
        return null;
    }

    /** Whole-query measurements. */
    private final class JvmObjective implements Objective {
        private final Compiler compiler = new Compiler();

        @Override
        public Measurement measure(Map<Integer, Genome> genomes, double limitSeconds) {
            long t0 = System.nanoTime();
            reference();
            Compiled c = compiler.compile(genomes);
            TimedRuns timed = new TimedRuns(limitSeconds);
            int runs = RUNS;
            boolean checked = false;
            if (c.fresh()) {
                double[] warm;
                try {
                    warm = warmUp(leavingACore(c.query()), c.query(), genomes, null, QUERY_WARM_UP);
                } catch (JvmExecutor.DeadlineExceeded e) { // a run of a minute
                    return new Measurement(WARM_UP_LIMIT_SECONDS, (System.nanoTime() - t0) / 1e9, true);
                }
                checked = true; // the warm-up checked the first answer of new code
                if (warm != null) {
                    // the warm-up's last two runs ran warm code: they are the first timed runs (a new class
                    // costs one run less so; on the 2-core VM a new class costs several runs, most of it the
                    // first while the JIT compiles)
                    runs -= warm.length;
                    for (double w : warm) {
                        timed.add(w); // two runs: the second may prune, no third follows
                    }
                }
            }
            for (int r = 0; r < runs && !timed.stopped(); r++) {
                long s = System.nanoTime();
                double el;
                try {
                    ResultRelation rel = runJvm(c.query(), options(null, limitSeconds));
                    el = (System.nanoTime() - s) / 1e9;
                    if (!checked) {
                        check(rel, genomes);
                        checked = true;
                    }
                } catch (JvmExecutor.DeadlineExceeded e) {
                    el = limitSeconds;
                }
                timed.add(el);
            }
            return new Measurement(timed.seconds(), (System.nanoTime() - t0) / 1e9, timed.pruned());
        }
    }

    @Override
    public InQueryTuning.BlockSource blocks(TuningSpace tuning, long blockRows) {
        requireBlockKnobs(tuning);
        int focus = tuning.focus();
        Compiler compiler = new Compiler();
        reference();
        Map<Integer, Genome> start = tuning.complete(tuning.start());
        QueryEngine.Prepared query = compiler.compile(start).query();
        // tuning starts on warm code, as it would in a running system and as whole-query measurements do
        warmUp(query, start, null, QUERY_WARM_UP);
        Genome startGenome = tuning.focusGenome(tuning.start());
        int workers = startGenome.has(JvmDimensions.WORKERS) ? startGenome.getInt(JvmDimensions.WORKERS) : 1;
        for (TuningSpace.Knob k : tuning.knobs()) {
            if (k.name().equals(JvmDimensions.WORKERS)) {
                for (String v : k.values()) {
                    workers = Math.max(workers, Integer.parseInt(v));
                }
            }
        }
        int maxWorkers = workers;
        BlockOverheads overheads = new BlockOverheads(Set.copyOf(VariantSpaces.threadDimensions(JvmVariantSpace.BACKEND)));
        return new InQueryTuning.BlockSource() {
            private boolean warm;

            @Override
            public double run(BlockTuner tuner) {
                double warming = warm ? 0 : warmUpBlockCode(tuning, query, blockRows, maxWorkers, overheads);
                warm = true;
                Map<Genome, Map<Integer, Genome>> byGenome = new HashMap<>();
                BlockControl control = control(focus, blockRows, maxWorkers, () -> {
                    Map<Integer, Genome> a = tuner.next();
                    Genome g = tuning.focusGenome(a);
                    byGenome.put(g, a);
                    return g;
                }, (g, seconds) -> tuner.observe(byGenome.get(g), seconds + overheads.perBlock(g)), seconds -> {
                });
                long t0 = System.nanoTime();
                ResultRelation rel = runJvm(query, options(control, Double.POSITIVE_INFINITY));
                double el = (System.nanoTime() - t0) / 1e9;
                check(rel, start);
                return warming + el;
            }
        };
    }

    /**
     * Warms the code of every block variant of a tuning space (each combination of the knobs that change the code,
     * the thread configuration at its start) by running the query with all of the focus pipeline's blocks under
     * it, as {@link #warmUp} warms a whole query's new code: a block of new code would otherwise be timed while the
     * JIT compiles it, which on short blocks outlasts the measurement's outlier rule. The last run of each
     * records its overhead outside the blocks. Returns the seconds it took, a cost of the tuning.
     */
    private double warmUpBlockCode(TuningSpace tuning, QueryEngine.Prepared query, long blockRows, int maxWorkers,
                                   BlockOverheads overheads) {
        long t0 = System.nanoTime();
        Set<String> sameCode = Set.copyOf(VariantSpaces.threadDimensions(JvmVariantSpace.BACKEND));
        Map<Integer, Genome> start = tuning.complete(tuning.start());
        for (Map<Integer, Genome> a : tuning.combinations(k -> !sameCode.contains(k.name()))) {
            Genome g = tuning.focusGenome(a);
            int[] blocks = {0};
            warmUp(query, start, control(tuning.focus(), blockRows, maxWorkers, () -> {
                blocks[0]++;
                return g;
            }, (x, seconds) -> {
            }, seconds -> {
                overheads.record(g, seconds, blocks[0]);
                blocks[0] = 0;
            }), BLOCK_WARM_UP);
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * Runs the focus pipeline in blocks of about {@code blockRows} rows, each under the genome {@code next} gives,
     * reporting each full enough block's seconds scaled to a full block to {@code observed}, and the seconds the
     * pipeline spent outside its blocks to {@code finished}.
     */
    private static BlockControl control(int focus, long blockRows, int maxWorkers, Supplier<Genome> next,
                                        BiConsumer<Genome, Double> observed, DoubleConsumer finished) {
        return (p, compiled) -> p.id() != focus ? null : new BlockControl.Blocks() {
            // a small input still gets a few blocks per run
            final long rows = Math.min(blockRows, Math.max(1024, (long) p.source().estimatedRows() / 4));

            @Override
            public long blockRows() {
                return rows;
            }

            @Override
            public int maxWorkers() {
                return maxWorkers;
            }

            @Override
            public Genome next() {
                return next.get();
            }

            @Override
            public void done(Genome g, long n, long nanos) {
                if (n * 2 >= rows) {
                    observed.accept(g, nanos / 1e9 * rows / n);
                }
            }

            @Override
            public void finished(long nanos) {
                finished.accept(nanos / 1e9);
            }
        };
    }
}
