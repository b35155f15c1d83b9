package io.tessera.backend.jvm;

import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.JKind;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.relation.MatRelation;
import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.backend.jvm.run.PipelineRunner;
import io.tessera.plan.ColumnInfo;
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
 * executor, which places pipelines on devices; this is the same code with every pipeline on the JVM.
 */
public final class JvmExecutor {

    private JvmExecutor() {
    }

    /** A query ready to run: its plan and, per pipeline, the emitted source and compiled class. */
    public record CompiledQuery(QueryPlan plan, List<EmittedPipeline> pipelines, List<Class<? extends PipelineCode>> classes,
                                long compileNanos) {
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

    /** Runs every pipeline of the query on the JVM with {@code options}, in order, and returns its result. */
    public static MatRelation run(CompiledQuery q, Database db, Options options) {
        try (QueryState state = new QueryState(db, q.plan(), options.cancel())) {
            state.setOption(Options.class, options);
            JvmBackend.startQuery(state);
            for (int i = 0; i < q.pipelines().size(); i++) {
                state.checkCancel();
                PipelineRunner.run(state, q.pipelines().get(i), q.classes().get(i));
            }
            MatRelation result = state.relation(q.plan().resultRelation()) == null ? null
                    : JvmBackend.hostRelation(state, q.plan().resultRelation());
            if (result == null) {
                throw new IllegalStateException("the plan produced no result relation");
            }
            return result;
        }
    }

    /** Reads a result value: the Java object of column c in row r (Integer, Long, Double, BigDecimal, LocalDate, ...;
     * a BLOB as byte[], a UUID as java.util.UUID). */
    public static Object value(MatRelation rel, int c, int r) {
        return value(rel, c, r, java.time.ZoneOffset.UTC);
    }

    /** {@link #value(MatRelation, int, int)}, a TIMESTAMP WITH TIME ZONE as an OffsetDateTime in {@code zone}. */
    public static Object value(MatRelation rel, int c, int r, java.time.ZoneId zone) {
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
            case TIMESTAMP -> io.tessera.storage.Values.timestampOf(b.longs[c][r]);
            case TIMESTAMP_TZ -> io.tessera.storage.ZonedTimestamps.valueOf(b.longs[c][r], zone);
            case TIME -> io.tessera.storage.Values.timeOf(b.longs[c][r]);
            case BOOLEAN -> b.bytes[c][r] != 0;
            // an INTERVAL as DuckDB's driver gives it: its text; a LIST as a ListValue, a STRUCT as a StructValue
            case VARCHAR -> ci.type().isInterval()
                    ? io.tessera.storage.Interval.decode(rel.dictionaries[c].value(b.ints[c][r])).toString()
                    : ci.type().isList()
                    ? io.tessera.storage.ListCodec.value(rel.dictionaries[c].value(b.ints[c][r]), ci.type().element(), zone)
                    : ci.type().isStruct()
                    ? io.tessera.storage.StructCodec.value(rel.dictionaries[c].value(b.ints[c][r]), ci.type(), zone)
                    : io.tessera.storage.Values.stringObject(rel.dictionaries[c].value(b.ints[c][r]), ci.type());
        };
    }

}
