package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every CAST checks the range of its target type, both for a constant that Calcite folds into a literal and for
 * values read from a column (the generated code), and fails naming the value and the type; SMALLINT and TINYINT are
 * checked integers. Values in range give DuckDB's answers.
 */
class CastRangeTest {

    private static final String COLUMNS = "id INTEGER NOT NULL, i INTEGER, b BIGINT, d DOUBLE, m DECIMAL(12,2), s VARCHAR";

    /** Rows whose values fit every target the queries below cast them to. */
    private static final Object[][] IN_RANGE = {
        {1, 127, 32767L, 2.5, new BigDecimal("-128.49"), "-32768"},
        {2, -128, -32768L, -2.5, new BigDecimal("999.99"), "  42 "},
        {3, null, null, null, null, null},
        {4, 0, 2147483647L, 9.2233720368547748E18, new BigDecimal("-0.50"), "127"},
    };

    private static String error(Tessera t, String sql) {
        Exception e = assertThrows(Exception.class, () -> t.query(sql), sql);
        return e.getMessage();
    }

    private static void assertOutOfRange(Tessera t, String sql, String value, String type) {
        String m = error(t, sql);
        assertTrue(m.contains("value " + value + " is out of range for " + type), sql + " gave: " + m);
    }

    @Test
    void constantCastsOutOfRangeFailNamingValueAndType(@TempDir Path dir) {
        TinyTables.write(dir, "t", COLUMNS, IN_RANGE);
        try (Tessera t = Tessera.open(dir)) {
            assertOutOfRange(t, "select cast(70000 as smallint)", "70000", "SMALLINT");
            assertOutOfRange(t, "select cast(-32769 as smallint)", "-32769", "SMALLINT");
            assertOutOfRange(t, "select cast(300 as tinyint)", "300", "TINYINT");
            assertOutOfRange(t, "select cast(123456 as decimal(5,2))", "123456", "DECIMAL(5,2)");
            assertOutOfRange(t, "select cast(999.995 as decimal(5,2))", "999.995", "DECIMAL(5,2)");
            assertOutOfRange(t, "select cast(3000000000 as integer)", "3000000000", "INTEGER");
            assertOutOfRange(t, "select cast(2147483647.5 as integer)", "2147483647.5", "INTEGER");
            assertOutOfRange(t, "select id from t where id = 1 and cast(i + 70000 as smallint) > 0", "70127", "SMALLINT");
        }
    }

    @Test
    void columnCastsOutOfRangeFailNamingValueAndType(@TempDir Path dir) {
        TinyTables.write(dir, "t", COLUMNS, IN_RANGE);
        TinyTables.write(dir, "big", COLUMNS,
                new Object[]{1, 70000, 3000000000L, 1e300, new BigDecimal("123456.00"), "99999999999"},
                new Object[]{2, 300, -9223372036854775807L, Double.NaN, new BigDecimal("3000000000.50"), "70000"},
                new Object[]{3, 1, 1L, 9.3e18, new BigDecimal("1.00"), "1e400"},
                new Object[]{4, 1, 1L, Double.POSITIVE_INFINITY, new BigDecimal("1.00"), "123456.7"});
        try (Tessera t = Tessera.open(dir)) {
            // INTEGER -> SMALLINT, TINYINT; BIGINT -> INTEGER, SMALLINT
            assertOutOfRange(t, "select cast(i as smallint) from big where id = 1", "70000", "SMALLINT");
            assertOutOfRange(t, "select cast(i as tinyint) from big where id = 2", "300", "TINYINT");
            assertOutOfRange(t, "select cast(b as integer) from big where id = 1", "3000000000", "INTEGER");
            assertOutOfRange(t, "select cast(b as smallint) from big where id = 2", "-9223372036854775807", "SMALLINT");
            // DOUBLE -> INTEGER, BIGINT, DECIMAL: out of range, NaN, infinity
            assertOutOfRange(t, "select cast(d as integer) from big where id = 1", "1.0E300", "INTEGER");
            assertOutOfRange(t, "select cast(d as bigint) from big where id = 2", "NaN", "BIGINT");
            assertOutOfRange(t, "select cast(d as bigint) from big where id = 3", "9.3E18", "BIGINT");
            assertOutOfRange(t, "select cast(d as bigint) from big where id = 4", "Infinity", "BIGINT");
            assertOutOfRange(t, "select cast(d as decimal(10,2)) from big where id = 3", "9.3E18", "DECIMAL(10,2)");
            assertOutOfRange(t, "select cast(d as decimal(10,2)) from big where id = 2", "NaN", "DECIMAL(10,2)");
            // INTEGER, BIGINT, DECIMAL -> DECIMAL(p,s): |unscaled| < 10^p
            assertOutOfRange(t, "select cast(i as decimal(5,2)) from big where id = 1", "70000", "DECIMAL(5,2)");
            assertOutOfRange(t, "select cast(b as decimal(12,3)) from big where id = 1", "3000000000", "DECIMAL(12,3)");
            assertOutOfRange(t, "select cast(m as decimal(5,2)) from big where id = 1", "123456.00", "DECIMAL(5,2)");
            // DECIMAL -> INTEGER, SMALLINT
            assertOutOfRange(t, "select cast(m as integer) from big where id = 2", "3000000000.50", "INTEGER");
            assertOutOfRange(t, "select cast(m as smallint) from big where id = 1", "123456.00", "SMALLINT");
            // strings -> numbers whose text overflows
            assertOutOfRange(t, "select cast(s as integer) from big where id = 1", "99999999999", "INTEGER");
            assertOutOfRange(t, "select cast(s as smallint) from big where id = 2", "70000", "SMALLINT");
            assertOutOfRange(t, "select cast(s as double) from big where id = 3", "1e400", "DOUBLE");
            String m = error(t, "select cast(s as decimal(5,2)) from big where id = 4");
            assertTrue(m.contains("123456.7") && m.contains("DECIMAL(5,2)"), m);
            // SMALLINT arithmetic stays in SMALLINT's range
            assertOutOfRange(t, "select cast(b as smallint) * cast(b as smallint) from t where id = 1",
                    "1073676289", "SMALLINT");
        }
    }

