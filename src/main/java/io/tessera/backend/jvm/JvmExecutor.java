package io.tessera.backend.jvm;

import io.tessera.plan.AggFunction;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.plan.Source;
import io.tessera.storage.Database;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a query's compiled pipelines in order on all cores: each pipeline's source rows are cut into morsels that
 * workers take in turn, each worker filling its own sink state; the states are then merged into a join table or
 * a relation that later pipelines read.
 */
public final class JvmExecutor {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(
            Math.max(1, java.lang.Runtime.getRuntime().availableProcessors()), r -> {
                Thread t = new Thread(r, "tessera-worker");
                t.setDaemon(true);
                return t;
            });

    /** A query ready to run: its plan and, per pipeline, the emitted source and compiled class. */
    public record CompiledQuery(QueryPlan plan, List<EmittedPipeline> pipelines, List<Class<? extends PipelineCode>> classes,
                                long compileNanos) {
    }

    public static CompiledQuery compile(QueryPlan plan, Map<Integer, Genome> genomes) {
        long t0 = System.nanoTime();
        List<EmittedPipeline> emitted = new ArrayList<>();
        for (Pipeline p : plan.pipelines()) {
            emitted.add(PipelineEmitter.emit(p, genomes.get(p.id())));
        }
        List<Class<? extends PipelineCode>> classes = new ArrayList<>();
        List<Future<Class<? extends PipelineCode>>> futures = new ArrayList<>();
        for (EmittedPipeline e : emitted) {
            if (JavaCompiler.isCached(e.source())) {
                futures.add(java.util.concurrent.CompletableFuture.completedFuture(JavaCompiler.compile(e.className(), e.source())));
            } else {
                futures.add(POOL.submit(() -> JavaCompiler.compile(e.className(), e.source())));
            }
        }
        for (Future<Class<? extends PipelineCode>> f : futures) {
            classes.add(join(f));
        }
        return new CompiledQuery(plan, emitted, classes, System.nanoTime() - t0);
    }

