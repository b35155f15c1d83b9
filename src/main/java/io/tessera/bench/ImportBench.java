package io.tessera.bench;

import io.tessera.data.io.CsvSniffer;
import io.tessera.data.io.ImportException;
import io.tessera.data.io.ImportFormat;
import io.tessera.data.io.SourceFile;
import io.tessera.data.io.TableImporter;
import io.tessera.data.parquet.ParquetImporter;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * One file imported into a new table by Tessera ({@code tessera import}'s code) and by DuckDB
 * ({@code CREATE TABLE t AS SELECT * FROM 'file'}, then {@code CHECKPOINT}, into a new database file), in one
 * process on the same cores, alternating, each run into fresh files: wall time and the process's CPU time of each,
 * and the ratio of the medians. Tessera's table gets the column types DuckDB's got (or those given), so both store
 * the same values; both databases lie in the same work directory, so both write to the same disk.
 */
public final class ImportBench {

    /**
     * What to import: the file, its format (null: from its name), CSV's delimiter and header (null: DuckDB's and
     * Tessera's sniffing decide), the Tessera table's columns (null: DuckDB's types), the threads of Tessera's import.
     */
    public record Setup(Path file, ImportFormat format, boolean parquet, Byte delimiter, Boolean header,
                        String columns, int threads, int runs, Path work) {
    }

    /** One run of one engine: wall and CPU seconds, rows, and a note on where the time went. */
    public record Run(String engine, double wallSeconds, double cpuSeconds, long rows, String detail) {
    }

    private ImportBench() {
    }

    /** Runs the benchmark, printing each run on {@code progress}; returns every run, DuckDB's and Tessera's. */
    public static List<Run> run(Setup s, PrintStream progress) throws IOException, SQLException {
        Files.createDirectories(s.work());
        List<Run> runs = new ArrayList<>();
        TableSchema schema = null;
        for (int i = 0; i < s.runs(); i++) {
            Path duckFile = s.work().resolve("duckdb-" + i + ".duckdb");
            Path db = s.work().resolve("tessera-" + i);
            deleteTree(duckFile); // a run stopped before left them
            Files.deleteIfExists(s.work().resolve("duckdb-" + i + ".duckdb.wal"));
            deleteTree(db);
            Run d = duckdb(s, duckFile);
            if (schema == null) {
                schema = s.columns() != null ? TableSchema.parse("t", s.columns()) : duckdbSchema(duckFile);
            }
            deleteTree(duckFile);
            Files.deleteIfExists(s.work().resolve("duckdb-" + i + ".duckdb.wal"));
            progress.println(line(d));
            runs.add(d);
            Run t = tessera(s, schema, db);
            deleteTree(db);
            progress.println(line(t));
            runs.add(t);
        }
        return runs;
    }

    private static Run duckdb(Setup s, Path file) throws SQLException {
        String source = "'" + s.file().toAbsolutePath().toString().replace("'", "''") + "'";
        if (!s.parquet()) {
            StringBuilder csv = new StringBuilder("read_csv(").append(source);
            if (s.delimiter() != null) {
                csv.append(", delim = '").append(s.delimiter() == '\'' ? "''" : String.valueOf((char) (s.delimiter() & 0xff)))
                        .append('\'');
            }
            if (s.header() != null) {
                csv.append(", header = ").append(s.header());
            }
            source = csv.append(')').toString();
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
             Statement st = c.createStatement()) {
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            st.execute("CREATE TABLE t AS SELECT * FROM " + source);
            long t1 = System.nanoTime();
            st.execute("CHECKPOINT");
            long t2 = System.nanoTime();
            long cpu = cpuNanos() - cpu0;
            long rows;
            try (ResultSet r = st.executeQuery("SELECT count(*) FROM t")) {
                r.next();
                rows = r.getLong(1);
            }
            return new Run("duckdb", (t2 - t0) / 1e9, cpu / 1e9, rows, String.format(Locale.ROOT,
                    "CREATE TABLE AS %.2f s, CHECKPOINT %.2f s", (t1 - t0) / 1e9, (t2 - t1) / 1e9));
        }
    }

    /** The columns DuckDB's table got, as Tessera types (nullable, as DuckDB's are). */
    private static TableSchema duckdbSchema(Path file) throws SQLException {
        List<ColumnSchema> columns = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
             Statement st = c.createStatement();
             ResultSet r = st.executeQuery("SELECT column_name, data_type FROM information_schema.columns"
                     + " WHERE table_name = 't' ORDER BY ordinal_position")) {
            while (r.next()) {
                String name = r.getString(1);
                String type = r.getString(2);
                DataType t;
                try {
                    t = DataType.parse(type);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("DuckDB reads column " + name + " as " + type
                            + ", which Tessera cannot hold: give the columns with --columns", e);
                }
                columns.add(new ColumnSchema(name, t, true));
            }
        }
        return new TableSchema("t", columns);
    }

    private static Run tessera(Setup s, TableSchema schema, Path dir) {
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        TableImporter.Summary sum;
        try (Database db = Database.openOrCreate(dir)) {
            db.createTable(schema);
            if (s.parquet()) {
                sum = ParquetImporter.importFiles(db, "t", List.of(s.file()), s.threads(),
                        io.tessera.data.io.InvalidUtf8.ERROR);
            } else {
                CsvSniffer.Dialect d = sniff(s);
                TableImporter.Options o = TableImporter.Options.defaults().withThreads(s.threads())
                        .withFormat(s.format() != null ? s.format() : ImportFormat.CSV)
                        .withDelimiter(d.delimiter()).withHeader(d.header());
                sum = TableImporter.importFiles(db, "t", List.of(s.file()), o);
            }
        }
        long wall = System.nanoTime() - t0;
        long cpu = cpuNanos() - cpu0;
        return new Run("tessera", wall / 1e9, cpu / 1e9, sum.rows(), String.format(Locale.ROOT,
                "parse and write %.2f s, commit %.2f s", sum.parseNanos() / 1e9, sum.commitNanos() / 1e9));
    }

    /** The delimiter and header given, the others guessed as DuckDB guesses them (for files in FROM). */
    private static CsvSniffer.Dialect sniff(Setup s) {
        try (FileChannel ch = FileChannel.open(s.file(), StandardOpenOption.READ)) {
            return CsvSniffer.sniff(SourceFile.of(s.file()), ch, s.delimiter(), s.header());
        } catch (IOException e) {
            throw new ImportException(s.file().toString(), s.file() + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** The process's CPU time so far (all threads: DuckDB's native ones too), or 0 where the JVM does not tell. */
    private static long cpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }

    private static String line(Run r) {
        return String.format(Locale.ROOT, "  %-8s %8.2f s wall %8.2f s CPU  %,d rows  (%s)", r.engine(),
                r.wallSeconds(), r.cpuSeconds(), r.rows(), r.detail());
    }

    /** The report: medians of each engine's wall and CPU time, and Tessera's over DuckDB's. */
    public static String format(Setup s, List<Run> runs, long fileBytes) {
        double tw = median(runs, "tessera", Run::wallSeconds);
        double tc = median(runs, "tessera", Run::cpuSeconds);
        double dw = median(runs, "duckdb", Run::wallSeconds);
        double dc = median(runs, "duckdb", Run::cpuSeconds);
        long rows = runs.isEmpty() ? 0 : runs.getFirst().rows();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "import of %s (%.1f MB, %,d rows), %d run%s each, medians, %d cores%n",
                s.file().getFileName(), fileBytes / 1e6, rows, s.runs(), s.runs() == 1 ? "" : "s",
                Runtime.getRuntime().availableProcessors()));
        sb.append(String.format(Locale.ROOT, "%-8s %10s %10s%n", "engine", "wall s", "CPU s"));
        sb.append(String.format(Locale.ROOT, "%-8s %10.2f %10.2f%n", "tessera", tw, tc));
        sb.append(String.format(Locale.ROOT, "%-8s %10.2f %10.2f%n", "duckdb", dw, dc));
        sb.append(String.format(Locale.ROOT, "%-8s %10.2f %10.2f   (Tessera / DuckDB)%n", "ratio",
                dw > 0 ? tw / dw : 0, dc > 0 ? tc / dc : 0));
        return sb.toString();
    }

    private static double median(List<Run> runs, String engine, java.util.function.ToDoubleFunction<Run> f) {
        double[] v = runs.stream().filter(r -> r.engine().equals(engine)).mapToDouble(f).sorted().toArray();
        if (v.length == 0) {
            return 0;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        } catch (IOException e) {
            // a leftover in the work directory; the next run uses other names
        }
    }
}
