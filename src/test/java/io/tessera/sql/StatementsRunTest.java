package io.tessera.sql;

import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The statements of {@link StatementParser} run by the engine: what each does, and the errors it names. */
class StatementsRunTest {

    @TempDir
    Path dir;

    private static String error(Tessera t, String sql) {
        return assertThrows(SqlError.class, () -> t.query(sql)).getMessage();
    }

    @Test
    void createQueryExplainAndDrop() {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            // a reserved word is a name when quoted, as in a query; day is no reserved word
            t.query("create table Prices (id integer not null, \"Amount\" decimal(12,2), day date, \"from\" int,"
                    + " tag varchar(8));");
            // names keep the case they were written in, and are found ignoring it
            assertEquals("Prices(id INTEGER NOT NULL, Amount DECIMAL(12,2), day DATE, from INTEGER, tag VARCHAR)",
                    t.database().table("prices").schema().toString());
            assertEquals(0, t.query("create table if not exists prices (x int)").rowCount());
            assertEquals("table prices already exists", error(t, "CREATE TABLE prices (x int)"));
            assertEquals(0L, ((Number) t.query("select count(*) from PRICES where amount > 1").get(0, 0)).longValue());

            QueryResult plan = t.query("explain select tag, sum(amount) from prices group by tag");
            assertEquals("plan", plan.columns().getFirst().name());
            assertTrue(plan.rows().stream().anyMatch(r -> ((String) r[0]).startsWith("result: r")), "EXPLAIN's plan");
            QueryResult same = t.query("EXPLAIN PLAN FOR select tag, sum(amount) from prices group by tag;");
            assertEquals(plan.rowCount(), same.rowCount());
            QueryResult code = t.query("explain code select tag, sum(amount) from prices group by tag");
            assertEquals("code", code.columns().getFirst().name());
            assertTrue(code.rowCount() > plan.rowCount(), "EXPLAIN CODE shows the generated source");

            t.query("drop table prices");
            assertFalse(t.database().hasTable("prices"));
            assertEquals("no table prices", error(t, "drop table prices"));
            assertEquals(0, t.query("drop table if exists prices").rowCount());
        }
    }

    @Test
    void errorsNameThePosition() {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            assertEquals("CREATE TABLE odd name: invalid table name 'odd name': use letters, digits and underscores,"
                    + " not starting with a digit", error(t, "create table \"odd name\" (a int)"));
            assertTrue(error(t, "create table t (a int,\n b)").startsWith("CREATE TABLE t: column b needs a type"
                    + " at line 2, column 2"));
            assertTrue(error(t, "create table t (a int, b hugeint)").startsWith("CREATE TABLE t: unsupported column type"
                    + " hugeint at line 1, column 26"));
            // the query of an EXPLAIN is checked as a query is
            assertTrue(error(t, "explain select nope from nowhere").contains("Object 'nowhere' not found"));
            assertEquals("syntax error at line 1, column 24: \"from\" is a reserved word; quote it as \"from\"",
                    error(t, "create table t (a int, from date)"));
            assertFalse(t.database().hasTable("t"));
        }
    }

    @Test
    void showAllTablesListsEachTableWithItsColumns() {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("create table b (x integer not null, y varchar)");
            t.query("create table a (z double)");
            for (String sql : new String[] {"SHOW ALL TABLES", "pragma show_tables_expanded"}) {
                QueryResult r = t.query(sql);
                assertEquals("[database, schema, name, column_names, column_types, temporary]",
                        r.columns().stream().map(c -> c.name()).toList().toString(), sql);
                assertEquals(2, r.rowCount(), sql);
                assertEquals("main a [z] [DOUBLE] false", row(r, 0), sql);
                assertEquals("main b [x, y] [INTEGER, VARCHAR] false", row(r, 1), sql);
            }
        }
    }

    /** A row of SHOW ALL TABLES without its first column (the database, named by its directory). */
    private static String row(QueryResult r, int i) {
        StringBuilder b = new StringBuilder();
        for (int c = 1; c < r.columns().size(); c++) {
            b.append(c > 1 ? " " : "").append(r.get(i, c));
        }
        return b.toString();
    }
}
