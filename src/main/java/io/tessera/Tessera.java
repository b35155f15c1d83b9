package io.tessera;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.RowSink;
import io.tessera.sql.Parameters;
import io.tessera.storage.Database;

import java.nio.file.Path;

/**
 * The embedded entry point: open a database directory, run SQL, read typed rows.
 *
 * <pre>{@code
 * try (Tessera t = Tessera.open(Path.of("ssb1"))) {
 *     QueryResult r = t.query("select count(*) from lineorder");
 *     long n = (Long) r.get(0, 0);
 * }
 * }</pre>
 */
public final class Tessera implements AutoCloseable {

    static {
        // the first query's one-time work begins on another core while the first database is opened
        io.tessera.exec.WarmUp.start();
    }

    private final Database db;
    private final io.tessera.exec.QueryEngine engine;

    private Tessera(Database db, io.tessera.exec.Device device) {
        this.db = db;
        this.engine = new io.tessera.exec.QueryEngine(db, java.lang.Runtime.getRuntime().availableProcessors(), device);
    }

    private Tessera(Database db) {
        this(db, io.tessera.exec.Device.CPU);
    }

    /** Opens an existing database directory. */
    public static Tessera open(Path dir) {
        return new Tessera(Database.open(dir));
    }

    /** Opens an existing database directory whose queries run on {@code device} (gpu, cpu, auto). */
    public static Tessera open(Path dir, io.tessera.exec.Device device) {
        return new Tessera(Database.open(dir), device);
    }

    /** Opens a database directory, creating an empty database when there is none. */
    public static Tessera openOrCreate(Path dir) {
        return new Tessera(Database.openOrCreate(dir));
    }

    public Database database() {
        return db;
    }

    /** The handles of the queries running now, for {@link #cancelRunning()}. */
    private final java.util.Set<QueryCancel> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Runs one SQL statement (a query, EXPLAIN, CREATE or DROP TABLE or VIEW, CREATE TABLE AS, INSERT, UPDATE,
     * DELETE, COPY) and returns its rows; a data change returns one row, {@code count}.
     */
    public QueryResult query(String sql) {
        return query(sql, new QueryCancel());
    }

    /**
     * Runs one SQL statement under {@code cancel}: another thread's {@link QueryCancel#cancel()} stops it, within
     * a morsel's or a kernel's time, with {@link io.tessera.api.QueryCancelledException} ("query cancelled"). The database and
     * this object stay usable for the next statement.
     */
    public QueryResult query(String sql, QueryCancel cancel) {
        running.add(cancel);
        try {
            return engine.execute(sql, cancel);
        } finally {
            running.remove(cancel);
        }
    }

    /**
     * Runs one SQL statement and hands its rows to {@code sink} in batches as they are read out, so a result need
     * not fit the heap as Java objects; returns the columns and times with no rows. {@code cancel} as for
     * {@link #query(String, QueryCancel)}, also checked between batches.
     */
    public QueryResult query(String sql, QueryCancel cancel, RowSink sink) {
        running.add(cancel);
        try {
            return engine.execute(sql, cancel, sink);
        } finally {
            running.remove(cancel);
        }
    }

    /**
     * Runs one query over a slice of a table: wherever the query names {@code slice.table()} it reads only the
     * slice's rows (one part of a table read in parts, as a cluster job's tasks do). Rows go to {@code sink} as for
     * {@link #query(String, QueryCancel, RowSink)}.
     */
    public QueryResult query(String sql, QueryCancel cancel, RowSink sink, io.tessera.api.TableSlice slice) {
        return query(sql, Parameters.NONE, cancel, sink, slice);
    }

    /**
     * {@link #query(String, QueryCancel, RowSink, io.tessera.api.TableSlice)} with {@code parameters} bound to the
     * query's {@code ?} marks, one value each in order: bound as values, never pasted into the SQL text.
     */
    public QueryResult query(String sql, Parameters parameters, QueryCancel cancel, RowSink sink,
                             io.tessera.api.TableSlice slice) {
        running.add(cancel);
        try {
            return engine.execute(sql, parameters, cancel, sink, slice);
        } finally {
            running.remove(cancel);
        }
    }

