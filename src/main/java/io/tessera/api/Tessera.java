package io.tessera.api;

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

    /** Runs one SQL statement (a query, CREATE TABLE, DROP TABLE, EXPLAIN) and returns its rows. */
    public QueryResult query(String sql) {
        return engine.execute(sql);
    }

    /** The engine behind {@link #query}, for callers that compile once and run many times (benchmarks). */
    public io.tessera.exec.QueryEngine engine() {
        return engine;
    }

    @Override
    public void close() {
        db.close();
    }
}
