package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;
import io.tessera.api.QueryResult;
import io.tessera.api.RowSink;
import io.tessera.api.ResultColumn;
import io.tessera.backend.jvm.EmittedPipeline;
import io.tessera.backend.cuda.exec.GpuBlocks;
import io.tessera.backend.cuda.exec.GpuFallbacks;
import io.tessera.backend.cuda.exec.GpuOffload;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.jvm.MatRelation;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.tune.GenomeChooser;
import io.tessera.tune.ProfileStore;
import io.tessera.tune.QueryTuning;
import io.tessera.tune.TuningDevice;
import io.tessera.variant.Genome;
import io.tessera.variant.VariantSpaces;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs statements against one database: SQL to a logical plan (Calcite), to pipelines, to a genome per
 * pipeline, to generated code, to rows.
 */
public final class QueryEngine {

    private final Database db;
    private final int workers;
    private final Device device;
    private final GenomeChooser chooser;
    private final ProfileStore profiles;
    private GenomeChooser gpuChooser;
    private volatile String tuneStrategy;

    public QueryEngine(Database db) {
        this(db, java.lang.Runtime.getRuntime().availableProcessors());
    }

    public QueryEngine(Database db, int workers) {
        this(db, workers, Device.CPU);
    }

    /** An engine that runs queries on {@code device} (GPU and AUTO fall back to the JVM, saying why). */
    public QueryEngine(Database db, int workers, Device device) {
        this(db, workers, device, ProfileStore.openDefault());
    }

    /**
     * An engine whose JVM genomes come from {@code profiles} where they fit the pipeline (null: default genomes
     * only).
     */
    public QueryEngine(Database db, int workers, Device device, ProfileStore profiles) {
        this.db = db;
        this.workers = workers;
        this.device = device;
        this.profiles = profiles;
        this.chooser = new GenomeChooser(VariantSpaces.forBackend("jvm", workers), profiles,
                TuningDevice.cpuInfo(workers).fingerprint());
    }

    /** The CUDA genomes' chooser: this GPU's profile (made once the GPU is known to work). */
    private synchronized GenomeChooser gpuChooser(GpuRuntime rt) {
        if (gpuChooser == null) {
            gpuChooser = new GenomeChooser(VariantSpaces.forBackend("cuda", rt.info().cores()), profiles,
                    rt.info().fingerprint());
        }
        return gpuChooser;
    }

    /**
     * Tunes every query this engine prepares with {@code strategy} (null: off), storing what it learns in the
     * profile; EXPLAIN then says {@code (tuned now)}.
     */
    public void tuneWith(String strategy) {
        this.tuneStrategy = strategy;
    }

    public Device device() {
        return device;
    }

    /**
     * A query compiled to runnable code, with the time that took. {@code gpu}: its GPU kernels (null when it runs
     * on the JVM only); {@code notice}: why a GPU that was asked for is not (fully) used, else null;
     * {@code origins}: where each pipeline's JVM genome came from (profile, default, tuned now).
     */
    public record Prepared(QueryPlan plan, Map<Integer, Genome> genomes, JvmExecutor.CompiledQuery compiled,
                           List<String> names, long compileNanos, GpuPlan gpu, String notice,
                           Map<Integer, String> origins, Map<Integer, String> gpuOrigins) {
        public Prepared(QueryPlan plan, Map<Integer, Genome> genomes, JvmExecutor.CompiledQuery compiled,
                        List<String> names, long compileNanos) {
            this(plan, genomes, compiled, names, compileNanos, null, null, Map.of(), Map.of());
        }
    }

    public QueryResult execute(String sql) {
        return execute(sql, null);
    }

    /** Runs one statement; {@code cancel} (null: none) stops it with {@link QueryCancelledException}. */
    public QueryResult execute(String sql, QueryCancel cancel) {
        Statements.Statement st = Statements.parse(sql);
        if (st instanceof Statements.Query q) {
            return run(prepare(q.sql()), null, cancel);
        }
        return execute(st);
    }

    /** Rows handed to a {@link RowSink} at a time. */
    public static final int BATCH_ROWS = 4096;

