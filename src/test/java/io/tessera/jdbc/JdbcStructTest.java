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
import java.sql.Struct;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * STRUCT columns through JDBC, beside DuckDB's driver given the same statements: {@code getString} gives DuckDB's
 * text, {@code getObject} a {@link Struct} whose attributes are those DuckDB's {@code DuckDBStruct} gives, and the
 * metadata says {@link Types#STRUCT} with the type's name.
 */
class JdbcStructTest {

    private static final List<String> SETUP = List.of(
            "create table t (i integer not null, s STRUCT(a INTEGER, b VARCHAR, d DATE))",
            "insert into t values (1, {'a': 1, 'b': 'x y', 'd': DATE '2020-01-01'}), (2, NULL),"
                    + " (3, {'a': NULL, 'b': '', 'd': NULL})");

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

    /** Each row as getString, then the Struct's attributes (as text), or null for a NULL struct. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                Object v = r.getObject(2);
                String attributes = v == null ? "null" : Arrays.toString(((Struct) v).getAttributes());
                out.add(r.getInt(1) + " " + r.getString(2) + " " + attributes);
            }
        }
        return out;
    }

    @Test
    void structsReadAsDuckDbsDriverReadsThem() throws SQLException {
        String sql = "select i, s from t order by i";
        List<String> want = rows(duckdb, sql);
        assertEquals(want, rows(tessera, sql));
        assertEquals("1 {'a': 1, 'b': x y, 'd': 2020-01-01} [1, x y, 2020-01-01]", want.get(0));
    }

    @Test
    void nestedStructsReadAsDuckDbsDriverReadsThem() throws SQLException {
        String sql = "select i, {'w': s, 'n': i} from t order by i";
        List<String> want = rows(duckdb, sql);
        assertEquals(want, rows(tessera, sql));
        assertEquals("2 {'w': NULL, 'n': 2} [null, 2]", want.get(1));
    }

    @Test
    void metadataSaysStructWithTheTypeName() throws SQLException {
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select s from t")) {
                ResultSetMetaData m = r.getMetaData();
                assertEquals(Types.STRUCT, m.getColumnType(1), c.toString());
                assertEquals("STRUCT(a INTEGER, b VARCHAR, d DATE)", m.getColumnTypeName(1), c.toString());
                r.next();
                assertEquals("STRUCT(a INTEGER, b VARCHAR, d DATE)", ((Struct) r.getObject(1)).getSQLTypeName(),
                        c.toString());
            }
        }
    }

    /**
     * A struct literal whose first field is named by the letters of a JDBC escape ({@code {t : 1}}) is a struct, as
     * DuckDB's driver reads it, with escape processing on or off (Tessera's grammar reads the escapes); an escape before its quoted string stays one.
     */
    @Test
    void escapeLettersBeforeAColonNameAField() throws SQLException {
        String sql = "select i, {t : i, d : 2, ts : 3, fn : 4} from t order by i";
        List<String> want = rows(duckdb, sql);
        assertEquals(want, rows(tessera, sql));
        try (Statement s = tessera.createStatement()) {
            s.setEscapeProcessing(false);
            try (ResultSet r = s.executeQuery(sql)) {
                r.next();
                assertEquals("{'t': 1, 'd': 2, 'ts': 3, 'fn': 4}", r.getString(2));
            }
        }
        assertEquals("1 {'t': 1, 'd': 2, 'ts': 3, 'fn': 4} [1, 2, 3, 4]", want.get(0));
        try (Statement s = tessera.createStatement();
                ResultSet r = s.executeQuery("select {d '2020-01-02'}, {ts '2020-01-02 10:00:00'}")) {
            r.next();
            assertEquals(java.sql.Date.valueOf("2020-01-02"), r.getDate(1));
            assertEquals(java.sql.Timestamp.valueOf("2020-01-02 10:00:00"), r.getTimestamp(2));
        }
    }
}