    @Test
    void castsInRangeGiveDuckDbsAnswers(@TempDir Path dir) throws Exception {
        TinyTables.write(dir, "t", COLUMNS, IN_RANGE);
        List<String> queries = List.of(
                "select id, cast(i as tinyint), cast(b as smallint), cast(i as smallint) from t where id < 4 order by id",
                "select id, cast(b as integer), cast(d as bigint), cast(m as integer) from t order by id",
                "select id, cast(d as integer), cast(d as decimal(4,1)), cast(m as decimal(5,2)) from t where id < 4 order by id",
                "select id, cast(m as smallint), cast(i as decimal(5,2)), cast(m as decimal(5,1)) from t order by id",
                "select id, cast(s as smallint), cast(s as tinyint) from t where id <> 1 order by id",
                "select id, cast(s as integer), cast(s as decimal(7,2)) from t order by id",
                "select cast(32767 as smallint), cast(-128 as tinyint), cast(999.99 as decimal(5,2)), cast(-2147483648 as integer)",
                "select cast(2.5 as integer), cast(-2.5 as integer), cast(2.5e0 as integer), cast(0.125 as decimal(3,2))");
        try (Tessera t = Tessera.open(dir); Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             Statement st = duck.createStatement()) {
            st.execute("create table t (id INTEGER NOT NULL, i INTEGER, b BIGINT, d DOUBLE, m DECIMAL(12,2), s VARCHAR)");
            for (Object[] r : IN_RANGE) {
                st.execute("insert into t values (" + r[0] + ", " + r[1] + ", " + r[2] + ", " + r[3] + ", " + r[4] + ", "
                        + (r[5] == null ? "null" : "'" + r[5] + "'") + ")");
            }
            for (String q : queries) {
                assertEquals(duckRows(st, q), rows(t.query(q)), q);
            }
        }
    }

    @Test
    void smallintAndTinyintCastsHaveTheirTypes(@TempDir Path dir) {
        TinyTables.write(dir, "t", COLUMNS, IN_RANGE);
        try (Tessera t = Tessera.open(dir)) {
            QueryResult r = t.query("select cast(i as smallint), cast(i as tinyint), cast(70 as smallint) from t where id = 1");
            assertEquals(DataType.SMALLINT, r.columns().get(0).type());
            assertEquals(DataType.TINYINT, r.columns().get(1).type());
            assertEquals(DataType.SMALLINT, r.columns().get(2).type());
            assertEquals(List.of(List.of("127", "127", "70")), rows(r));
        }
    }

    /** Values as text in one spelling for both engines: numbers by their value, NULL as null. */
    private static String text(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof Double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
        return v.toString();
    }

    private static List<List<String>> rows(QueryResult r) {
        List<List<String>> out = new ArrayList<>();
        for (Object[] row : r.rows()) {
            List<String> l = new ArrayList<>();
            for (Object v : row) {
                l.add(text(v));
            }
            out.add(l);
        }
        return out;
    }

    private static List<List<String>> duckRows(Statement st, String sql) throws Exception {
        List<List<String>> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> l = new ArrayList<>();
                for (int c = 1; c <= n; c++) {
                    l.add(text(rs.getObject(c)));
                }
                out.add(l);
            }
        }
        return out;
    }
}