    /**
     * Runs one statement and hands its rows to {@code sink} in batches of {@link #BATCH_ROWS} as they are read out of
     * the result, never holding them all as Java objects. Returns the statement's columns, times and where it ran,
     * with no rows; its times include handing the rows over. {@code cancel} (null: none) is also checked between
     * batches.
     */
    public QueryResult execute(String sql, QueryCancel cancel, RowSink sink) {
        Statements.Statement st = Statements.parse(sql);
        if (!(st instanceof Statements.Query q)) {
            QueryResult r = execute(st);
            sink.start(r.columns());
            if (r.rowCount() > 0) {
                sink.rows(new ArrayList<>(r.rows()));
            }
            return r;
        }
        Prepared p = prepare(q.sql());
        long t0 = System.nanoTime();
        Ran ran = runRelation(p, null, cancel);
        sink.start(ran.columns());
        int n = ran.rel().rowCount();
        for (int from = 0; from < n; from += BATCH_ROWS) {
            QueryCancel.check(cancel);
            sink.rows(rows(ran, from, Math.min(n, from + BATCH_ROWS)));
        }
        return new QueryResult(ran.columns(), List.of(), p.compileNanos(), System.nanoTime() - t0, ran.execution());
    }

    private QueryResult execute(Statements.Statement st) {
        return switch (st) {
            case Statements.CreateTable c -> {
                if (db.hasTable(c.schema().name())) {
                    if (c.ifNotExists()) {
                        yield empty();
                    }
                    throw new SqlError("table " + c.schema().name() + " already exists");
                }
                db.createTable(c.schema());
                yield empty();
            }
            case Statements.DropTable d -> {
                if (!db.hasTable(d.name())) {
                    if (d.ifExists()) {
                        yield empty();
                    }
                    throw new SqlError("no table " + d.name());
                }
                db.dropTable(d.name());
                yield empty();
            }
            case Statements.Explain e -> {
                String text = e.code() ? explainCode(e.sql()) : explain(e.sql());
                List<Object[]> rows = new ArrayList<>();
                for (String line : text.split("\n", -1)) {
                    rows.add(new Object[] {line});
                }
                yield new QueryResult(List.of(new ResultColumn(e.code() ? "code" : "plan", DataType.VARCHAR, false)), rows, 0, 0);
            }
            case Statements.Query q -> run(prepare(q.sql()));
        };
    }

    private static QueryResult empty() {
        return new QueryResult(List.of(), List.of(), 0, 0);
    }

    public Prepared prepare(String sql) {
        return prepare(sql, null);
    }

    /** The pipelines of a query, planned but not compiled. */
    public QueryPlan plan(String sql) {
        SqlFrontEnd.LogicalPlan logical = new SqlFrontEnd(db).plan(sql);
        return PhysicalPlanner.plan(logical.rel(), logical.fieldNames());
    }

    /** Prepares a query; {@code cudaGenomes} overrides the default CUDA genome of some pipelines (null: none). */
    public Prepared prepare(String sql, Map<Integer, Genome> cudaGenomes) {
        long t0 = System.nanoTime();
        SqlFrontEnd.LogicalPlan logical = new SqlFrontEnd(db).plan(sql);
        QueryPlan plan = PhysicalPlanner.plan(logical.rel(), logical.fieldNames());
        GenomeChooser.Choice choice = chooser.choose(plan);
        if (tuneStrategy != null) {
            choice = QueryTuning.tuneNow(db, sql, plan, choice, chooser, workers, tuneStrategy);
        }
        Map<Integer, Genome> genomes = choice.genomes();
        JvmExecutor.CompiledQuery compiled = JvmExecutor.compile(plan, genomes);
        GpuPlan gpu = null;
        String notice = null;
        Map<Integer, String> gpuOrigins = new java.util.TreeMap<>();
        if (device != Device.CPU) {
            try {
                GpuRuntime rt = GpuRuntime.get();
                // the GPU profile's genomes, then the caller's overrides
                GenomeChooser.Choice cuda = gpuChooser(rt).choose(plan);
                Map<Integer, Genome> chosen = new java.util.TreeMap<>(cuda.genomes());
                gpuOrigins.putAll(cuda.origins());
                if (cudaGenomes != null) {
                    chosen.putAll(cudaGenomes);
                    cudaGenomes.keySet().forEach(id -> gpuOrigins.put(id, GenomeChooser.GIVEN));
                }
                gpu = GpuPlan.prepare(rt, db, plan, compiled, chosen);
                notice = device == Device.GPU ? gpu.notice() : null;
                if (gpu.gpuPipelines() == 0) {
                    gpu = null;
                }
            } catch (io.tessera.backend.cuda.CudaException | LinkageError e) {
                // auto means "the GPU when there is one": no GPU is not worth a word then
                notice = device == Device.GPU ? "ran on the JVM: " + GpuFallbacks.describe(e) : null;
            }
        }
        return new Prepared(plan, genomes, compiled, logical.fieldNames(), System.nanoTime() - t0, gpu, notice,
                choice.origins(), gpuOrigins);
    }

