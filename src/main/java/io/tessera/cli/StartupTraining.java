package io.tessera.cli;

import io.tessera.bench.Queries;
import io.tessera.profile.CacheDirectory;
import io.tessera.profile.ProfileStore;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The training run of the startup cache (JDK 25's ahead-of-time cache, written by the launcher's {@code bin/aot-cache}
 * after each build): what typical processes do, done once in a JVM that records the classes they load and the
 * methods they run, so that later processes find those classes loaded and linked and their profiles ready.
 *
 * <p>It makes tiny SSB and TPC-H databases in a temporary directory, runs the benchmark queries through the command
 * line as users do ({@code tessera ssb}, {@code tessera sql -c} in each output format, data changes, {@code tables},
 * {@code describe}, an export and import of lineitem as Parquet and CSV) and a parameterized query through the JDBC driver, then deletes the directory. Everything it
 * prints is dropped, and Tessera's cache directory points into the temporary directory meanwhile, so the run
 * leaves no profile, device file or history behind. A step that fails is passed over (training warms, it checks
 * nothing), and named in the list {@link #train} returns, which its test expects empty.
 */
public final class StartupTraining {

    private StartupTraining() {
    }

    public static void main(String[] args) throws java.io.IOException {
        Path dir = Files.createTempDirectory("tessera-training");
        PrintStream out = System.out;
        PrintStream err = System.err;
        System.setProperty(CacheDirectory.PROPERTY, dir.resolve("cache").toString());
        System.setProperty(ProfileStore.PROPERTY, dir.resolve("profiles").toString());
        System.setProperty("tessera.history", dir.resolve("history").toString());
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), false, java.nio.charset.StandardCharsets.UTF_8);
        System.setOut(nowhere);
        System.setErr(nowhere);
        try {
            train(dir);
        } catch (RuntimeException e) {
            // what ran so far is trained
        } finally {
            System.setOut(out);
            System.setErr(err);
            Database.deleteTree(dir);
        }
        System.exit(0); // the workers' pool would keep the JVM up; the cache is written as it exits
    }

    /** Runs the training's steps with databases under {@code dir}; returns the steps that failed. */
    static List<String> train(Path dir) {
        List<String> failed = new ArrayList<>();
        Path ssb = dir.resolve("ssb");
        // generates SSB SF 0.01 and runs its 13 queries, as `tessera ssb` does at SF 1
        run(failed, "ssb", "--sf", "0.01", "--db", ssb.toString());
        Path tpch = dir.resolve("tpch");
        run(failed, "gen", "tpch", "--sf", "0.01", "--db", tpch.toString());
        imports(failed, dir, tpch);
        for (Queries.Query q : Queries.ssb()) {
            run(failed, "sql", "--db", ssb.toString(), "--timing", "-c", q.sql());
        }
        for (Queries.Query q : Queries.tpch()) {
            run(failed, "sql", "--db", tpch.toString(), "-c", q.sql());
        }
        String first = Queries.ssb().getFirst().sql();
        for (String format : List.of("csv", "json")) {
            run(failed, "sql", "--db", ssb.toString(), "--format", format, "-c", first);
        }
        run(failed, "sql", "--db", ssb.toString(), "-c", "explain " + first);
        run(failed, "sql", "--db", ssb.toString(), "-c", String.join("; ", dataChanges()));
        run(failed, "tables", "--db", ssb.toString());
        run(failed, "describe", "--db", ssb.toString(), "lineorder");
        jdbc(failed, ssb);
        return failed;
    }

    /**
     * TPC-H's lineitem exported as Parquet and as CSV and imported into tables of its columns in a database of their
     * own, as {@code tessera import} loads a file: the readers' and the table writer's classes are then in the cache.
     */
    private static void imports(List<String> failed, Path dir, Path tpch) {
        Path parquet = dir.resolve("lineitem.parquet");
        Path csv = dir.resolve("lineitem.csv");
        run(failed, "export", "--db", tpch.toString(), "--table", "lineitem", "--format", "parquet",
                parquet.toString());
        run(failed, "export", "--db", tpch.toString(), "--table", "lineitem", "--format", "csv", csv.toString());
        Path copies = dir.resolve("imports");
        try (Database from = Database.open(tpch); Database db = Database.openOrCreate(copies)) {
            List<ColumnSchema> columns = from.table("lineitem").schema().columns();
            db.createTable(new TableSchema("lineitem_parquet", columns));
            db.createTable(new TableSchema("lineitem_csv", columns));
        } catch (RuntimeException e) {
            failed.add("imports: " + e);
            return;
        }
        run(failed, "import", "--db", copies.toString(), "--table", "lineitem_parquet", parquet.toString());
        run(failed, "import", "--db", copies.toString(), "--table", "lineitem_csv", "--header", csv.toString());
    }

    /** A table made, written, read, changed and dropped again. */
    private static List<String> dataChanges() {
        List<String> s = new ArrayList<>();
        s.add("create table training_t (k integer not null, v varchar, d decimal(12,2))");
        s.add("insert into training_t values (1, 'a', 1.50), (2, 'b', 2.25), (3, null, null)");
        s.add("update training_t set v = 'c' where k = 3");
        s.add("select v, sum(d), count(*) from training_t group by v order by v");
        s.add("delete from training_t where k = 1");
        s.add("drop table training_t");
        return s;
    }

    private static void jdbc(List<String> failed, Path db) {
        String sql = "select d_year, sum(lo_revenue) from lineorder, ddate where lo_orderdate = d_datekey"
                + " and lo_quantity < ? group by d_year order by d_year";
        try (Connection c = DriverManager.getConnection("jdbc:tessera:" + db);
             PreparedStatement p = c.prepareStatement(sql)) {
            p.setInt(1, 25);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    rs.getInt(1);
                    rs.getLong(2);
                }
            }
            try (ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
                while (rs.next()) {
                    rs.getString("TABLE_NAME");
                }
            }
        } catch (Exception e) {
            failed.add("jdbc: " + e);
        }
    }

    private static void run(List<String> failed, String... args) {
        int rc;
        try {
            rc = Main.run(args);
        } catch (RuntimeException | OutOfMemoryError e) {
            rc = -1;
        }
        if (rc != 0) {
            failed.add(String.join(" ", args));
        }
    }
}
