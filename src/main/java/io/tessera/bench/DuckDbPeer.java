package io.tessera.bench;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.storage.Column;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TypeKind;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB holding the same tables as a Tessera database: the peer of {@code tessera bench} and the reference of the
 * differential tests. Tables are copied with the same column types (INTEGER, BIGINT, DOUBLE, DECIMAL(p,s), DATE,
 * BOOLEAN, VARCHAR) and NULLs through DuckDB's appender, row ranges of 1M rows on all cores in parallel; the file
 * copy of {@link #open} through Parquet files where it can ({@link #load(DuckDBConnection, List, int, Path)}).
 * (Measured on 2 cores with 3M SSB lineorder rows: about 3.5 s into a DuckDB file, 2 s in memory; a CSV written
 * from Java and read with {@code read_csv} was within a third of that but needs a temporary file of several GB
 * at SF 10 and string escaping, so the appender stays.)
 *
 * <p>{@link #open(Database)} keeps the copy in {@code DIR/.duckdb/peer.duckdb} with a stamp of the tables it was
 * made from (names, schemas, row counts, generations) and reuses it while the stamp matches; {@link #inMemory}
 * loads into an in-memory DuckDB. {@link #query} returns rows as the same Java value kinds as Tessera's
 * {@link QueryResult}: Integer, Long, Double, BigDecimal, LocalDate, Boolean, String, null; DuckDB's HUGEINT sums
 * become Long (BigInteger only when they do not fit), SMALLINT/TINYINT become Integer.
 */
public final class DuckDbPeer implements AutoCloseable {

    static final String DIR_NAME = ".duckdb";
    static final String FILE_NAME = "peer.duckdb";
    static final String STAMP_NAME = "peer.stamp";
    private static final int STAMP_VERSION = 1;
    /** Rows per parallel load task. */
    private static final long RANGE_ROWS = 1L << 20;

    private final DuckDBConnection conn;
    private final boolean reused;
    private final long loadNanos;

    private DuckDbPeer(DuckDBConnection conn, boolean reused, long loadNanos) {
        this.conn = conn;
        this.reused = reused;
        this.loadNanos = loadNanos;
    }

    /** Whether DuckDB's JDBC driver can be loaded (the GPU machine's app carries it apart, so it may be absent). */
    public static boolean driverPresent() {
        try {
            Class.forName("org.duckdb.DuckDBDriver", false, DuckDbPeer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** An in-memory DuckDB with every table of {@code db} (tests, small data). */
    public static DuckDbPeer inMemory(Database db) {
        DuckDBConnection c = connect("jdbc:duckdb:");
        try {
            long t0 = System.nanoTime();
            load(c, db.tables(), loadThreads());
            return new DuckDbPeer(c, false, System.nanoTime() - t0);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    /** The DuckDB file beside the database ({@code DIR/.duckdb/peer.duckdb}), made or remade when out of date. */
    public static DuckDbPeer open(Database db) {
        return open(db, db.directory().resolve(DIR_NAME));
    }

    /** The DuckDB copy of {@code db} kept in folder {@code dir}, made or remade when out of date. */
    public static DuckDbPeer open(Database db, Path dir) {
        Path file = dir.resolve(FILE_NAME);
        Path stampFile = dir.resolve(STAMP_NAME);
        String stamp = stamp(db.tables());
        try {
            Files.createDirectories(dir);
            if (Files.isRegularFile(file) && Files.isRegularFile(stampFile)
                    && Files.readString(stampFile, StandardCharsets.UTF_8).equals(stamp)) {
                return new DuckDbPeer(connect("jdbc:duckdb:" + file.toAbsolutePath()), true, 0);
            }
            Files.deleteIfExists(stampFile);
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir.resolve(FILE_NAME + ".wal"));
            Path tmp = dir.resolve(FILE_NAME + ".tmp");
            Files.deleteIfExists(tmp);
            Files.deleteIfExists(dir.resolve(FILE_NAME + ".tmp.wal"));
            long t0 = System.nanoTime();
            DuckDBConnection c = connect("jdbc:duckdb:" + tmp.toAbsolutePath());
            try {
                load(c, db.tables(), loadThreads(), dir);
                try (Statement st = c.createStatement()) {
                    st.execute("CHECKPOINT");
                }
            } finally {
                closeQuietly(c);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(stampFile, stamp, StandardCharsets.UTF_8);
            long loaded = System.nanoTime() - t0;
            return new DuckDbPeer(connect("jdbc:duckdb:" + file.toAbsolutePath()), false, loaded);
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("cannot make the DuckDB copy of " + db.directory() + " in " + dir
                    + ": " + e.getMessage(), e);
        }
    }

    /** True when {@link #open} found an up-to-date copy and loaded nothing. */
    public boolean reused() {
        return reused;
    }

    /** Time spent copying the tables (0 when reused). */
    public long loadNanos() {
        return loadNanos;
    }

    public Connection connection() {
        return conn;
    }

    /**
     * The DuckDB this peer runs, as the loaded driver says at run time: {@code DuckDB v2.0.0 (JDBC driver 2.0.0.1)}.
     * The engine's version comes from the database; the driver's from its jar's manifest ({@code Bundle-Version}),
     * as its {@code getDriverVersion()} answers a constant 1.0.
     */
    public String version() {
        String engine;
        try {
            engine = conn.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            engine = "(version unknown: " + e.getMessage() + ")";
        }
        String driver = driverJarVersion();
        return "DuckDB " + engine + (driver == null ? "" : " (JDBC driver " + driver + ")");
    }

    private static String driverJarVersion() {
        try {
            java.security.CodeSource source = DuckDBConnection.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return null;
            }
            try (java.util.jar.JarFile jar = new java.util.jar.JarFile(Path.of(source.getLocation().toURI()).toFile())) {
                java.util.jar.Manifest m = jar.getManifest();
                return m == null ? null : m.getMainAttributes().getValue("Bundle-Version");
            }
        } catch (java.io.IOException | java.net.URISyntaxException | RuntimeException e) {
            return null; // a driver not in a jar file
        }
    }

    /** Limits DuckDB's worker threads (by default it uses every core). */
    public void threads(int n) {
        execute("SET threads = " + Math.max(1, n));
    }

    /** Runs a statement that returns no rows. */
    public void execute(String sql) {
        try (Statement st = conn.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB failed on: " + sql + "\n" + e.getMessage(), e);
        }
    }

    /** Runs a query; rows come back as Tessera's Java value kinds. compileNanos is 0 (DuckDB does not split it). */
    public QueryResult query(String sql) {
        long t0 = System.nanoTime();
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            List<ResultColumn> cols = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                cols.add(new ResultColumn(md.getColumnLabel(i), tesseraType(md.getColumnTypeName(i)),
                        md.isNullable(i) != ResultSetMetaData.columnNoNulls));
            }
            List<Object[]> rows = new ArrayList<>();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = normalize(rs.getObject(i + 1));
                }
                rows.add(row);
            }
            return new QueryResult(cols, rows, 0, System.nanoTime() - t0);
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB failed on: " + sql + "\n" + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closeQuietly(conn);
    }

    // ---------------------------------------------------------------- types and values

    /** The DuckDB type of a Tessera column type. */
    public static String duckType(DataType t) {
        return switch (t.kind()) {
            case INTEGER -> "INTEGER";
            case BIGINT -> "BIGINT";
            case DOUBLE -> t.isReal() ? "FLOAT" : "DOUBLE";
            case DECIMAL -> "DECIMAL(" + t.precision() + "," + t.scale() + ")";
            case DATE -> "DATE";
            case TIMESTAMP -> "TIMESTAMP";
            case TIMESTAMP_TZ -> "TIMESTAMPTZ";
            case TIME -> "TIME";
            case BOOLEAN -> "BOOLEAN";
            case VARCHAR -> "VARCHAR";
        };
    }

    private static final Pattern DECIMAL = Pattern.compile("DECIMAL\\((\\d+),\\s*(\\d+)\\)");

    /** The Tessera type closest to a DuckDB result type (wide DECIMALs are capped at precision 18). */
    static DataType tesseraType(String duckTypeName) {
        String t = duckTypeName == null ? "" : duckTypeName.toUpperCase(Locale.ROOT);
        Matcher m = DECIMAL.matcher(t);
        if (m.matches()) {
            int p = Math.min(Integer.parseInt(m.group(1)), DataType.MAX_DECIMAL_PRECISION);
            int s = Math.min(Integer.parseInt(m.group(2)), p);
            return DataType.decimal(p, s);
        }
        return switch (t) {
            case "INTEGER", "SMALLINT", "TINYINT", "UTINYINT", "USMALLINT" -> DataType.INTEGER;
            case "BIGINT", "HUGEINT", "UINTEGER", "UBIGINT", "UHUGEINT" -> DataType.BIGINT;
            case "DOUBLE" -> DataType.DOUBLE;
            case "FLOAT", "REAL" -> DataType.REAL;
            case "DATE" -> DataType.DATE;
            case "TIMESTAMP" -> DataType.TIMESTAMP;
            case "TIMESTAMP WITH TIME ZONE" -> DataType.TIMESTAMP_TZ;
            case "TIME" -> DataType.TIME;
            case "BOOLEAN" -> DataType.BOOLEAN;
            default -> DataType.VARCHAR;
        };
    }

    /** A JDBC value as the Java kind Tessera returns for the same SQL type. */
    public static Object normalize(Object v) {
        if (v == null || v instanceof Integer || v instanceof Long || v instanceof Double || v instanceof Float
                || v instanceof String
                || v instanceof Boolean || v instanceof BigDecimal || v instanceof java.time.LocalDate
                || v instanceof java.time.LocalDateTime || v instanceof java.time.LocalTime) {
            return v;
        }
        if (v instanceof Short s) {
            return (int) s;
        }
        if (v instanceof Byte b) {
            return (int) b;
        }
        if (v instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (v instanceof java.sql.Timestamp ts) {
            return ts.toLocalDateTime();
        }
        if (v instanceof java.time.OffsetDateTime odt) { // a TIMESTAMP WITH TIME ZONE: its instant, at UTC
            return odt.withOffsetSameInstant(java.time.ZoneOffset.UTC);
        }
        return v;
    }

    // ---------------------------------------------------------------- loading

    private static int loadThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** Stamp of the tables a copy is made from: any change of schema, rows or generation invalidates it. */
    static String stamp(List<Table> tables) {
        StringBuilder sb = new StringBuilder("tessera-duckdb-peer " + STAMP_VERSION + "\n");
        tables.stream().sorted(Comparator.comparing(Table::name)).forEach(t -> sb.append(t.name()).append(' ')
                .append(t.rowCount()).append(' ').append(t.generation()).append(' ').append(t.schema()).append('\n'));
        return sb.toString();
    }

    private static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static void load(DuckDBConnection c, List<Table> tables, int threads) {
        createTables(c, tables);
        append(c, tables, threads);
    }

    /**
     * As {@link #load(DuckDBConnection, List, int)}, each table of flat columns through a Parquet file that Tessera
     * writes in folder {@code staging} and DuckDB reads ({@code INSERT ... SELECT * FROM read_parquet}), deleted
     * after: at TPC-H SF 10 the appender takes about 3 minutes on 16 cores, where lineitem's Parquet file is
     * written in about half a minute and read in 6 s. Tables with lists or structs, and every table where Tessera's
     * Parquet writer is not on the class path (the GPU machine's app leaves its jars out), go through the appender.
     */
    static void load(DuckDBConnection c, List<Table> tables, int threads, Path staging) {
        createTables(c, tables);
        List<Table> appended = new ArrayList<>();
        boolean parquet = parquetWriterPresent();
        int files = 0;
        for (Table t : tables) {
            if (!parquet || t.rowCount() == 0
                    || t.schema().columns().stream().anyMatch(col -> col.type().isNested())) {
                appended.add(t);
                continue;
            }
            Path file = staging.resolve("table-" + files++ + ".parquet").toAbsolutePath();
            try {
                io.tessera.data.parquet.ParquetExporter.export(t, file);
                try (Statement st = c.createStatement()) {
                    st.execute("INSERT INTO " + quote(t.name()) + " SELECT * FROM read_parquet('"
                            + file.toString().replace("'", "''") + "')");
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot load DuckDB table " + t.name() + ": " + e.getMessage(), e);
            } finally {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a staging file left behind is remade or replaced by the next copy
                }
            }
        }
        append(c, appended, threads);
    }

    /** Whether Tessera's Parquet writer (parquet-java's format classes) can be loaded. */
    static boolean parquetWriterPresent() {
        try {
            Class.forName("org.apache.parquet.format.SchemaElement", false, DuckDbPeer.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Creates each table in DuckDB, empty, with the columns' DuckDB types and NOT NULL where Tessera has it. */
    private static void createTables(DuckDBConnection c, List<Table> tables) {
        try (Statement st = c.createStatement()) {
            for (Table t : tables) {
                StringBuilder ddl = new StringBuilder("CREATE OR REPLACE TABLE ").append(quote(t.name())).append(" (");
                List<ColumnSchema> cs = t.schema().columns();
                for (int i = 0; i < cs.size(); i++) {
                    ColumnSchema col = cs.get(i);
                    ddl.append(i == 0 ? "" : ", ").append(quote(col.name())).append(' ').append(duckType(col.type()))
                            .append(col.nullable() ? "" : " NOT NULL");
                }
                st.execute(ddl.append(')').toString());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create DuckDB tables: " + e.getMessage(), e);
        }
    }

    /** Appends every row of the tables through DuckDB's appender, ranges of rows on {@code threads} threads. */
    private static void append(DuckDBConnection c, List<Table> tables, int threads) {
        record Range(Table table, long from, long to) {
        }
        List<Range> ranges = new ArrayList<>();
        for (Table t : tables) {
            for (long from = 0; from < t.rowCount(); from += RANGE_ROWS) {
                ranges.add(new Range(t, from, Math.min(t.rowCount(), from + RANGE_ROWS)));
            }
        }
        // biggest first, so the long ranges start early
        ranges.sort(Comparator.comparingLong((Range r) -> r.to - r.from).reversed());
        if (ranges.isEmpty()) {
            return;
        }
        int n = Math.min(threads, ranges.size());
        ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
            Thread th = new Thread(r, "duckdb-peer-load");
            th.setDaemon(true);
            return th;
        });
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (Range r : ranges) {
                fs.add(pool.submit(() -> {
                    try (DuckDBConnection dup = (DuckDBConnection) c.duplicate()) {
                        appendRange(dup, r.table(), r.from(), r.to());
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            throw new IllegalStateException("cannot load DuckDB tables: " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading DuckDB tables", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void appendRange(DuckDBConnection c, Table t, long from, long to) throws SQLException {
        List<Column> cols = t.columns();
        int nc = cols.size();
        MemorySegment[] data = new MemorySegment[nc];
        TypeKind[] kinds = new TypeKind[nc];
        int[] precision = new int[nc];
        io.tessera.storage.Dictionary[] dicts = new io.tessera.storage.Dictionary[nc];
        MemorySegment[] validity = new MemorySegment[nc];
        for (int i = 0; i < nc; i++) {
            Column col = cols.get(i);
            validity[i] = col.validity();
            kinds[i] = col.type().kind();
            precision[i] = col.type().precision();
            data[i] = col.data();
            if (kinds[i] == TypeKind.VARCHAR) {
                dicts[i] = col.dictionary(); // shared by every range of the column, not copied per range
            }
        }
        try (DuckDBAppender app = c.createAppender(DuckDBConnection.DEFAULT_SCHEMA, t.name())) {
            for (long row = from; row < to; row++) {
                app.beginRow();
                for (int i = 0; i < nc; i++) {
                    MemorySegment v = validity[i];
                    if (v != null && (v.get(Column.LONG, (row >>> 6) << 3) & (1L << (row & 63))) == 0) {
                        app.appendNull();
                        continue;
                    }
                    MemorySegment d = data[i];
                    switch (kinds[i]) {
                        case INTEGER -> app.append(d.get(Column.INT, row << 2));
                        case DATE -> app.appendEpochDays(d.get(Column.INT, row << 2));
                        case VARCHAR -> app.append(dicts[i].value(d.get(Column.INT, row << 2)));
                        case BIGINT -> app.append(d.get(Column.LONG, row << 3));
                        case TIMESTAMP, TIMESTAMP_TZ -> app.appendEpochMicros(d.get(Column.LONG, row << 3));
                        case TIME -> app.append(io.tessera.storage.Values.timeOf(d.get(Column.LONG, row << 3)));
                        case DOUBLE -> {
                            double x = d.get(Column.DOUBLE, row << 3);
                            if (precision[i] == DataType.REAL_FORM) {
                                app.append((float) x); // a REAL column: DuckDB's FLOAT
                            } else {
                                app.append(x);
                            }
                        }
                        case BOOLEAN -> app.append(d.get(ValueLayout.JAVA_BYTE, row) != 0);
                        case DECIMAL -> {
                            long u = d.get(Column.LONG, row << 3);
                            if (precision[i] <= 4) {
                                app.appendDecimal((short) u);
                            } else if (precision[i] <= 9) {
                                app.appendDecimal((int) u);
                            } else {
                                app.appendDecimal(u);
                            }
                        }
                    }
                }
                app.endRow();
            }
            app.flush();
        }
    }

    private static DuckDBConnection connect(String url) {
        try {
            return (DuckDBConnection) DriverManager.getConnection(url);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open DuckDB at " + url + ": " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // nothing left to do with a connection that will not close
        }
    }

    /** Removes the DuckDB copy kept beside a database. */
    public static void deleteCopy(Path databaseDir) {
        Path dir = databaseDir.resolve(DIR_NAME);
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }
}