    /**
     * The same prepared query with other CUDA genomes ({@code cudaGenomes}: every pipeline's, or some of them over
     * the defaults): plans and JVM code are reused, only the kernels are emitted and loaded anew. For measuring
     * many GPU variants of one query.
     */
    public Prepared withCudaGenomes(Prepared base, Map<Integer, Genome> cudaGenomes) {
        long t0 = System.nanoTime();
        GpuPlan gpu = GpuPlan.prepare(GpuRuntime.get(), db, base.plan(), base.compiled(), cudaGenomes);
        Map<Integer, String> given = new java.util.TreeMap<>();
        cudaGenomes.keySet().forEach(id -> given.put(id, GenomeChooser.GIVEN));
        return new Prepared(base.plan(), base.genomes(), base.compiled(), base.names(), System.nanoTime() - t0,
                gpu.gpuPipelines() == 0 ? null : gpu, gpu.notice(), base.origins(), given);
    }

    /**
     * Compiles a query for the JVM with the genome of every pipeline chosen by {@code genomes} from the plan
     * (complete genomes, derived dimensions included), e.g. to run a plan under explicit variants.
     */
    public Prepared prepareJvm(String sql, Function<QueryPlan, Map<Integer, Genome>> genomes) {
        long t0 = System.nanoTime();
        QueryPlan plan = plan(sql);
        Map<Integer, Genome> chosen = genomes.apply(plan);
        JvmExecutor.CompiledQuery compiled = JvmExecutor.compile(plan, chosen);
        return new Prepared(plan, chosen, compiled, plan.resultColumns().stream().map(ColumnInfo::name).toList(),
                System.nanoTime() - t0);
    }

    public QueryResult run(Prepared p) {
        return run(p, null, null);
    }

    /** Runs a prepared query, one GPU pipeline's input in blocks under {@code blocks}' kernels (null: none). */
    public QueryResult run(Prepared p, GpuBlocks blocks) {
        return run(p, blocks, null);
    }

    /** Runs a prepared query; {@code cancel} (null: none) stops it with {@link QueryCancelledException}. */
    public QueryResult run(Prepared p, QueryCancel cancel) {
        return run(p, null, cancel);
    }

    private QueryResult run(Prepared p, GpuBlocks blocks, QueryCancel cancel) {
        long t0 = System.nanoTime();
        Ran ran = runRelation(p, blocks, cancel);
        List<Object[]> rows = new ArrayList<>(ran.rel().rowCount());
        int n = ran.rel().rowCount();
        for (int from = 0; from < n; from += BATCH_ROWS) {
            QueryCancel.check(cancel);
            rows.addAll(rows(ran, from, Math.min(n, from + BATCH_ROWS)));
        }
        return new QueryResult(ran.columns(), rows, p.compileNanos(), System.nanoTime() - t0, ran.execution());
    }

    /** A query's result relation, its columns, and where it ran. */
    private record Ran(MatRelation rel, List<ResultColumn> columns, QueryResult.Execution execution) {
    }

