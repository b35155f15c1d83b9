package io.tessera.backend.jvm;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.host.PipelineLoop;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.host.MatRelation;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * A whole query on the JVM backend, for callers that run plans under explicit genomes (tuners, tests): its
 * pipelines compiled ({@link #compile}) and run in order ({@link #run}) with the {@link JvmBackend}'s runner of one
 * pipeline, under {@link Options} (pool, block control, deadline, cancel). Queries of the engine run through its
 * executor, which places pipelines on devices; both run the same loop, {@link PipelineLoop}, this one with every
 * pipeline on the JVM.
 */
public final class JvmExecutor {

    private JvmExecutor() {
    }

    /** A query ready to run: its plan and, per pipeline, the emitted source and compiled class. */
    public record CompiledQuery(QueryPlan plan, List<EmittedPipeline> pipelines, List<Class<? extends PipelineCode>> classes,
                                long compileNanos) {
    }

    /**
     * The JVM code of the pipelines {@code host}, a query of the JVM backend (a prepared query's {@code jvm()}),
     * has prepared, in plan order: every pipeline of a query prepared for the JVM alone.
     */
    public static CompiledQuery compiled(io.tessera.backend.Backend.Query host) {
        if (!(host instanceof JvmBackend.Query q)) {
            throw new IllegalArgumentException("not a query of the JVM backend: " + host);
        }
        return q.compiledQuery();
    }

    public static CompiledQuery compile(QueryPlan plan, Map<Integer, Genome> genomes) {
        long t0 = System.nanoTime();
        List<EmittedPipeline> emitted = new ArrayList<>();
        List<Class<? extends PipelineCode>> classes = new ArrayList<>();
        for (JvmBackend.Compiled c : JvmBackend.compile(plan.pipelines(), genomes, false)) {
            emitted.add(c.emitted());
            classes.add(c.code());
        }
        return new CompiledQuery(plan, emitted, classes, System.nanoTime() - t0);
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
    public static final Set<String> BLOCK_SWITCHABLE = Set.of(JvmDimensions.WORKERS,
            JvmDimensions.MORSEL, JvmDimensions.ACCESS, JvmDimensions.PREDICATION, JvmDimensions.SIMD,
            JvmDimensions.PROBE_ORDER, JvmDimensions.AGGREGATION);

    /**
     * Values that a block may neither switch to nor from. A partitioned aggregation's blocks only buffer their
     * rows; the aggregation itself runs after the last block, where no block's time would show what it costs.
     */
    public static final Map<String, Set<String>> BLOCK_FIXED_VALUES = Map.of(JvmDimensions.AGGREGATION,
            Set.of("partitioned"));

    /** Runs the query and returns its result relation. */
    public static MatRelation run(CompiledQuery q, Database db) {
        return run(q, db, Options.DEFAULT);
    }

    /**
     * Runs every pipeline of the query on the JVM with {@code options}, in order, and returns its result: the
     * executor's loop ({@link PipelineLoop}) with every pipeline on the host.
     */
    public static MatRelation run(CompiledQuery q, Database db, Options options) {
        JvmBackend.Query query = new JvmBackend.Query(q.plan(), Map.of(), false);
        for (int i = 0; i < q.pipelines().size(); i++) {
            query.install(q.pipelines().get(i), q.classes().get(i));
        }
        PipelineLoop.Placed onHost = new PipelineLoop.Placed(Intermediate.HOST, query);
        try (QueryState state = new QueryState(db, q.plan(), options.cancel())) {
            state.setOption(Options.class, options);
            return (MatRelation) PipelineLoop.run(state, JvmBackend.INSTANCE, id -> onHost);
        }
    }

    /** Reads a result value: the Java object of column c in row r (Integer, Long, Double, BigDecimal, LocalDate, ...;
     * a BLOB as byte[], a UUID as java.util.UUID). */
    public static Object value(MatRelation rel, int c, int r) {
        return value(rel, c, r, java.time.ZoneOffset.UTC);
    }

    /** {@link #value(MatRelation, int, int)}, a TIMESTAMP WITH TIME ZONE as an OffsetDateTime in {@code zone}. */
    public static Object value(MatRelation rel, int c, int r, java.time.ZoneId zone) {
        return rel.value(c, r, zone);
    }

}
