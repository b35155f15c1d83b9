package io.tessera.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * LIST columns through JDBC, beside DuckDB's driver given the same statements: {@code getString} gives DuckDB's text,
 * {@code getObject} and {@code getArray} a {@link Array} whose elements are those DuckDB's gives, and the metadata
 * says {@link Types#ARRAY}.
 */
class JdbcListTest {

    private static final List<String> SETUP = List.of(
            "create table l (i integer not null, xs integer[], names varchar[], ds date[])",
            "insert into l values (1, [1, 2, NULL], ['a', 'b c'], [DATE '2020-01-01']),"
                    + " (2, NULL, ['x'], NULL), (3, [7], [NULL], [DATE '2024-02-29', NULL])");

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

    /** Each row as getString of every list, then the elements getArray gives (as text), per column. */
    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int col = 1; col <= rs.getMetaData().getColumnCount(); col++) {
                    Array a = rs.getArray(col);
                    row.append(rs.getString(col)).append(" ")
                            .append(a == null ? "null" : Arrays.toString((Object[]) a.getArray())).append(" | ");
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    @Test
    void listsReadAsDuckDbGivesThem() throws SQLException {
        String sql = "select xs, names, ds from l order by i";
        List<String> expected = rows(duckdb, sql);
        assertEquals(expected, rows(tessera, sql));
        assertEquals("[1, 2, NULL] [1, 2, null] | [a, b c] [a, b c] | [2020-01-01] [2020-01-01] | ", expected.get(0));
    }

    @Test
    void getObjectGivesAnArrayOfTheElementType() throws SQLException {
        try (Statement s = tessera.createStatement();
             ResultSet rs = s.executeQuery("select xs, ds, list(i) from l where i = 3 group by xs, ds")) {
            assertEquals(Types.ARRAY, rs.getMetaData().getColumnType(1));
            assertEquals("INTEGER[]", rs.getMetaData().getColumnTypeName(1));
            assertEquals(Array.class.getName(), rs.getMetaData().getColumnClassName(1));
            rs.next();
            Array xs = assertInstanceOf(Array.class, rs.getObject(1));
            assertEquals(Types.INTEGER, xs.getBaseType());
            assertEquals("INTEGER", xs.getBaseTypeName());
            assertEquals(List.of(7), Arrays.asList((Object[]) xs.getArray()));
            Object[] ds = (Object[]) rs.getArray(2).getArray();
            assertEquals(java.sql.Date.valueOf("2024-02-29"), ds[0]);
            assertNull(ds[1]);
            assertEquals("[3]", rs.getString(3));
        }
    }

    /** A list's elements as text, each inner {@link Array} opened in turn (DuckDB's driver gives arrays there too). */
    private static String elements(Object v) throws SQLException {
        if (!(v instanceof Array a)) {
            return String.valueOf(v);
        }
        List<String> out = new ArrayList<>();
        for (Object e : (Object[]) a.getArray()) {
            out.add(elements(e));
        }
        return "<" + String.join(", ", out) + ">";
    }

    @Test
    void listsOfListsReadAsArraysOfArraysAsDuckDbGivesThem() throws SQLException {
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                s.execute("create table ll (i integer, a integer[][], v varchar[][][])");
                s.execute("insert into ll values (1, [[1, 2], NULL, []], [[['a', NULL]], []]), (2, NULL, NULL),"
                        + " (3, [], [NULL])");
            }
        }
        String sql = "select a, v, a[1], [[i]] from ll order by i";
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        for (Connection c : List.of(duckdb, tessera)) {
            List<String> out = c == duckdb ? expected : actual;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int col = 1; col <= 4; col++) {
                        row.append(rs.getString(col)).append(" ").append(elements(rs.getObject(col))).append(" | ");
                    }
                    out.add(row.toString());
                }
            }
        }
        assertEquals(expected, actual);
        assertEquals("[[1, 2], NULL, []] <<1, 2>, null, <>> | [[[a, NULL]], []] <<<a, null>>, <>> | [1, 2] <1, 2> |"
                + " [[1]] <<1>> | ", actual.get(0));
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertEquals(Types.ARRAY, rs.getMetaData().getColumnType(1));
            assertEquals("INTEGER[][]", rs.getMetaData().getColumnTypeName(1));
            assertEquals("VARCHAR[][][]", rs.getMetaData().getColumnTypeName(2));
            rs.next();
            Array a = rs.getArray(1);
            assertEquals(Types.ARRAY, a.getBaseType());
            assertEquals("INTEGER[]", a.getBaseTypeName());
            Object[] inner = (Object[]) a.getArray();
            Array first = assertInstanceOf(Array.class, inner[0]);
            assertEquals(Types.INTEGER, first.getBaseType());
            assertEquals(List.of(1, 2), Arrays.asList((Object[]) first.getArray()));
            assertNull(inner[1]);
        }
    }
}
