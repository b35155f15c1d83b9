package io.tessera.sqltest;

import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.storage.Database;

import java.nio.file.Path;

/**
 * The one place the runner touches the embedded entry point ({@link Tessera}): statements run through its public
 * {@code query}; genome runs, GPU runs and EXPLAIN go to the engine behind it.
 */
final class SqlSession implements AutoCloseable {

    /** Workers of the EXPLAIN engine: fixed, so golden plans do not depend on the machine's cores. */
    static final int EXPLAIN_WORKERS = 4;

    private final Tessera tessera;
    private QueryEngine gpu;

    private SqlSession(Tessera tessera) {
        this.tessera = tessera;
    }

    /** Where the {@code COPY} statements of the files read their data (and nothing else). */
    static final Path COPY_FILES = Path.of("src/test/resources/sql/copy");

    /** Where {@code COPY (query) TO} writes its files, and the files read them back (in the build's output). */
    static final Path COPY_OUT = Path.of("target/sqltest-copy-to");

    static SqlSession open(Path dir) {
        try {
            java.nio.file.Files.createDirectories(COPY_OUT);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new SqlSession(Tessera.openOrCreate(dir).allowCopyFrom(COPY_FILES, COPY_OUT).allowCopyTo(COPY_OUT));
    }

    QueryResult query(String sql) {
        return tessera.query(sql);
    }

    QueryEngine engine() {
        return tessera.engine();
    }

    Database database() {
        return tessera.database();
    }

    /**
     * An engine that plans for the GPU and puts the queries there (on the JVM where there is none), in the session's
     * time zone and with its variables and temporary macros.
     */
    QueryEngine gpuEngine() {
        if (gpu == null) {
            gpu = new QueryEngine(tessera.database(), 2, Device.GPU);
        }
        java.time.ZoneId zone = tessera.engine().timeZone();
        if (!zone.equals(gpu.timeZone())) {
            gpu.execute("SET TimeZone = '" + zone.getId() + "'"); // a zone id the session's own SET accepted
        }
        gpu.variables().useAll(tessera.engine().variables().now()); // the values the session's own SET VARIABLE computed
        gpu.macros().useAll(tessera.engine().macros().now()); // and its temporary macros
        return gpu;
    }

    /** EXPLAIN with default genomes only (no profile of this machine) and a fixed number of workers. */
    String explain(String sql) {
        return new QueryEngine(tessera.database(), EXPLAIN_WORKERS, Device.CPU, null).explain(sql);
    }

    @Override
    public void close() {
        if (gpu != null) {
            gpu.close();
        }
        tessera.close();
    }
}