    /**
     * Lets {@code COPY table FROM 'file'} and the files in FROM ({@code FROM 'f.csv'}, {@code read_parquet}) read
     * files below these directories, reached through no symbolic link below them. By default SQL reads no file:
     * SQL text may come from people the application does not let read its files.
     */
    public Tessera allowCopyFrom(Path... directories) {
        engine.allowCopyFrom(java.util.List.of(directories));
        return this;
    }

    /**
     * Lets {@code COPY table TO 'file'} and {@code COPY (query) TO 'file'} create or overwrite files below these
     * directories, reached through no symbolic link below them. By default SQL writes no file; reading a directory
     * ({@link #allowCopyFrom}) does not allow writing there.
     */
    public Tessera allowCopyTo(Path... directories) {
        engine.allowCopyTo(java.util.List.of(directories));
        return this;
    }

    /** Cancels every statement running now through this object, from any thread; returns how many there were. */
    public int cancelRunning() {
        int n = 0;
        for (QueryCancel c : running) {
            c.cancel();
            n++;
        }
        return n;
    }

    /** The engine behind {@link #query}, for callers that compile once and run many times (benchmarks). */
    public io.tessera.exec.QueryEngine engine() {
        return engine;
    }

    /**
     * Opens the database in {@code dir}, creating an empty one when there is none, whose queries run on
     * {@code device}.
     */
    public static Tessera openOrCreate(Path dir, io.tessera.exec.Device device) {
        return new Tessera(Database.openOrCreate(dir), device);
    }

    /**
     * Whether {@code sql} is a statement that changes nothing (a query or an EXPLAIN) rather than one that changes the
     * database or the session (CREATE, DROP, INSERT, UPDATE, DELETE, COPY, SET).
     */
    public static boolean readsOnly(String sql) {
        io.tessera.sql.Statement st = io.tessera.sql.StatementParser.parse(sql);
        return st instanceof io.tessera.sql.Statement.Query || st instanceof io.tessera.sql.Statement.Explain;
    }

    /**
     * Whether {@code sql} is a statement that returns rows (a query, an EXPLAIN, or an INSERT, UPDATE or DELETE with
     * RETURNING) rather than a count or nothing.
     */
    public static boolean returnsRows(String sql) {
        io.tessera.sql.Statement st = io.tessera.sql.StatementParser.parse(sql);
        return st instanceof io.tessera.sql.Statement.Query || st instanceof io.tessera.sql.Statement.Explain
                || io.tessera.sql.DataChangeQueries.returnsRows(st);
    }

    /**
     * {@link #query(String, QueryCancel, RowSink)} with {@code parameters} bound to the statement's {@code ?} marks,
     * one value each in order (see {@link Parameters#of}): bound as values, never pasted into the SQL text.
     */
    public QueryResult query(String sql, Parameters parameters, QueryCancel cancel, RowSink sink) {
        running.add(cancel);
        try {
            return engine.execute(sql, parameters, cancel, sink);
        } finally {
            running.remove(cancel);
        }
    }

    /**
     * The result columns of {@code sql} and the type of each of its {@code ?} parameters, known from planning it
     * (nothing is compiled or run); columns null for a statement that is not a query or whose columns planning
     * cannot tell without values, a parameter type null where nothing in the statement gives it one.
     */
    public io.tessera.api.StatementShape describe(String sql) {
        return engine.describe(sql);
    }

    /**
     * The statements of a text that holds several separated by semicolons, in order ({@code select 1; select 2});
     * a semicolon inside a string, a quoted name or a comment separates nothing.
     */
    public static java.util.List<String> statements(String text) {
        return io.tessera.sql.StatementList.split(text);
    }

    /** How many {@code ?} parameters {@code sql} holds. */
    public static int parameterCount(String sql) {
        return Parameters.count(sql);
    }

    /** Closes the database and the devices opened for it (the GPU's runtime, where its queries used one). */
    @Override
    public void close() {
        try {
            engine.close();
        } finally {
            db.close();
        }
    }
}
