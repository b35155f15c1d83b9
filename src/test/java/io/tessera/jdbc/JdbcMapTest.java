package io.tessera.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MAP columns through JDBC, beside DuckDB's driver given the same statements: {@code getString} gives DuckDB's text,
 * {@code getObject} a {@link java.util.LinkedHashMap} of the entries in order, with keys and values of the classes
 * DuckDB's driver gives, and the metadata says {@link Types#OTHER} with the type's name.
 */
class JdbcMapTest {

    private static final List<String> SETUP = List.of(
            "create table t (i integer not null, m MAP(VARCHAR, INTEGER), n MAP(INTEGER, VARCHAR))",
            "insert into t values (1, MAP {'b': 2, 'a': NULL}, MAP {7: 'x y'}), (2, NULL, MAP {}),"
                    + " (3, MAP {}, NULL)");

    private Connection tessera;
    private Connection duckdb;

    @BeforeEach
    void fill(@TempDir Path dir) throws SQLException {
        tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                for (String sql : SETUP) {
                    s.execute(sql);
                }
            }
        }
    }

    @AfterEach
    void close() throws SQLException {
        tessera.close();
        duckdb.close();
    }

    /** Each row's maps as getString, then getObject's class and entries with their classes. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                StringBuilder row = new StringBuilder().append(r.getInt(1));
                for (int k = 2; k <= 3; k++) {
                    Object v = r.getObject(k);
                    row.append(" | ").append(r.getString(k)).append(' ');
                    if (v == null) {
                        row.append("null");
                        continue;
                    }
                    row.append(v.getClass().getName());
                    for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                        row.append(' ').append(e.getKey()).append(':').append(e.getKey().getClass().getSimpleName())
                                .append('=').append(e.getValue()).append(e.getValue() == null ? ""
                                        : ":" + e.getValue().getClass().getSimpleName());
                    }
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    @Test
    void mapsReadAsDuckDbsDriverReadsThem() throws SQLException {
        String sql = "select i, m, n from t order by i";
        List<String> want = rows(duckdb, sql);
        assertEquals(want, rows(tessera, sql));
        assertEquals("1 | {b=2, a=NULL} java.util.LinkedHashMap b:String=2:Integer a:String=null"
                + " | {7=x y} java.util.LinkedHashMap 7:Integer=x y:String", want.get(0));
    }

    @Test
    void metadataSaysOtherWithTheTypeName() throws SQLException {
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select m from t")) {
                ResultSetMetaData m = r.getMetaData();
                assertEquals(Types.OTHER, m.getColumnType(1), c.toString());
                assertEquals("MAP(VARCHAR, INTEGER)", m.getColumnTypeName(1), c.toString());
                assertEquals("java.util.LinkedHashMap", m.getColumnClassName(1), c.toString());
            }
        }
    }
}