    /** Rows {@code [from, to)} of a result as Java values. */
    private static List<Object[]> rows(Ran ran, int from, int to) {
        int width = ran.columns().size();
        List<Object[]> rows = new ArrayList<>(to - from);
        for (int r = from; r < to; r++) {
            Object[] row = new Object[width];
            for (int c = 0; c < width; c++) {
                row[c] = JvmExecutor.value(ran.rel(), c, r);
            }
            rows.add(row);
        }
        return rows;
    }

    private Ran runRelation(Prepared p, GpuBlocks blocks, QueryCancel cancel) {
        MatRelation rel = null;
        JvmExecutor.Options options = new JvmExecutor.Options(null, null, 0, cancel);
        QueryResult.Execution execution = QueryResult.Execution.CPU;
        if (p.notice() != null) {
            execution = new QueryResult.Execution("cpu", p.notice(), 0, 0, 0, 0, 0, p.plan().pipelines().size());
        }
        try {
            if (p.gpu() != null) {
                GpuRuntime rt = GpuRuntime.get();
                try (GpuOffload off = new GpuOffload(rt, p.gpu(), blocks, cancel)) {
                    rel = JvmExecutor.run(p.compiled(), db, off, options);
                    int all = p.plan().pipelines().size();
                    int onGpu = p.gpu().gpuPipelines();
                    execution = new QueryResult.Execution(onGpu == all ? "gpu" : "gpu+cpu", p.notice(), off.kernelNanos(),
                            off.uploadNanos(), p.gpu().bytesRead(), p.gpu().model().total(), onGpu, all);
                } catch (GpuOffload.Fallback | io.tessera.backend.cuda.CudaException e) {
                    rel = null;
                    execution = new QueryResult.Execution("cpu", "ran on the JVM: " + GpuFallbacks.describe(e), 0, 0, 0, 0, 0,
                            p.plan().pipelines().size());
                }
            }
            if (rel == null) {
                rel = JvmExecutor.run(p.compiled(), db, options);
            }
        } catch (ArithmeticException e) {
            throw new SqlError("cannot compute the query: " + (e.getMessage() == null ? "arithmetic error" : e.getMessage()
                    .replace("integer overflow", "numeric overflow").replace("long overflow", "numeric overflow")), e);
        }
        List<ResultColumn> cols = new ArrayList<>();
        for (ColumnInfo c : p.plan().resultColumns()) {
            cols.add(new ResultColumn(c.name(), c.type(), c.nullable()));
        }
        return new Ran(rel, cols, execution);
    }

    /** The pipelines of a query with the genome of each (EXPLAIN). */
    public String explain(String sql) {
        Prepared p = prepare(sql);
        StringBuilder sb = new StringBuilder();
        for (Pipeline pl : p.plan().pipelines()) {
            sb.append(pl).append('\n');
            sb.append("  genome: ").append(p.genomes().get(pl.id())).append(" (")
                    .append(p.origins().getOrDefault(pl.id(), GenomeChooser.DEFAULT)).append(")\n");
            if (p.gpu() != null) {
                if (p.gpu().placement().onGpu(pl.id())) {
                    String layout = p.gpu().placement().kernels().get(pl.id()).sink().describe();
                    sb.append("  gpu: ").append(p.gpu().genomes().get(pl.id())).append(" (")
                            .append(p.gpuOrigins().getOrDefault(pl.id(), GenomeChooser.DEFAULT))
                            .append(layout == null ? "" : "; " + layout).append(")\n");
                } else {
                    String why = p.gpu().placement().jvmReasons().get(pl.id());
                    sb.append("  gpu: no, on the JVM").append(why == null ? "" : ": " + why).append('\n');
                }
            }
        }
        sb.append("result: r").append(p.plan().resultRelation()).append(' ')
                .append(p.plan().resultColumns().stream().map(ColumnInfo::name).toList());
        return sb.toString();
    }

    /** The generated source of every pipeline (EXPLAIN CODE). */
    public String explainCode(String sql) {
        Prepared p = prepare(sql);
        StringBuilder sb = new StringBuilder();
        for (EmittedPipeline e : p.compiled().pipelines()) {
            sb.append(e.source()).append('\n');
        }
        return sb.toString().stripTrailing();
    }
}
