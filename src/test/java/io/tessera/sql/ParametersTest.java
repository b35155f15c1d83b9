package io.tessera.sql;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ?} parameters through the embedded API: counted from the tokens, bound by position as typed literal nodes
 * in every statement that plans a query (queries, EXPLAIN, INSERT, UPDATE, DELETE, CREATE TABLE AS), and refused
 * clearly when a value is missing, extra, or of a type Tessera has not.
 */
class ParametersTest {

    @TempDir
    Path dir;

    private static List<Object[]> run(Tessera t, String sql, Object... values) {
        List<Object[]> rows = new ArrayList<>();
        t.query(sql, Parameters.of(Arrays.asList(values)), new QueryCancel(), new RowSink() {
            @Override
            public void start(List<ResultColumn> columns) {
            }

            @Override
            public void rows(List<Object[]> batch) {
                rows.addAll(batch);
            }
        });
        return rows;
    }

    @Test
    void parametersAreCountedFromTokens() {
        assertEquals(0, Parameters.count("select '?', \"?\" -- ?\n /* ? */ from t"));
        assertEquals(3, Parameters.count("select ?, ? from t where a = ?"));
        assertEquals(2, Parameters.count("insert into t values (?, '?', ?)"));
    }

    @Test
    void everyStatementThatPlansAQueryBindsItsParameters() {
        try (Tessera t = Tessera.openOrCreate(dir.resolve("db"))) {
            t.query("create table p (a integer, d decimal(8,2), dt date, s varchar)");
            assertEquals(2L, run(t, "insert into p values (?, ?, ?, ?), (?, ?, ?, ?)", 1, new BigDecimal("2.50"),
                    LocalDate.of(2020, 1, 31), "x", 2, null, null, new Parameters.Null(DataType.VARCHAR)).get(0)[0]);
            assertEquals(1L, run(t, "update p set s = ? where a = ?", "it's", 2).get(0)[0]);
            assertEquals("it's", run(t, "select s from p where a = ?", 2).get(0)[0]);
            assertEquals(LocalDate.of(2020, 2, 1), run(t, "select dt + ? from p where d = ?", 1,
                    new BigDecimal("2.5")).get(0)[0]);
            assertEquals(1L, run(t, "create table q as select a * ? as b from p where a > ?", 10L, 1).get(0)[0]);
            assertEquals(20L, ((Number) run(t, "select b from q").get(0)[0]).longValue());
            String plan = run(t, "explain select count(*) from p where a = ?", 1).stream()
                    .map(r -> (String) r[0]).reduce("", (x, y) -> x + y + "\n");
            assertTrue(plan.contains("genome"), plan);
            assertEquals(1L, run(t, "delete from p where s = ? or s = ?", "'); drop table p; --", "it's").get(0)[0]);
            assertEquals(List.of("x"), run(t, "select s from p").stream().map(r -> r[0]).toList());
        }
    }

    /** Places where the planner wants a constant (LIMIT, ROUND's digits, a LIKE pattern) take a parameter too. */
    @Test
    void parametersStandWhereConstantsAreNeeded() {
        try (Tessera t = Tessera.openOrCreate(dir.resolve("db"))) {
            t.query("create table w (a integer, s varchar, x double)");
            t.query("insert into w values (1, 'apple', 1.25), (2, 'banana', 2.5), (3, 'cherry', 3.75)");
            assertEquals(List.of(1, 2), run(t, "select a from w order by a limit ?", 2).stream().map(r -> r[0]).toList());
            assertEquals(List.of(2, 3), run(t, "select a from w order by a limit ? offset ?", 5, 1).stream()
                    .map(r -> r[0]).toList());
            assertEquals(List.of("banana"), run(t, "select s from w where s like ?", "%an%").stream().map(r -> r[0])
                    .toList());
            assertEquals(1.3, run(t, "select round(x, ?) from w where a = ?", 1, 1).get(0)[0]);
            assertEquals(List.of(2), run(t, "select a from w where x between ? and ? and s in (?, ?)", 2.0, 3.0,
                    "banana", "kiwi").stream().map(r -> r[0]).toList());
            assertEquals("big", run(t, "select case when a > ? then ? else ? end from w where a = 3", 2, "big",
                    "small").get(0)[0]);
        }
    }

    @Test
    void missingExtraAndUnknownValuesAreRefused() {
        try (Tessera t = Tessera.openOrCreate(dir.resolve("db"))) {
            t.query("create table p (a integer)");
            SqlError none = assertThrows(SqlError.class, () -> t.query("select a from p where a = ?"));
            assertEquals("the statement has 1 parameter (?), 0 values were given: bind them through a prepared "
                    + "statement", none.getMessage());
            SqlError few = assertThrows(SqlError.class, () -> run(t, "select ? + ?", 1));
            assertEquals("the statement has 2 parameters (?), 1 value was given", few.getMessage());
            SqlError many = assertThrows(SqlError.class, () -> run(t, "select ?", 1, 2));
            assertEquals("the statement has 1 parameter (?), 2 values were given", many.getMessage());
            SqlError nan = assertThrows(SqlError.class, () -> run(t, "select ?", Double.NaN));
            assertEquals("parameter 1: NaN is out of range for DOUBLE", nan.getMessage());
            SqlError type = assertThrows(SqlError.class, () -> run(t, "select ?", new Object()));
            assertTrue(type.getMessage().startsWith("parameter 1: a value of java.lang.Object cannot be bound"),
                    type.getMessage());
            SqlError view = assertThrows(SqlError.class, () -> run(t, "create view v as select * from p where a = ?", 1));
            assertEquals("CREATE VIEW v: a view's query cannot hold parameters (?)", view.getMessage());
            QueryResult r = t.query("select count(*) from p");
            assertEquals(0L, r.get(0, 0));
        }
    }
}
