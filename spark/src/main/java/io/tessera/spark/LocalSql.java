package io.tessera.spark;

import io.tessera.storage.Database;
import io.tessera.storage.Table;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Spark SQL in local mode over a Tessera database, for trying the connector without a Spark installation (the
 * {@code tessera-spark} launcher runs it): every table of the database becomes a temporary view read through the
 * connector, then each statement runs in Spark and its first rows are shown ({@code EXPLAIN SELECT ...} shows what
 * was pushed into Tessera).
 *
 * <pre>
 * LocalSql --db DIR [--device cpu|gpu|auto] [--master local[N]] [--rows N] [-c SQL]...
 * </pre>
 * Without {@code -c}, the statements are read from standard input, separated by lines that end in {@code ;}.
 */
public final class LocalSql {

    private LocalSql() {
    }

    /** What the command line asked for. */
    record Options(Path db, String device, String master, int rows, List<String> statements) {

        static Options parse(String[] args) {
            Path db = null;
            String device = "cpu";
            String master = "local[*]";
            int rows = 20;
            List<String> statements = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value" + USAGE);
                }
                String v = args[++i];
                switch (a) {
                    case "--db" -> db = Path.of(v);
                    case "--device" -> device = v;
                    case "--master" -> master = v;
                    case "--rows" -> rows = Integer.parseInt(v);
                    case "-c" -> statements.add(v);
                    default -> throw new IllegalArgumentException("unknown option " + a + USAGE);
                }
            }
            if (db == null) {
                throw new IllegalArgumentException("--db DIR is required" + USAGE);
            }
            return new Options(db, device, master, rows, statements);
        }
    }

    static final String USAGE = "\nusage: tessera-spark --db DIR [--device cpu|gpu|auto] [--master local[N]] [--rows N]"
            + " [-c SQL]...";

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("tessera-spark: " + e.getMessage());
            System.exit(2);
            return;
        }
        List<String> statements = o.statements().isEmpty() ? readStatements() : o.statements();
        SparkSession spark = SparkSession.builder().master(o.master()).appName("tessera-spark")
                .config("spark.ui.enabled", "false")
                .config("spark.log.level", "WARN")
                .getOrCreate();
        try {
            System.exit(run(spark, o, statements, System.out, System.err) ? 0 : 1);
        } finally {
            spark.stop();
        }
    }

    /** Registers the database's tables as views and runs the statements; whether every statement succeeded. */
    static boolean run(SparkSession spark, Options o, List<String> statements, PrintStream out, PrintStream err) {
        for (String table : tables(o.db())) {
            spark.read().format("tessera").option("path", o.db().toString()).option("table", table)
                    .option("device", o.device()).load().createOrReplaceTempView(table);
        }
        boolean ok = true;
        for (String sql : statements) {
            try {
                print(spark.sql(sql), o.rows(), out);
            } catch (Exception e) { // Spark's AnalysisException is a checked exception Scala does not declare
                err.println("tessera-spark: " + e.getMessage());
                ok = false;
            }
        }
        return ok;
    }

    /**
     * A result's first {@code max} rows, tab-separated under a line of column names (an EXPLAIN's plan is one value
     * of many lines), then how many rows there were or that more were left out.
     */
    static void print(Dataset<Row> result, int max, PrintStream out) {
        out.println(String.join("\t", result.columns()));
        List<Row> rows = result.takeAsList(max + 1);
        for (Row row : rows.subList(0, Math.min(max, rows.size()))) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length(); c++) {
                line.append(c == 0 ? "" : "\t").append(row.isNullAt(c) ? "NULL" : String.valueOf(row.get(c)));
            }
            out.println(line);
        }
        out.println(rows.size() > max ? "(the first " + max + " rows; --rows N shows more)"
                : rows.size() == 1 ? "(1 row)" : "(" + rows.size() + " rows)");
        out.flush();
    }

    /** The names of the database's tables. */
    static List<String> tables(Path db) {
        try (Database d = Database.open(db)) {
            return d.tables().stream().map(Table::name).toList();
        }
    }

    private static List<String> readStatements() throws java.io.IOException {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String s = current.toString().strip();
                out.add(s.substring(0, s.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }
}