    private static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        }
    }

    /** The state of one query's run: dictionaries, join tables and relations produced so far. */
    private static final class Run {
        final Database db;
        final QueryPlan plan;
        final Map<String, Dictionary> dicts = new HashMap<>();
        final Map<Integer, JoinTable> joins = new HashMap<>();
        final Map<Integer, MatRelation> relations = new HashMap<>();
        final Map<Integer, List<RowBuffer>> parts = new HashMap<>();
        final Map<Integer, List<String[]>> partDicts = new HashMap<>();
        final Map<Integer, Integer> remainingWriters = new HashMap<>();
        final Map<Integer, List<ColumnInfo>> relationColumns = new HashMap<>();
        Options options = Options.DEFAULT;

        Run(Database db, QueryPlan plan) {
            this.db = db;
            this.plan = plan;
        }

        synchronized Dictionary dictionary(String key) {
            Dictionary d = dicts.get(key);
            if (d == null) {
                int dot = key.indexOf('.');
                if (io.tessera.plan.DictionaryKeys.isComputed(key) || dot < 0 || !db.hasTable(key.substring(0, dot))) {
                    throw new IllegalStateException("no dictionary " + key);
                }
                d = db.table(key.substring(0, dot)).column(key.substring(dot + 1)).dictionary();
                dicts.put(key, d);
            }
            return d;
        }

        synchronized void register(String key, Dictionary d) {
            dicts.put(key, d);
        }
    }

    /**
     * Runs some pipelines elsewhere (a GPU): given a pipeline's emitted JVM code (for the layout of its sink state),
     * returns the sink states its run left, as the JVM workers would have (RowBuffer, DenseGroupTable,
     * HashGroupTable), or null to run the pipeline here. For a BUILD it returns an empty list: the table stays where
     * it was built, and only the dictionaries of its payload are registered here.
     */
    public interface Offload {
        List<Object> run(EmittedPipeline pipeline);
    }

    /**
     * How a query runs beyond its genomes: the thread pool its workers run on (null: all processors), the pipelines
     * that run block by block (null: none), and a deadline in {@link System#nanoTime()} terms (0: none) after
     * which the run stops with {@link DeadlineExceeded}; {@code cancel} (null: none) stops the run with
     * {@link io.tessera.api.QueryCancelledException} at the next morsel once it is cancelled.
     */
    public record Options(ExecutorService pool, BlockControl blocks, long deadlineNanos,
                          io.tessera.api.QueryCancel cancel) {
        public static final Options DEFAULT = new Options(null, null, 0);

        public Options(ExecutorService pool, BlockControl blocks, long deadlineNanos) {
            this(pool, blocks, deadlineNanos, null);
        }
    }

    /** Thrown when a run passes its deadline; the run's partial state is dropped. */
    public static final class DeadlineExceeded extends RuntimeException {
        public DeadlineExceeded() {
            super("the run passed its deadline", null, false, false);
        }
    }

    /**
     * The genome dimensions a block may change: how the workers share the rows, the code of the filters and
     * probes, and the aggregation (each kind of group table a block fills is kept apart and merged at the end).
     */
    public static final java.util.Set<String> BLOCK_SWITCHABLE = java.util.Set.of(JvmDimensions.WORKERS,
            JvmDimensions.MORSEL, JvmDimensions.ACCESS, JvmDimensions.PREDICATION, JvmDimensions.SIMD,
            JvmDimensions.PROBE_ORDER, JvmDimensions.AGGREGATION);

    /**
     * Values that a block may neither switch to nor from. A partitioned aggregation's blocks only buffer their
     * rows; the aggregation itself runs after the last block, where no block's time would show what it costs.
     */
    public static final Map<String, java.util.Set<String>> BLOCK_FIXED_VALUES = Map.of(JvmDimensions.AGGREGATION,
            java.util.Set.of("partitioned"));

    /** Runs the query and returns its result relation. */
    public static MatRelation run(CompiledQuery q, Database db) {
        return run(q, db, null, Options.DEFAULT);
    }

    /** Runs the query, handing each pipeline to {@code offload} first (null: every pipeline here). */
    public static MatRelation run(CompiledQuery q, Database db, Offload offload) {
        return run(q, db, offload, Options.DEFAULT);
    }

    /** Runs the query here with {@code options}. */
    public static MatRelation run(CompiledQuery q, Database db, Options options) {
        return run(q, db, null, options);
    }

    /** Runs the query, handing each pipeline to {@code offload} first (null: every pipeline here), with {@code options}. */
    public static MatRelation run(CompiledQuery q, Database db, Offload offload, Options options) {
        Run run = new Run(db, q.plan());
        run.options = options;
        for (Pipeline p : q.plan().pipelines()) {
            if (p.source() instanceof Source.RelationScan rs) {
                run.relationColumns.put(rs.relationId(), rs.columns());
            }
            int rel = switch (p.sink()) {
                case Sink.Materialize m -> m.relationId();
                default -> -1;
            };
            if (rel >= 0) {
                run.remainingWriters.merge(rel, 1, Integer::sum);
            }
        }
        run.relationColumns.put(q.plan().resultRelation(), q.plan().resultColumns());
        for (Map.Entry<Integer, List<Object[]>> v : q.plan().values().entrySet()) {
            run.relations.put(v.getKey(), valuesRelation(run, v.getKey(), v.getValue()));
        }
        for (int i = 0; i < q.pipelines().size(); i++) {
            io.tessera.api.QueryCancel.check(options.cancel());
            EmittedPipeline e = q.pipelines().get(i);
            List<Object> states = offload == null ? null : offload.run(e);
            if (states == null) {
                runPipeline(run, e, q.classes().get(i));
            } else if (e.pipeline().sink() instanceof Sink.Build b) {
                registerPayloadDictionaries(run, e, b);
            } else {
                finish(run, e, null, states);
            }
        }
        MatRelation result = run.relations.get(q.plan().resultRelation());
        if (result == null) {
            throw new IllegalStateException("the plan produced no result relation");
        }
        return result;
    }

    /** Reads a result value: the Java object of column c in row r (Integer, Long, Double, BigDecimal, LocalDate, ...). */
    public static Object value(MatRelation rel, int c, int r) {
        RowBuffer b = rel.rows;
        if (b.isNull(c, r)) {
            return null;
        }
        ColumnInfo ci = rel.columns.get(c);
        return switch (ci.type().kind()) {
            case INTEGER -> b.kinds[c] == JKind.LONG ? (int) b.longs[c][r] : b.ints[c][r];
            case BIGINT -> b.kinds[c] == JKind.INT ? (long) b.ints[c][r] : b.longs[c][r];
            case DOUBLE -> b.doubles[c][r];
            case DECIMAL -> java.math.BigDecimal.valueOf(b.longs[c][r], ci.type().scale());
            case DATE -> java.time.LocalDate.ofEpochDay(b.ints[c][r]);
            case BOOLEAN -> b.bytes[c][r] != 0;
            case VARCHAR -> rel.dictionaries[c].value(b.ints[c][r]);
        };
    }

    private static void runPipeline(Run run, EmittedPipeline e, Class<? extends PipelineCode> cls) {
        Pipeline p = e.pipeline();
        List<ColumnData> columns;
        long rows;
        if (p.source() instanceof Source.TableScan ts) {
            rows = ts.table().rowCount();
            ColumnData[] cols = new ColumnData[ts.columns().size()];
            columns = new java.util.AbstractList<>() {
                @Override
                public ColumnData get(int i) {
                    synchronized (cols) {
                        if (cols[i] == null) {
                            cols[i] = ColumnData.of(ts.table().column(i));
                        }
                        return cols[i];
                    }
                }

                @Override
                public int size() {
                    return cols.length;
                }
            };
        } else {
            Source.RelationScan rs = (Source.RelationScan) p.source();
            MatRelation r = run.relations.get(rs.relationId());
            rows = r.rowCount();
            columns = r.columnData(run::dictionary);
        }
        PipelineCode code;
        try {
            code = cls.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
        PipelineContext ctx = new PipelineContext() {
            @Override
            public ColumnData column(int i) {
                return columns.get(i);
            }

            @Override
            public JoinTable joinTable(int joinId) {
                return run.joins.get(joinId);
            }

            @Override
            public Dictionary dictionary(String key) {
                return run.dictionary(key);
            }
        };
        code.init(ctx, e.constants().toArray());
        BlockControl.Blocks blocks = run.options.blocks() == null ? null : run.options.blocks().blocks(p, e.genome());
        if (blocks != null) {
            BlockSinks sinks = runBlocks(run, e, code, ctx, blocks, rows);
            long t0 = System.nanoTime();
            finishBlocks(run, e, sinks);
            blocks.finished(sinks.setupNanos() + System.nanoTime() - t0);
            return;
        }
        Object shared = SinkStates.shared(e);
        List<Object> states = new ArrayList<>();
        if (shared != null) {
            states.add(shared);
        }
        runRange(run, e, code, e.genome(), 0, rows, states, shared != null);
        if (states.isEmpty()) {
            states.add(SinkStates.perWorker(e));
        }
        finish(run, e, code, states);
    }

    /**
     * Runs source rows {@code [from, to)} with the workers, morsel size and access of {@code g}; worker t fills
     * {@code states.get(t)} (made when missing), or all fill {@code states.get(0)} when the state is shared.
     * Returns the nanoseconds the rows took the workers, as a run without a barrier after them would spend on them
     * ({@link MorselScheduler#workersNanos}).
     */
    private static long runRange(Run run, EmittedPipeline e, PipelineCode code, Genome g, long from, long to,
                                 List<Object> states, boolean shared) {
        int workers = g.has(JvmDimensions.WORKERS) ? Math.max(1, g.getInt(JvmDimensions.WORKERS)) : 1;
        long morsel = Math.max(64, g.has(JvmDimensions.MORSEL) ? g.getInt(JvmDimensions.MORSEL) : 16384);
        long rows = to - from;
        int tasks = (int) Math.max(1, Math.min(workers, (rows + morsel - 1) / morsel));
        MorselScheduler.Access access = MorselScheduler.Access.of(g.has(JvmDimensions.ACCESS)
                ? g.get(JvmDimensions.ACCESS) : "dynamic");
        while (!shared && states.size() < tasks) {
            states.add(SinkStates.perWorker(e));
        }
        long deadline = run.options.deadlineNanos();
        io.tessera.api.QueryCancel cancel = run.options.cancel();
        AtomicLong cursor = new AtomicLong();
        long[] busy = new long[tasks];
        List<Callable<Object>> jobs = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            int worker = t;
            Object state = states.get(shared ? 0 : t);
            jobs.add(() -> {
                long t0 = System.nanoTime();
                MorselScheduler.morsels(access, rows, morsel, tasks, worker, cursor, (a, b) -> {
                    if (deadline != 0 && System.nanoTime() - deadline > 0) {
                        throw new DeadlineExceeded();
                    }
                    io.tessera.api.QueryCancel.check(cancel);
                    code.run(from + a, from + b, state);
                });
                busy[worker] = System.nanoTime() - t0;
                return state;
            });
        }
        if (tasks == 1) {
            try {
                jobs.get(0).call();
            } catch (RuntimeException ex) {
                throw ex;
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        } else {
            try {
                for (Future<Object> f : pool(run).invokeAll(jobs)) {
                    join(f);
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", ex);
            }
        }
        // every job has written its entry: the futures were joined
        return MorselScheduler.workersNanos(access, busy);
    }

    private static ExecutorService pool(Run run) {
        return run.options.pool() == null ? POOL : run.options.pool();
    }

    /** A block genome's emitted variant (the layout of its sink state) and its code. */
    private record BlockVariant(EmittedPipeline emitted, PipelineCode code) {
    }

    /**
     * Runs a pipeline block by block with the genome the control chooses for each block; each block fills the
     * states of its own kind, made before the first block of that kind (those of the compiled genome when no block
     * ran).
     */
    private static BlockSinks runBlocks(Run run, EmittedPipeline e, PipelineCode code, PipelineContext ctx,
                                        BlockControl.Blocks blocks, long rows) {
        Map<String, BlockVariant> variants = new HashMap<>();
        variants.put(codeKey(e.genome()), new BlockVariant(e, code));
        BlockSinks sinks = new BlockSinks(blocks.maxWorkers());
        long blockRows = Math.max(1, blocks.blockRows());
        for (long from = 0; from < rows; from += blockRows) {
            long to = Math.min(rows, from + blockRows);
            Genome g = blocks.next();
            BlockVariant v = variants.get(codeKey(g));
            if (v == null) {
                v = blockVariant(e, g, ctx);
                variants.put(codeKey(g), v);
            }
            BlockSinks.Kind k = sinks.kind(v.emitted(), v.code());
            long nanos = runRange(run, k.emitted(), v.code(), g, from, to, k.states(), k.shared());
            sinks.ran(k);
            blocks.done(g, to - from, nanos);
        }
        if (rows == 0) {
            sinks.ran(sinks.kind(e, code));
        }
        return sinks;
    }

    /**
     * Ends a pipeline run block by block: one kind of sink state ends as a run in one go does; several (a grouping
     * pipeline whose blocks changed agg) are each merged over their workers, then into one table.
     */
    private static void finishBlocks(Run run, EmittedPipeline e, BlockSinks sinks) {
        List<BlockSinks.Kind> used = sinks.used();
        if (used.size() == 1) {
            BlockSinks.Kind k = used.get(0);
            finish(run, k.emitted(), k.code(), k.states());
            return;
        }
        Sink.GroupAggregate ga = (Sink.GroupAggregate) e.pipeline().sink();
        boolean[] stringKeys = stringKeys(e, ga);
        List<GroupTable> tables = new ArrayList<>();
        for (BlockSinks.Kind k : used) {
            tables.add(mergedGroups(run, k.emitted(), k.code(), k.states(), stringKeys));
        }
        HashGroupTable all = BlockSinks.combine(tables, stringKeys, () -> SinkStates.hashTable(e, ga));
        publish(run, ga.relationId(), groupsToRows(run, e, all, usedGroups(all), ga.relationId()));
    }

    /** The part of a genome that selects a block's code: everything but how the workers share the rows. */
    private static String codeKey(Genome g) {
        Map<String, String> m = new java.util.TreeMap<>(g.values());
        m.remove(JvmDimensions.WORKERS);
        m.remove(JvmDimensions.MORSEL);
        m.remove(JvmDimensions.ACCESS);
        return m.toString();
    }

    /**
     * Compiles a block genome's code after checking that it changes only what a block may: a block of another
     * aggregation must group by the same keys into the same aggregates (its own tables are merged with the others
     * at the end), and one of the same aggregation must keep the compiled variant's sink state.
     */
    private static BlockVariant blockVariant(EmittedPipeline base, Genome g, PipelineContext ctx) {
        Genome b = base.genome();
        if (!b.backend().equals(g.backend()) || !b.values().keySet().equals(g.values().keySet())) {
            throw new IllegalArgumentException("block genome " + g + " does not have the dimensions of " + b);
        }
        for (String k : b.values().keySet()) {
            if (b.get(k).equals(g.get(k))) {
                continue;
            }
            if (!BLOCK_SWITCHABLE.contains(k)) {
                throw new IllegalArgumentException("block genome " + g + " changes " + k + " of " + b
                        + "; a block may change only " + new TreeSet<>(BLOCK_SWITCHABLE));
            }
            java.util.Set<String> fixed = BLOCK_FIXED_VALUES.getOrDefault(k, java.util.Set.of());
            if (fixed.contains(b.get(k)) || fixed.contains(g.get(k))) {
                throw new IllegalArgumentException("block genome " + g + " changes " + k + " of " + b
                        + "; a block may not switch " + k + " to or from " + new TreeSet<>(fixed));
            }
        }
        EmittedPipeline v = PipelineEmitter.emit(base.pipeline(), g);
        boolean sameKind = SinkStates.kind(g).equals(SinkStates.kind(b));
        if (!Arrays.equals(v.bufferKinds(), base.bufferKinds()) || !Arrays.equals(v.bufferDicts(), base.bufferDicts())
                || !Arrays.equals(v.aggs(), base.aggs()) || !Arrays.equals(v.keyKinds(), base.keyKinds())
                || !Arrays.equals(v.keyDicts(), base.keyDicts())
                || v.keyWidth() != base.keyWidth() || v.nullableKeys() != base.nullableKeys()
                || sameKind && (v.dense() != base.dense() || !Arrays.equals(v.denseMins(), base.denseMins())
                        || !Arrays.equals(v.denseSizes(), base.denseSizes()))) {
            throw new IllegalStateException("block genome " + g + " has a sink state unlike " + b);
        }
        try {
            PipelineCode c = JavaCompiler.compile(v.className(), v.source()).getDeclaredConstructor().newInstance();
            c.init(ctx, v.constants().toArray());
            return new BlockVariant(v, c);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static void registerPayloadDictionaries(Run run, EmittedPipeline e, Sink.Build b) {
        for (int c = 0; c < b.payload().size(); c++) {
            if (e.bufferKinds()[c] == JKind.CODE) {
                run.register(io.tessera.plan.DictionaryKeys.payload(b.joinId(), c), run.dictionary(e.bufferDicts()[c]));
            } else if (e.bufferKinds()[c] == JKind.STRING) {
                throw new IllegalStateException("a table with computed strings was built elsewhere");
            }
        }
    }

    private static List<RowBuffer> buffers(List<Object> states) {
        List<RowBuffer> out = new ArrayList<>();
        for (Object s : states) {
            out.add((RowBuffer) s);
        }
        return out;
    }

    private static void finish(Run run, EmittedPipeline e, PipelineCode code, List<Object> states) {
        switch (e.pipeline().sink()) {
            case Sink.Build b -> {
                RowBuffer all = RowBuffer.concat(e.bufferKinds(), buffers(states));
                for (int c = 0; c < b.payload().size(); c++) {
                    String key = io.tessera.plan.DictionaryKeys.payload(b.joinId(), c);
                    if (e.bufferKinds()[c] == JKind.STRING) {
                        run.register(key, encodeStrings(all, c));
                    } else if (e.bufferKinds()[c] == JKind.CODE) {
                        run.register(key, run.dictionary(e.bufferDicts()[c]));
                    }
                }
                JoinTable.Layout layout = JoinTable.Layout.of(e.genome().get(JvmDimensions.HASH_TABLE));
                boolean perfect = layout == JoinTable.Layout.PERFECT;
                run.joins.put(b.joinId(), JoinTable.build(all, b.payload().size(), b.keys().size(), layout,
                        perfect ? b.range().min() : 0, perfect ? b.range().max() : 0, SinkStates.murmur(e.genome()), b.uniqueKeys()));
            }
            case Sink.Materialize m -> {
                run.parts.computeIfAbsent(m.relationId(), k -> new ArrayList<>()).add(RowBuffer.concat(e.bufferKinds(), buffers(states)));
                run.partDicts.computeIfAbsent(m.relationId(), k -> new ArrayList<>()).add(e.bufferDicts());
                if (run.remainingWriters.merge(m.relationId(), -1, Integer::sum) == 0) {
                    RowBuffer all = unionParts(run, m.relationId(), e.bufferKinds().length);
                    all = slice(all, m.offset(), m.fetch());
                    publish(run, m.relationId(), all);
                }
            }
            case Sink.Sort s -> {
                RowBuffer all = RowBuffer.concat(e.bufferKinds(), buffers(states));
                int[] order = Sorter.order(all, s.keys().toArray(new SortKey[0]), s.fetch() < 0 ? -1 : s.offset() + s.fetch());
                RowBuffer sorted = gather(all, order, s.offset(), s.fetch());
                codesToRelation(run, s.relationId(), sorted, e.bufferDicts());
                publish(run, s.relationId(), sorted);
            }
            case Sink.Aggregate a -> {
                DenseGroupTable t = (DenseGroupTable) states.get(0);
                for (int i = 1; i < states.size(); i++) {
                    t.mergeFrom((DenseGroupTable) states.get(i));
                }
                publish(run, a.relationId(), groupsToRows(run, e, t, new int[] {0}, a.relationId()));
            }
            case Sink.GroupAggregate ga -> {
                GroupTable t = mergedGroups(run, e, code, states, stringKeys(e, ga));
                publish(run, ga.relationId(), groupsToRows(run, e, t, usedGroups(t), ga.relationId()));
            }
        }
    }

    /** Which key columns of a grouping pipeline hold interned string ids in its hash tables. */
    private static boolean[] stringKeys(EmittedPipeline e, Sink.GroupAggregate ga) {
        boolean[] stringKeys = new boolean[ga.keys().size()];
        for (int k = 0; k < stringKeys.length; k++) {
            stringKeys[k] = e.keyKinds()[k] == JKind.STRING;
        }
        return stringKeys;
    }

    /** The workers' group states of one kind merged into one table (a dense array, or a hash table). */
    private static GroupTable mergedGroups(Run run, EmittedPipeline e, PipelineCode code, List<Object> states,
                                           boolean[] stringKeys) {
        if (e.dense()) {
            DenseGroupTable d = (DenseGroupTable) states.get(0);
            for (int i = 1; i < states.size(); i++) {
                d.mergeFrom((DenseGroupTable) states.get(i));
            }
            return d;
        }
        if (states.get(0) instanceof SharedGroupTable shared) {
            return shared.collect(stringKeys);
        }
        if (states.get(0) instanceof PartitionedInput) {
            return PartitionedAggregation.aggregate(e, code, states, stringKeys, pool(run));
        }
        HashGroupTable h = (HashGroupTable) states.get(0);
        for (int i = 1; i < states.size(); i++) {
            h.mergeFrom((HashGroupTable) states.get(i), stringKeys);
        }
        return h;
    }

    /** The indexes of a table's groups: a dense array's used slots, or every group of a hash table. */
    private static int[] usedGroups(GroupTable t) {
        if (t instanceof DenseGroupTable d) {
            int n = 0;
            for (int gi = 0; gi < d.slots(); gi++) {
                n += d.rows[gi] > 0 ? 1 : 0;
            }
            int[] groups = new int[n];
            n = 0;
            for (int gi = 0; gi < d.slots(); gi++) {
                if (d.rows[gi] > 0) {
                    groups[n++] = gi;
                }
            }
            return groups;
        }
        int[] groups = new int[((HashGroupTable) t).groups];
        for (int gi = 0; gi < groups.length; gi++) {
            groups[gi] = gi;
        }
        return groups;
    }

    /** Rows of the groups: keys decoded, then each aggregate's final value. */
    private static RowBuffer groupsToRows(Run run, EmittedPipeline e, GroupTable t, int[] groups, int rel) {
        List<ColumnInfo> cols = run.relationColumns.get(rel);
        int nk = e.keyKinds().length;
        JKind[] kinds = new JKind[cols.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = c < nk ? e.keyKinds()[c] : JKind.stored(cols.get(c).type());
        }
        RowBuffer out = new RowBuffer(kinds, groups.length);
        for (int g : groups) {
            int w = out.next();
            for (int k = 0; k < nk; k++) {
                Long raw;
                if (t instanceof DenseGroupTable d) {
                    raw = d.key(g, k);
                } else {
                    HashGroupTable h = (HashGroupTable) t;
                    raw = h.isNullKey(g, k) ? null : h.keys[g * h.width + k];
                }
                if (raw == null) {
                    out.setNull(k, w);
                    continue;
                }
                switch (kinds[k]) {
                    case INT, CODE -> out.ints[k][w] = (int) (long) raw;
                    case LONG -> out.longs[k][w] = raw;
                    case DOUBLE -> out.doubles[k][w] = Double.longBitsToDouble(raw);
                    case BOOL -> out.bytes[k][w] = (byte) (long) raw;
                    case STRING -> out.strings[k][w] = ((HashGroupTable) t).internedString(raw);
                }
            }
            for (int a = 0; a < t.aggs.length; a++) {
                int c = nk + a;
                AggSpec s = t.aggs[a];
                long cnt = t.counts[a][g];
                switch (s.function()) {
                    case COUNT_STAR, COUNT -> out.longs[c][w] = cnt;
                    case COUNT_DISTINCT -> out.longs[c][w] = t.distinctCount(a, g);
                    case AVG -> {
                        if (cnt == 0) {
                            out.setNull(c, w);
                        } else if (s.doubleValue()) {
                            out.doubles[c][w] = t.dvals[a][g] / cnt;
                        } else {
                            // exact sum (DECIMAL unscaled at the argument's scale) over the count, rounded once
                            out.doubles[c][w] = java.math.BigDecimal.valueOf(t.lvals[a][g], ExprGen.scaleOf(s.argType()))
                                    .divide(java.math.BigDecimal.valueOf(cnt), java.math.MathContext.DECIMAL64).doubleValue();
                        }
                    }
                    default -> {
                        if (s.function() == AggFunction.SINGLE_VALUE && cnt > 1) {
                            throw new IllegalStateException("more than one row returned by a subquery used as an expression");
                        }
                        if (cnt == 0 && s.function() != AggFunction.SUM0) {
                            out.setNull(c, w);
                        } else {
                            setValue(out, c, w, s, t, a, g);
                        }
                    }
                }
            }
        }
        codesToRelation(run, rel, out, concatDicts(e.keyDicts(), e, nk, cols.size()));
        return out;
    }

    private static String[] concatDicts(String[] keyDicts, EmittedPipeline e, int nk, int n) {
        String[] d = Arrays.copyOf(keyDicts, n);
        for (int a = 0; a < e.aggs().length; a++) {
            Sink sink = e.pipeline().sink();
            List<io.tessera.plan.AggCall> calls = sink instanceof Sink.GroupAggregate ga ? ga.aggs() : ((Sink.Aggregate) sink).aggs();
            io.tessera.plan.Expr arg = calls.get(a).arg();
            if (arg instanceof io.tessera.plan.Expr.Ref r) {
                d[nk + a] = r.slot().dictionaryKey();
            }
        }
        return d;
    }

    private static void setValue(RowBuffer out, int c, int w, AggSpec s, GroupTable t, int a, int g) {
        switch (out.kinds[c]) {
            case INT, CODE -> out.ints[c][w] = (int) t.lvals[a][g];
            case LONG -> out.longs[c][w] = s.doubleValue() ? (long) t.dvals[a][g] : t.lvals[a][g];
            case DOUBLE -> out.doubles[c][w] = s.doubleValue() ? t.dvals[a][g] : (double) t.lvals[a][g];
            case BOOL -> out.bytes[c][w] = (byte) t.lvals[a][g];
            case STRING -> throw new IllegalStateException();
        }
    }

    /** Registers the dictionaries of a relation's VARCHAR columns under the keys its readers use. */
    private static void codesToRelation(Run run, int rel, RowBuffer b, String[] srcDicts) {
        List<ColumnInfo> cols = run.relationColumns.get(rel);
        for (int c = 0; c < cols.size(); c++) {
            ColumnInfo ci = cols.get(c);
            if (ci.type().kind() != TypeKind.VARCHAR) {
                continue;
            }
            if (b.kinds[c] == JKind.STRING) {
                run.register(ci.dictionaryKey(), encodeStrings(b, c));
            } else if (srcDicts[c] != null && !srcDicts[c].equals(ci.dictionaryKey())) {
                run.register(ci.dictionaryKey(), run.dictionary(srcDicts[c]));
            }
        }
    }

    /** Replaces a STRING column by codes into a new sorted dictionary of its values. */
    static Dictionary encodeStrings(RowBuffer b, int c) {
        List<String> strings = new ArrayList<>();
        for (int r = 0; r < b.size; r++) {
            if (!b.isNull(c, r)) {
                strings.add(b.strings[c][r]);
            }
        }
        Dictionary d = Dictionary.of(strings);
        // as long as the other columns' arrays, in case the buffer grows
        int[] codes = new int[b.strings[c].length];
        for (int r = 0; r < b.size; r++) {
            codes[r] = b.isNull(c, r) ? 0 : d.code(b.strings[c][r]);
        }
        b.ints[c] = codes;
        b.strings[c] = null;
        b.kinds[c] = JKind.CODE;
        return d;
    }

    /** Concatenates the parts written into one relation (UNION ALL inputs), unifying VARCHAR dictionaries. */
    private static RowBuffer unionParts(Run run, int rel, int ncols) {
        List<RowBuffer> parts = run.parts.remove(rel);
        List<String[]> dicts = run.partDicts.remove(rel);
        List<ColumnInfo> cols = run.relationColumns.get(rel);
        JKind[] kinds = parts.get(0).kinds.clone();
        String[] srcDicts = dicts.get(0).clone();
        for (int c = 0; c < ncols; c++) {
            boolean mixed = false;
            for (int i = 0; i < parts.size(); i++) {
                RowBuffer p = parts.get(i);
                if (p.kinds[c] != kinds[c] || (p.kinds[c] == JKind.CODE && !java.util.Objects.equals(dicts.get(i)[c], srcDicts[c]))) {
                    mixed = true;
                }
            }
            if (mixed && cols.get(c).type().kind() == TypeKind.VARCHAR) {
                for (int i = 0; i < parts.size(); i++) {
                    decodeToStrings(run, parts.get(i), c, dicts.get(i)[c]);
                }
                kinds[c] = JKind.STRING;
            } else if (mixed) {
                throw new IllegalStateException("UNION ALL inputs disagree on the representation of column " + c);
            }
        }
        RowBuffer all = parts.size() == 1 ? parts.get(0) : RowBuffer.concat(kinds, parts);
        codesToRelation(run, rel, all, srcDicts);
        return all;
    }

    private static void decodeToStrings(Run run, RowBuffer b, int c, String dict) {
        if (b.kinds[c] == JKind.STRING) {
            return;
        }
        Dictionary d = run.dictionary(dict);
        String[] s = new String[Math.max(b.size, b.ints[c].length)];
        for (int r = 0; r < b.size; r++) {
            s[r] = b.isNull(c, r) ? null : d.value(b.ints[c][r]);
        }
        b.strings[c] = s;
        b.ints[c] = null;
        b.kinds[c] = JKind.STRING;
    }

    private static RowBuffer slice(RowBuffer all, long offset, long fetch) {
        if (offset == 0 && (fetch < 0 || fetch >= all.size)) {
            return all;
        }
        int from = (int) Math.min(offset, all.size);
        int to = fetch < 0 ? all.size : (int) Math.min(all.size, offset + fetch);
        int[] idx = new int[to - from];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = from + i;
        }
        return gather(all, idx, 0, -1);
    }

    /** Rows {@code order[offset .. offset+fetch)} of a buffer, in that order. */
    private static RowBuffer gather(RowBuffer b, int[] order, long offset, long fetch) {
        int from = (int) Math.min(offset, order.length);
        int to = fetch < 0 ? order.length : (int) Math.min(order.length, offset + fetch);
        RowBuffer out = new RowBuffer(b.kinds.clone(), to - from);
        for (int i = from; i < to; i++) {
            int r = order[i];
            int w = out.next();
            for (int c = 0; c < b.kinds.length; c++) {
                switch (b.kinds[c]) {
                    case INT, CODE -> out.ints[c][w] = b.ints[c][r];
                    case LONG -> out.longs[c][w] = b.longs[c][r];
                    case DOUBLE -> out.doubles[c][w] = b.doubles[c][r];
                    case BOOL -> out.bytes[c][w] = b.bytes[c][r];
                    case STRING -> out.strings[c][w] = b.strings[c][r];
                }
                if (b.isNull(c, r)) {
                    out.setNull(c, w);
                }
            }
        }
        return out;
    }

    private static void publish(Run run, int rel, RowBuffer rows) {
        List<ColumnInfo> cols = run.relationColumns.get(rel);
        for (int c = 0; c < cols.size(); c++) {
            if (rows.kinds[c] == JKind.STRING) {
                run.register(cols.get(c).dictionaryKey(), encodeStrings(rows, c));
            }
        }
        MatRelation m = new MatRelation(rows, cols);
        m.dictionaries = new Dictionary[cols.size()];
        for (int c = 0; c < cols.size(); c++) {
            if (cols.get(c).dictionaryKey() != null) {
                m.dictionaries[c] = run.dictionary(cols.get(c).dictionaryKey());
            }
        }
        run.relations.put(rel, m);
    }

    private static MatRelation valuesRelation(Run run, int rel, List<Object[]> rows) {
        List<ColumnInfo> cols = run.relationColumns.get(rel);
        JKind[] kinds = new JKind[cols.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = cols.get(c).type().kind() == TypeKind.VARCHAR ? JKind.STRING : JKind.stored(cols.get(c).type());
        }
        RowBuffer b = new RowBuffer(kinds, rows.size());
        for (Object[] row : rows) {
            int w = b.next();
            for (int c = 0; c < kinds.length; c++) {
                Object v = row[c];
                if (v == null) {
                    b.setNull(c, w);
                    continue;
                }
                switch (kinds[c]) {
                    case INT -> b.ints[c][w] = ((Number) v).intValue();
                    case LONG -> b.longs[c][w] = ((Number) v).longValue();
                    case DOUBLE -> b.doubles[c][w] = ((Number) v).doubleValue();
                    case BOOL -> b.bytes[c][w] = (byte) (((Boolean) v) ? 1 : 0);
                    case STRING -> b.strings[c][w] = v.toString();
                    default -> throw new IllegalStateException();
                }
            }
        }
        publish(run, rel, b);
        return run.relations.get(rel);
    }
}
