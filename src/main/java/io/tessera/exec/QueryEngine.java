package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;
import io.tessera.api.QueryResult;
import io.tessera.api.RowSink;
import io.tessera.backend.Accelerator;
import io.tessera.backend.Backend;
import io.tessera.backend.DeviceException;
import io.tessera.backend.Devices;
import io.tessera.backend.Intermediate;
import io.tessera.plan.ColumnInfo;
import io.tessera.optimize.EstimateSkew;
import io.tessera.optimize.Optimizer;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.profile.DeviceInfo;
import io.tessera.profile.GenomeChooser;
import io.tessera.profile.ProfileStore;
import io.tessera.sql.Parameters;
import io.tessera.sql.SqlError;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.Statement;
import io.tessera.sql.StatementParser;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;
import io.tessera.variant.VariantSpaces;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Runs statements against one database: SQL to a logical plan (Calcite), to pipelines, to a genome per
 * pipeline, to generated code, to rows. It holds the database's devices ({@link Devices}), which {@link #close}
 * releases (the GPU's runtime where one was opened); the database itself stays open.
 */
public final class QueryEngine implements AutoCloseable {

    private final Database db;
    private final int workers;
    private final Device device;
    private final GenomeChooser chooser;
    private final ProfileStore profiles;
    private final QueryExecutor executor;
    /** The devices queries over {@code db} may run on: the JVM, and the GPU where one can be used. */
    private final Devices devices;
    private GenomeChooser gpuChooser;
    private volatile QueryTuner tuner;
    private volatile EstimateSkew skew = EstimateSkew.NONE;
    private final DataChanges changes;
    private final StatementSequences sequences;
    private final TableIndexes indexes;
    private volatile List<java.nio.file.Path> copyDirectories = List.of();
    private volatile List<java.nio.file.Path> copyToDirectories = List.of();
    /** The session's time zone (SET TimeZone): TIMESTAMP WITH TIME ZONE values are shown and taken apart in it. */
    private volatile java.time.ZoneId timeZone = java.time.ZoneOffset.UTC;
    /** The session's variables (SET VARIABLE), which getvariable reads. */
    private final SessionValues variables = new SessionValues();
    /** The session's temporary macros (CREATE TEMP MACRO); CREATE and DROP MACRO of the database's too. */
    private final SessionMacros macros = new SessionMacros();
    /** The files the statement running on this thread names in FROM; null outside a statement. */
    private final ThreadLocal<FileTableLoader> statementFiles = new ThreadLocal<>();
    /** Queries of statements prepared already, kept for the next run of the same text. */
    private final PlanCache plans = new PlanCache();
    /** The queries planning runs over the data (PIVOT's values, an unnest's longest list): such a plan is not kept. */
    private final PlanTimeQueries planTimeQueries = new PlanTimeQueries(this);

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
        this.devices = Devices.of(db);
        this.executor = new QueryExecutor(db, devices);
        this.changes = new DataChanges(this, db);
        this.sequences = new StatementSequences(db);
        this.indexes = new TableIndexes(db, changes);
        this.chooser = new GenomeChooser(VariantSpaces.forBackend("jvm", workers), profiles,
                DeviceInfo.machineCpu(workers).fingerprint());
    }

    /** The GPU genomes' chooser: this GPU's profile (made once the GPU is known to work). */
    private synchronized GenomeChooser gpuChooser(Accelerator cuda) {
        if (gpuChooser == null) {
            gpuChooser = new GenomeChooser(VariantSpaces.forBackend(cuda.device(), cuda.info().cores()), profiles,
                    cuda.info().fingerprint());
        }
        return gpuChooser;
    }

    /**
     * Tunes every query this engine prepares with {@code tuner} (null: off), which may store what it learns in the
     * profile; EXPLAIN then says {@code (tuned now)}.
     */
    public void tuneWith(QueryTuner tuner) {
        this.tuner = tuner;
        plans.clear(); // what it learns decides the genomes of later plans
    }

    /**
     * Plans every later query with each stored table's estimated rows multiplied by {@code skew}'s factor: the tests
     * that check that estimates 1000 times off change only the plan, never the answer.
     */
    public void skewEstimates(EstimateSkew skew) {
        this.skew = skew;
        plans.clear();
    }

    public Device device() {
        return device;
    }

    /** The devices this engine's queries run on: the host, and the GPU opened on its first use. */
    public Devices devices() {
        return devices;
    }

    /** Releases the devices opened for this engine's database (the GPU's runtime); the host needs nothing. */
    @Override
    public void close() {
        devices.close();
    }

    /**
     * Runs one query over a slice of a table ({@link io.tessera.api.TableSlice}): wherever the query names that
     * table it reads only the slice's rows. Rows go to {@code sink} as for {@link #execute(String, QueryCancel,
     * RowSink)}. Only queries run over a slice; a slice of a table that was written since the slice was made (its
     * generation differs) fails, as the rows it names may be others now.
     */
    public QueryResult execute(String sql, QueryCancel cancel, RowSink sink, io.tessera.api.TableSlice slice) {
        return execute(sql, Parameters.NONE, cancel, sink, slice);
    }

    /**
     * {@link #execute(String, QueryCancel, RowSink, io.tessera.api.TableSlice)} with {@code parameters} bound to the
     * query's {@code ?} (one value each, in order), as values, never as SQL text.
     */
    public QueryResult execute(String sql, Parameters parameters, QueryCancel cancel, RowSink sink,
                               io.tessera.api.TableSlice slice) {
        return withFiles(cancel, () -> executeSlice(sql, parameters, cancel, sink, slice));
    }

    private QueryResult executeSlice(String sql, Parameters parameters, QueryCancel cancel, RowSink sink,
                                     io.tessera.api.TableSlice slice) {
        checkParameters(sql, parameters);
        if (!(StatementParser.parse(sql) instanceof Statement.Query)) {
            throw new SqlError("only a query runs over a slice of table " + slice.table());
        }
        if (!db.hasTable(slice.table())) {
            throw new SqlError("no table " + slice.table());
        }
        io.tessera.storage.Table whole = db.table(slice.table());
        if (slice.generation() >= 0 && slice.generation() != whole.generation()) {
            throw new SqlError("table " + whole.name() + " was written since its slice was planned (generation "
                    + whole.generation() + ", the slice is of " + slice.generation() + ")");
        }
        io.tessera.storage.Table part;
        try {
            part = whole.slice(slice.fromRow(), slice.toRow());
        } catch (IllegalArgumentException e) {
            throw new SqlError(e.getMessage(), e);
        }
        long t0 = System.nanoTime();
        // sql null: not tuned (a tuner would store what it learns of one slice under the whole query's text)
        Prepared p = prepare(frontEnd().withTable(part).plan(parameters.bind(SqlFrontEnd.parse(sql)), sql), null,
                null, t0);
        return drain(p, cancel, sink);
    }

    /**
     * A query compiled to runnable code, with the time that took: its plan, every pipeline's JVM genome, where
     * each pipeline runs ({@code placement}) and the code of each on its device: {@code jvm}, the query on the host,
     * holds the JVM code of the pipelines placed there ({@code backend.jvm.JvmExecutor.compiled} reads it),
     * {@code gpu} the GPU side (null when the query runs on the JVM only). {@code notice}: why a GPU that was asked
     * for is not (fully) used, else null; {@code origins}: where each pipeline's JVM genome came from (profile,
     * default, tuned now), {@code gpuOrigins} its CUDA genome's. The JVM genomes, their origins and {@code jvm} of a
     * query wholly on the GPU are made when first asked for ({@link HostSide}). {@code sequences}: the query calls a
     * sequence function, so it runs as a write ({@link StatementSequences}).
     */
    public record Prepared(QueryPlan plan, HostSide host, Placement placement, List<String> names, long compileNanos,
                           Backend.Query gpu, String notice, Map<Integer, String> gpuOrigins, boolean sequences) {

        public Map<Integer, Genome> genomes() {
            return host.get().genomes();
        }

        public Backend.Query jvm() {
            return host.get().query();
        }

        public Map<Integer, String> origins() {
            return host.get().origins();
        }

        /** The same prepared query, found again in {@code compileNanos} ({@link PlanCache}). */
        Prepared again(long compileNanos) {
            return new Prepared(plan, host, placement, names, compileNanos, gpu, notice, gpuOrigins, sequences);
        }
    }

    public QueryResult execute(String sql) {
        return execute(sql, null);
    }

    /** Runs one statement; {@code cancel} (null: none) stops it with {@link QueryCancelledException}. */
    public QueryResult execute(String sql, QueryCancel cancel) {
        return withFiles(cancel, () -> executeOne(sql, cancel));
    }

    private QueryResult executeOne(String sql, QueryCancel cancel) {
        Statement st = StatementParser.parse(sql);
        checkParameters(sql, Parameters.NONE);
        if (st instanceof Statement.Query q) {
            return reusing(q.sql(), p -> run(p, null, cancel));
        }
        return inStatement(sql, st, () -> execute(st, cancel));
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
        return withFiles(cancel, () -> executeStreamed(sql, cancel, sink));
    }

    private QueryResult executeStreamed(String sql, QueryCancel cancel, RowSink sink) {
        Statement st = StatementParser.parse(sql);
        checkParameters(sql, Parameters.NONE);
        if (!(st instanceof Statement.Query q)) {
            QueryResult r = inStatement(sql, st, () -> execute(st, cancel));
            sink.start(r.columns());
            if (r.rowCount() > 0) {
                sink.rows(new ArrayList<>(r.rows()));
            }
            return r;
        }
        return reusing(q.sql(), p -> drain(p, cancel, sink));
    }

    /**
     * Runs a statement that holds a query (EXPLAIN's, CREATE ... AS's, DESCRIBE's, COPY (query) TO's), which is
     * planned as a text of its own: an error names its positions in the statement's text, as the statement's own do.
     */
    private static QueryResult inStatement(String sql, Statement st, java.util.function.Supplier<QueryResult> run) {
        String query = switch (st) {
            case Statement.Explain e -> e.query();
            case Statement.CreateTableAs c -> c.query();
            case Statement.CreateView v -> v.query();
            case Statement.Describe d -> d.query();
            case Statement.Summarize m -> m.query();
            case Statement.CopyTo c -> c.query();
            default -> null;
        };
        try {
            return run.get();
        } catch (SqlError e) {
            io.tessera.sql.StatementStart start = query == null ? io.tessera.sql.StatementStart.FIRST
                    : io.tessera.sql.StatementStart.ofInner(sql, query);
            if (start.equals(io.tessera.sql.StatementStart.FIRST)) {
                throw e;
            }
            throw new SqlError(start.moved(e.getMessage()), e);
        }
    }

    private QueryResult drain(Prepared p, QueryCancel cancel, RowSink sink) {
        long t0 = System.nanoTime();
        QueryExecutor.Ran ran = runRelation(p, null, cancel);
        ResultRows.drain(ran, sink, cancel, timeZone);
        return new QueryResult(ran.columns(), List.of(), p.compileNanos(), System.nanoTime() - t0, ran.execution());
    }

    private QueryResult execute(Statement st, QueryCancel cancel) {
        return execute(st, Parameters.NONE, cancel);
    }

    /**
     * {@link #execute(String, QueryCancel, RowSink)} with {@code parameters} bound to the statement's {@code ?}
     * (one value each, in order), as values, never as SQL text.
     */
    public QueryResult execute(String sql, Parameters parameters, QueryCancel cancel, RowSink sink) {
        return withFiles(cancel, () -> executeStreamed(sql, parameters, cancel, sink));
    }

    private QueryResult executeStreamed(String sql, Parameters parameters, QueryCancel cancel, RowSink sink) {
        Statement st = StatementParser.parse(sql);
        checkParameters(sql, parameters);
        if (!(st instanceof Statement.Query q)) {
            QueryResult r = inStatement(sql, st, () -> execute(st, parameters, cancel));
            sink.start(r.columns());
            if (r.rowCount() > 0) {
                sink.rows(new ArrayList<>(r.rows()));
            }
            return r;
        }
        return parameters.isEmpty() ? reusing(q.sql(), p -> drain(p, cancel, sink))
                : drain(prepare(q.sql(), parameters), cancel, sink);
    }

    /** Runs {@code st} within the statement running now (its files and temporary database), no parameters. */
    QueryResult executeWithin(Statement st, QueryCancel cancel) {
        return execute(st, Parameters.NONE, cancel);
    }

    /** How many runs of statements reused a kept plan ({@link PlanCache}). */
    long plansReused() {
        return plans.reused();
    }

    /** Runs {@code use} over query {@code sql} prepared, or over the plan kept for it ({@link PlanCache}). */
    private <T> T reusing(String sql, Function<Prepared, T> use) {
        if (tuner != null || skew != EstimateSkew.NONE) {
            return use.apply(prepare(sql));
        }
        return plans.run(new PlanCache.Key(sql, db.state(), variables.now(), macros.now(), timeZone), () -> {
            long t0 = System.nanoTime();
            long dataReads = planTimeQueries.runs();
            SqlFrontEnd.LogicalPlan logical = frontEnd().plan(sql);
            Prepared p = prepare(logical, sql, null, t0);
            FileTableLoader files = statementFiles.get();
            return new PlanCache.Planned(p, p.gpu() == null && !p.sequences() && (files == null || !files.used())
                    && dataReads == planTimeQueries.runs() && PlanCache.reusable(logical.rel()));
        }, db::state, use);
    }

    /** One value for each {@code ?} of the statement, no more and no fewer. */
    private static void checkParameters(String sql, Parameters parameters) {
        int expected = Parameters.count(sql);
        if (parameters.size() != expected) {
            throw new SqlError("the statement has " + expected + " parameter" + (expected == 1 ? "" : "s") + " (?), "
                    + parameters.size() + " value" + (parameters.size() == 1 ? " was" : "s were") + " given"
                    + (parameters.isEmpty() ? ": bind them through a prepared statement" : ""));
        }
    }

    private QueryResult execute(Statement st, Parameters parameters, QueryCancel cancel) {
        return switch (st) {
            case Statement.CreateTable c -> changes.createTable(c);
            case Statement.CreateSequence c -> sequences.create(c);
            case Statement.DropSequence d -> sequences.drop(d);
            case Statement.CreateIndex c -> indexes.create(c, cancel);
            case Statement.DropIndex d -> indexes.drop(d);
            case Statement.DropTable d -> {
                if (db.view(d.name()) != null) {
                    throw new SqlError(d.name() + " is a view, not a table (DROP VIEW " + d.name() + ")");
                }
                if (!db.hasTable(d.name())) {
                    if (d.ifExists()) {
                        yield ResultRows.empty();
                    }
                    throw new SqlError("no table " + d.name()
                            + io.tessera.sql.DidYouMean.hint(d.name(), DataChanges.tableNames(db)));
                }
                ForeignKeyChecks.verifyDrop(db, d.name());
                db.dropTable(d.name());
                yield ResultRows.empty();
            }
            case Statement.Explain e -> explain(e, parameters, cancel);
            case Statement.Query q -> run(prepare(q.sql(), parameters));
            case Statement.Insert i -> changes.insert(i, parameters, cancel);
            case Statement.Update u -> changes.update(u, parameters, cancel);
            case Statement.Delete d -> changes.delete(d, parameters, cancel);
            case Statement.CreateTableAs c -> changes.createTableAs(c, parameters, cancel);
            case Statement.CreateView v -> changes.createView(v);
            case Statement.DropView v -> changes.dropView(v);
            case Statement.AlterTable a -> new TableAlterations(this, db).alter(a, parameters, cancel);
            case Statement.Describe d -> QueryDescriptions.describe(this, db, d, parameters);
            case Statement.Summarize m -> QueryDescriptions.summarize(this, m, parameters);
            case Statement.SetOption o when o.name().equals(io.tessera.sql.SessionSettings.SEED) -> {
                // DuckDB's setseed(x), x from -1 to 1 (checked when parsed): one row, NULL
                executor.seedRandom(Double.doubleToLongBits(Double.parseDouble(o.value())));
                yield new QueryResult(List.of(new io.tessera.api.ResultColumn("setseed(" + o.value() + ")",
                        io.tessera.storage.DataType.VARCHAR, true)),
                        java.util.Collections.singletonList(new Object[] {null}), 0, 0);
            }
            case Statement.CreateMacro _, Statement.DropMacro _ -> macros.run(st, db, frontEnd());
            case Statement.SetVariable v -> {
                variables.set(v, q -> run(prepare(frontEnd().plan(parameters.bind(q)), null, null, System.nanoTime())));
                yield ResultRows.empty();
            }
            case Statement.SetOption o -> {
                timeZone = o.value() == null ? java.time.ZoneOffset.UTC
                        : io.tessera.storage.ZonedTimestamps.zone(o.value()); // the only setting, checked when parsed
                yield ResultRows.empty();
            }
            case Statement.CopyTo c -> {
                SqlFrontEnd.LogicalPlan logical = frontEnd().plan(parameters.bind(SqlFrontEnd.parse(c.query())), c.query());
                FileTableLoader scratch = statementFiles.get();
                if (scratch == null) {
                    throw new SqlError("COPY (query) TO runs only as a statement of its own");
                }
                QueryExecutor.Ran ran = runLogical(logical, cancel);
                yield DataChanges.count(CopyFiles.copyTo(c, ran, logical.fieldNames(), scratch.database(),
                        copyToDirectories, cancel));
            }
            case Statement.ExportDatabase e -> DatabaseExports.export(this, db, e, copyToDirectories, cancel);
            case Statement.ImportDatabase i -> DatabaseExports.importFrom(this, i, copyDirectories, cancel);
            case Statement.Copy c -> {
                try (io.tessera.storage.Database.WriteLock lock = db.lockForWriting()) {
                    String table = changes.existingTable(c.table(), "COPY");
                    yield DataChanges.count(CopyFiles.copy(this, changes, db, c, table, copyDirectories, cancel));
                }
            }
        };
    }

    /**
     * Runs one statement with the files it names in FROM loaded for it ({@link FileTableLoader}), and deleted when
     * it ends; a statement within a statement shares them.
     */
    private <T> T withFiles(QueryCancel cancel, java.util.function.Supplier<T> statement) {
        if (statementFiles.get() != null) {
            return statement.get();
        }
        try (FileTableLoader files = new FileTableLoader(db, copyDirectories, cancel)) {
            statementFiles.set(files);
            return statement.get();
        } finally {
            statementFiles.remove();
        }
    }

    /**
     * Appends to {@code table}, which has CHECK constraints, the rows {@code importInto} writes into the table it is
     * given, once they pass them ({@link CheckedRows#append}): {@code tessera import}'s way into such a table.
     */
    public <T> T appendChecked(String table, java.util.function.BiFunction<Database, String, T> importInto,
                               QueryCancel cancel) {
        return withFiles(cancel, () -> {
            try (Database.WriteLock lock = db.lockForWriting()) {
                return CheckedRows.append(this, db, db.table(table).schema(), importInto, cancel);
            }
        });
    }

    /** The result columns and {@code ?} parameter types of {@code sql}, from planning it: nothing compiled or run. */
    public io.tessera.api.StatementShape describe(String sql) {
        return StatementShapes.describe(frontEnd(), sql);
    }

    /** The session's variables (SET VARIABLE). */
    public SessionValues variables() {
        return variables;
    }

    /** The session's temporary macros (CREATE TEMP MACRO). */
    public SessionMacros macros() {
        return macros;
    }

    /** The front end over the database, reading the files a running statement names in FROM ({@code prepare}: none). */
    SqlFrontEnd frontEnd() {
        SqlFrontEnd plain = new SqlFrontEnd(db).withTimeZone(timeZone).withVariables(variables.now())
                .withTemporaryMacros(macros.now());
        return plain.withFiles(statementFiles.get()).withViewColumns(new ViewColumnTypes(() -> plain))
                .withPivotValues(planTimeQueries);
    }

    /** The session's time zone: UTC until a {@code SET TimeZone} of this engine's statements. */
    public java.time.ZoneId timeZone() {
        return timeZone;
    }

    /**
     * The directories under which {@code COPY table FROM 'file'} and a file in FROM may read files (none by
     * default: SQL then reads no file); a file is reached from one of them through no symbolic link.
     */
    public void allowCopyFrom(List<java.nio.file.Path> directories) {
        this.copyDirectories = List.copyOf(directories);
    }

    /**
     * The directories under which {@code COPY ... TO 'file'} may write files (none by default: SQL then writes no
     * file); a file is reached from one of them through no symbolic link.
     */
    public void allowCopyTo(List<java.nio.file.Path> directories) {
        this.copyToDirectories = List.copyOf(directories);
    }

    public Prepared prepare(String sql) {
        return prepare(sql, (Map<Integer, Genome>) null);
    }

    /**
     * Prepares a query with {@code parameters} bound to its {@code ?}; not tuned (a tuner would run the text
     * without its values).
     */
    Prepared prepare(String sql, Parameters parameters) {
        if (parameters.isEmpty()) {
            return prepare(sql);
        }
        long t0 = System.nanoTime();
        return prepare(frontEnd().plan(parameters.bind(SqlFrontEnd.parse(sql)), sql), null, null, t0);
    }

    /** The pipelines of a query, planned but not compiled. */
    public QueryPlan plan(String sql) {
        return PhysicalPlanner.plan(Optimizer.optimize(computed(frontEnd().plan(sql)), skew, plansForGpu()));
    }

    /**
     * The pipelines of a query as planned for {@code target}, on any machine: a plan for the GPU builds its hash
     * tables over unique keys where an order allows it.
     */
    public QueryPlan plan(String sql, Device target) {
        return PhysicalPlanner.plan(Optimizer.optimize(computed(frontEnd().plan(sql)), skew, target != Device.CPU));
    }

    /** Prepares a query; {@code cudaGenomes} overrides the default CUDA genome of some pipelines (null: none). */
    public Prepared prepare(String sql, Map<Integer, Genome> cudaGenomes) {
        long t0 = System.nanoTime();
        return prepare(frontEnd().plan(sql), sql, cudaGenomes, t0);
    }

    /** {@code logical} with its recursive unions computed ({@link RecursiveQueries}). */
    private SqlFrontEnd.LogicalPlan computed(SqlFrontEnd.LogicalPlan logical) {
        return RecursiveQueries.computed(logical, this, statementFiles.get());
    }

    /** Whether this engine plans for the GPU: asked for, or {@code auto} on a machine with one. */
    private boolean plansForGpu() {
        if (device == Device.CPU) {
            return false;
        }
        if (device == Device.GPU) {
            return true;
        }
        try {
            devices.gpu();
            return true;
        } catch (DeviceException | LinkageError e) {
            return false;
        }
    }

    /** A query planned already, prepared (not tuned). */
    Prepared prepare(SqlFrontEnd.LogicalPlan logical) {
        return prepare(logical, null, null, System.nanoTime());
    }

    /** The rows of a query planned already, as a statement's result (RETURNING's). */
    QueryResult result(SqlFrontEnd.LogicalPlan logical, QueryCancel cancel) {
        return run(prepare(logical, null, null, System.nanoTime()), null, cancel);
    }

    /** The temporary database of the statement running on this thread ({@link #withFiles}), or null. */
    FileTableLoader statementFiles() {
        return statementFiles.get();
    }

    /** Runs the query of a statement (the rows a data change writes), planned already; null sql: not tuned. */
    QueryExecutor.Ran runLogical(SqlFrontEnd.LogicalPlan logical, QueryCancel cancel) {
        return runRelation(prepare(logical, null, null, System.nanoTime()), null, cancel);
    }

    Prepared prepare(SqlFrontEnd.LogicalPlan logical, String sql, Map<Integer, Genome> cudaGenomes, long t0) {
        return prepare(logical, sql, cudaGenomes, t0, false);
    }

    /** {@code countRows}: the JVM code counts each operation's rows (EXPLAIN ANALYZE). */
    private Prepared prepare(SqlFrontEnd.LogicalPlan logical, String sql, Map<Integer, Genome> cudaGenomes, long t0,
                             boolean countRows) {
        QueryPlan plan = PhysicalPlanner.plan(Optimizer.optimize(computed(logical), skew, plansForGpu()));
        QueryTuner t = tuner;
        boolean tuned = t != null && sql != null;
        HostSide host = new HostSide(() -> {
            GenomeChooser.Choice choice = chooser.choose(plan);
            if (tuned) {
                choice = t.tune(db, sql, plan, choice, chooser, workers);
            }
            return new HostSide.Made(choice.genomes(), choice.origins(),
                    devices.host().query(plan, choice.genomes(), countRows));
        });
        if (tuned) {
            host.get(); // the tuner runs first, as it always did
        }
        Backend.Query gpu = null;
        String notice = null;
        String jvmWhy = "the CPU was asked for";
        Map<Integer, String> gpuOrigins = new java.util.TreeMap<>();
        Placement placement = null;
        if (device != Device.CPU) {
            try {
                Accelerator cuda = devices.gpu();
                // the GPU profile's genomes, then the caller's overrides
                GenomeChooser.Choice chosenCuda = gpuChooser(cuda).choose(plan);
                Map<Integer, Genome> chosen = new java.util.TreeMap<>(chosenCuda.genomes());
                gpuOrigins.putAll(chosenCuda.origins());
                if (cudaGenomes != null) {
                    chosen.putAll(cudaGenomes);
                    cudaGenomes.keySet().forEach(id -> gpuOrigins.put(id, GenomeChooser.GIVEN));
                }
                gpu = cuda.query(plan, cuda.genomes(plan, chosen));
                placement = Placement.onGpuWherePossible(plan, cuda.device(), gpu);
                gpu.prepare(placement.on(plan, cuda.device()));
                notice = device == Device.GPU ? gpu.notice() : null;
                if (placement.offHost() == 0) {
                    jvmWhy = "no pipeline of this query has GPU code";
                    gpu = null;
                    placement = null;
                }
            } catch (DeviceException | LinkageError e) {
                // auto means "the GPU when there is one": no GPU is not worth a word then
                notice = device == Device.GPU ? "ran on the JVM: " + DeviceException.describe(e) : null;
                jvmWhy = "the GPU cannot be used: " + DeviceException.describe(e);
                gpu = null;
                placement = null;
            }
        }
        if (placement == null) {
            placement = Placement.jvm(plan, jvmWhy);
        }
        // JVM genomes and code only for the pipelines placed on the host; none at all for a query wholly on the GPU
        List<Pipeline> onHost = placement.on(plan, Intermediate.HOST);
        if (!onHost.isEmpty()) {
            host.get().query().prepare(onHost);
        }
        return new Prepared(plan, host, placement, logical.fieldNames(), System.nanoTime() - t0, gpu, notice,
                gpuOrigins, StatementSequences.calledIn(logical.rel()));
    }

    /**
     * The same prepared query with other CUDA genomes ({@code cudaGenomes}: every pipeline's, or some of them over
     * the defaults): plans and JVM code are reused, only the kernels are emitted and loaded anew. For measuring
     * many GPU variants of one query.
     */
    public Prepared withCudaGenomes(Prepared base, Map<Integer, Genome> cudaGenomes) {
        long t0 = System.nanoTime();
        QueryPlan plan = base.plan();
        Accelerator cuda = devices.gpu();
        Backend.Query gpu = cuda.query(plan, cuda.genomes(plan, cudaGenomes));
        Placement placement = Placement.onGpuWherePossible(plan, cuda.device(), gpu);
        gpu.prepare(placement.on(plan, cuda.device()));
        boolean none = placement.offHost() == 0;
        if (none) {
            placement = Placement.jvm(plan, "no pipeline of this query has GPU code");
        }
        List<Pipeline> onHost = placement.on(plan, Intermediate.HOST);
        if (!onHost.isEmpty()) {
            base.jvm().prepare(onHost);
        }
        Map<Integer, String> given = new java.util.TreeMap<>();
        cudaGenomes.keySet().forEach(id -> given.put(id, GenomeChooser.GIVEN));
        return new Prepared(plan, base.host(), placement, base.names(), System.nanoTime() - t0, none ? null : gpu,
                gpu.notice(), given, base.sequences());
    }

    /**
     * Compiles a query for the JVM with the genome of every pipeline chosen by {@code genomes} from the plan
     * (complete genomes, derived dimensions included), e.g. to run a plan under explicit variants.
     */
    public Prepared prepareJvm(String sql, Function<QueryPlan, Map<Integer, Genome>> genomes) {
        long t0 = System.nanoTime();
        QueryPlan plan = plan(sql);
        Map<Integer, Genome> chosen = genomes.apply(plan);
        Backend.Query jvm = devices.host().query(plan, chosen, false);
        Placement placement = Placement.jvm(plan, "JVM genomes were given");
        jvm.prepare(plan.pipelines());
        return new Prepared(plan, HostSide.of(chosen, Map.of(), jvm), placement,
                plan.resultColumns().stream().map(ColumnInfo::name).toList(), System.nanoTime() - t0, null, null,
                Map.of(), false);
    }

    /**
     * Compiles {@code plan} for the JVM under {@code genomes} (complete ones), each pipeline's class given by
     * {@code classes} (class name, source; a class of the JVM's generated code): a tuner's own cache, whose classes
     * can be unloaded once unused.
     */
    public Prepared prepareJvm(QueryPlan plan, Map<Integer, Genome> genomes,
                               BiFunction<String, String, Class<?>> classes) {
        long t0 = System.nanoTime();
        for (Pipeline pl : plan.pipelines()) {
            if (genomes.get(pl.id()) == null) {
                throw new IllegalArgumentException("no genome for pipeline " + pl.id());
            }
        }
        Backend.Query jvm = devices.host().query(plan, genomes, classes);
        return new Prepared(plan, HostSide.of(genomes, Map.of(), jvm), Placement.jvm(plan, "JVM genomes were given"),
                plan.resultColumns().stream().map(ColumnInfo::name).toList(), System.nanoTime() - t0, null, null,
                Map.of(), false);
    }

    public QueryResult run(Prepared p) {
        return run(p, null, null);
    }

    /**
     * Whether every query from now on times its kernels on the GPU ({@link io.tessera.backend.KernelTiming}): the
     * kernel time that {@code --timing} shows. Off by default: a plain run records no timing events.
     */
    public void timeKernels(boolean on) {
        executor.timeKernels(on);
    }

    /**
     * Runs a prepared query with {@code option} (null: none) set for the devices' backends: GPU tuning while the
     * query runs hands one GPU pipeline's input in blocks to its block kernels so.
     */
    public QueryResult run(Prepared p, RunOption<?> option) {
        return run(p, option, null);
    }

    /** Runs a prepared query; {@code cancel} (null: none) stops it with {@link QueryCancelledException}. */
    public QueryResult run(Prepared p, QueryCancel cancel) {
        return run(p, null, cancel);
    }

    private QueryResult run(Prepared p, RunOption<?> option, QueryCancel cancel) {
        long t0 = System.nanoTime();
        QueryExecutor.Ran ran = runRelation(p, option, cancel);
        return new QueryResult(ran.columns(), ResultRows.all(ran, cancel, timeZone), p.compileNanos(), System.nanoTime() - t0, ran.execution());
    }

    private QueryExecutor.Ran runRelation(Prepared p, RunOption<?> option, QueryCancel cancel) {
        try {
            return sequences.run(p.sequences(), counters -> executor.run(p, option, cancel, counters));
        } catch (ArithmeticException e) {
            throw new SqlError("cannot compute the query: " + (e.getMessage() == null ? "arithmetic error" : e.getMessage()
                    .replace("integer overflow", "numeric overflow").replace("long overflow", "numeric overflow")), e);
        }
    }

    /** The pipelines of a query with the genome of each, and where each runs and why (EXPLAIN). */
    public String explain(String sql) {
        return ExplainText.plan(prepare(sql), null);
    }

    /** The generated source of every pipeline on the device it runs on (EXPLAIN CODE). */
    public String explainCode(String sql) {
        return ExplainText.code(prepare(sql));
    }

    /**
     * An EXPLAIN statement's text, one row per line. EXPLAIN ANALYZE prepares the query with code that counts
     * each operation's rows, runs it (its rows are read out, then dropped) and shows the counts beside the estimates.
     */
    private QueryResult explain(Statement.Explain e, Parameters parameters, QueryCancel cancel) {
        boolean code = e.kind() == Statement.Explain.Kind.CODE;
        // an analyzed query is not tuned: a tuner would measure code with counters
        Prepared p = !e.analyze() ? prepare(e.query(), parameters)
                : prepare(frontEnd().plan(parameters.bind(SqlFrontEnd.parse(e.query())), e.query()), null, null,
                        System.nanoTime(), true);
        ExplainText.AnalyzedRun run = null;
        if (e.analyze() && !code) {
            long t1 = System.nanoTime();
            QueryExecutor.Ran ran = runRelation(p, null, cancel);
            int n = ResultRows.readOut(ran, cancel, timeZone);
            run = new ExplainText.AnalyzedRun(ran.actuals(), n, System.nanoTime() - t1, ran.execution().device());
        }
        String text = code ? ExplainText.code(p) : e.json() ? ExplainText.json(p, run) : ExplainText.plan(p, run);
        return ResultRows.lines(code ? "code" : "plan", text, p.compileNanos(), run == null ? 0 : run.nanos());
    }
}
