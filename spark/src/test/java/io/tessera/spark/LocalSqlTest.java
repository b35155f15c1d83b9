package io.tessera.spark;

import io.tessera.Tessera;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code tessera-spark} runs: the options, and statements in local Spark over every table of a database. */
class LocalSqlTest {

    @Test
    void optionsNeedADatabaseAndKnowEachOther() {
        LocalSql.Options o = LocalSql.Options.parse(new String[] {"--db", "/d", "-c", "select 1", "--rows", "5",
                "-c", "select 2", "--device", "auto"});
        assertEquals(Path.of("/d"), o.db());
        assertEquals(List.of("select 1", "select 2"), o.statements());
        assertEquals(5, o.rows());
        assertEquals("auto", o.device());
        assertEquals("local[*]", o.master());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LocalSql.Options.parse(new String[] {"-c", "x"}))
                .getMessage().startsWith("--db DIR is required"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> LocalSql.Options.parse(new String[] {"--db", "/d", "--bogus", "1"})).getMessage()
                .startsWith("unknown option --bogus"));
    }

    @Test
    void everyTableIsAViewAndEachStatementPrintsItsRows(@TempDir Path dir) {
        Path db = dir.resolve("db");
        try (Tessera t = Tessera.openOrCreate(db)) {
            t.query("create table items (id integer not null, name varchar)");
            t.query("insert into items values (1, 'a'), (2, NULL), (3, 'c')");
            t.query("create table other (x integer)");
        }
        assertEquals(List.of("items", "other"), LocalSql.tables(db).stream().sorted().toList());
        SparkSession spark = SparkSession.builder().master("local[1]").appName("tessera-local-sql")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            LocalSql.Options o = new LocalSql.Options(db, "cpu", "local[1]", 2, List.of());
            boolean ok = LocalSql.run(spark, o, List.of("select id, name from items order by id",
                    "select count(*) as n from other", "select * from nowhere"),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertFalse(ok, "the statement over a missing table failed");
        } finally {
            spark.stop();
        }
        assertEquals("id\tname\n1\ta\n2\tNULL\n(the first 2 rows; --rows N shows more)\nn\n0\n(1 row)\n",
                out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("nowhere"), err.toString(StandardCharsets.UTF_8));
    }
}
