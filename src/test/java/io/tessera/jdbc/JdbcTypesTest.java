package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values of every Tessera type written through prepared statements and read back with the typed getters, beside
 * DuckDB's JDBC driver given the same statements and the same values: the same JDBC types, DECIMAL precision and
 * scale where both keep them, and the same values and NULLs through each column's own getter.
 */
class JdbcTypesTest {

    static final String TABLE = "create table t (i integer, b bigint, d double, m decimal(12,2), dt date, f boolean, "
            + "s varchar)";

    @TempDir
    static Path dir;
    static Connection tessera;
    static Connection duckdb;

    @BeforeAll
    static void fill() throws SQLException {
        tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate(TABLE);
            }
            try (PreparedStatement p = c.prepareStatement("insert into t values (?, ?, ?, ?, ?, ?, ?)")) {
                row(p, 1, 10_000_000_000L, 1.5, "12.34", LocalDate.of(2024, 2, 29), true, "plain");
                row(p, 2, -5L, -0.25, "-0.01", LocalDate.of(1970, 1, 1), false, "O'Brien \"q\" \\ ; --");
                row(p, 3, null, null, null, null, null, null);
                row(p, 4, Long.MAX_VALUE, 1e300, "9999999999.99", LocalDate.of(9999, 12, 31), true, "中文 ü");
                row(p, 5, 0L, 0.1, "0.00", LocalDate.of(1900, 3, 1), null, "");
            }
        }
    }

    private static void row(PreparedStatement p, int i, Long b, Double d, String m, LocalDate dt, Boolean f, String s)
            throws SQLException {
        p.setInt(1, i);
        if (b == null) {
            p.setNull(2, Types.BIGINT);
            p.setNull(3, Types.DOUBLE);
            p.setBigDecimal(4, null);
            p.setDate(5, null);
        } else {
            p.setLong(2, b);
            p.setDouble(3, d);
            p.setBigDecimal(4, new BigDecimal(m));
            p.setDate(5, Date.valueOf(dt));
        }
        if (f == null) {
            p.setNull(6, Types.BOOLEAN);
        } else {
            p.setBoolean(6, f);
        }
        p.setString(7, s);
        assertEquals(1, p.executeUpdate());
    }

    @AfterAll
    static void close() throws SQLException {
        tessera.close();
        duckdb.close();
    }

    /** Every row of a query, each value read with its column's own getter, as text with its wasNull. */
    private static List<String> read(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                p.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = p.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                List<String> rows = new ArrayList<>();
                StringBuilder types = new StringBuilder("types:");
                for (int col = 1; col <= md.getColumnCount(); col++) {
                    types.append(' ').append(md.getColumnType(col));
                    if (md.getColumnType(col) == Types.DECIMAL) {
                        types.append('(').append(md.getScale(col)).append(')');
                    }
                }
                rows.add(types.toString());
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int col = 1; col <= md.getColumnCount(); col++) {
                        Object v = switch (md.getColumnType(col)) {
                            case Types.INTEGER -> rs.getInt(col);
                            case Types.BIGINT -> rs.getLong(col);
                            case Types.DOUBLE -> rs.getDouble(col);
                            case Types.DECIMAL -> rs.getBigDecimal(col);
                            case Types.DATE -> rs.getDate(col);
                            case Types.BOOLEAN -> rs.getBoolean(col);
                            case Types.VARCHAR -> rs.getString(col);
                            default -> throw new AssertionError("type " + md.getColumnType(col));
                        };
                        row.append(rs.wasNull() ? "NULL" : String.valueOf(v)).append(" | ");
                    }
                    rows.add(row.toString());
                }
                return rows;
            }
        }
    }

    private static void same(String sql, Object... params) throws SQLException {
        List<String> expected = read(duckdb, sql, params);
        List<String> actual = read(tessera, sql, params);
        assertEquals(expected, actual, sql);
        assertTrue(actual.size() > 1, "no rows: " + sql);
    }

    @Test
    void everyTypeRoundTripsAsDuckDbGivesIt() throws SQLException {
        same("select * from t order by i");
        same("select i, d * 2 as d2, m + 1 as m1, dt, s || '!' as s2 from t where i > ? order by i", 1);
        same("select f, count(*) as n, min(dt) as first, max(s) as last, avg(d) as mean from t group by f order by f");
        same("select i from t where s = ? or dt = ? or m = ? order by i", "中文 ü", Date.valueOf("1970-01-01"),
                new BigDecimal("0.00"));
    }

    /** getColumns: each column's name, JDBC type, and DECIMAL precision and scale, as DuckDB describes the table. */
    @Test
    void getColumnsDescribesTheTableAsDuckDbDoes() throws SQLException {
        List<String> expected = columns(duckdb);
        assertEquals(7, expected.size());
        assertEquals(expected, columns(tessera));
    }

    private static List<String> columns(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getColumns(null, null, "t", null)) {
            while (rs.next()) {
                int type = rs.getInt("DATA_TYPE");
                out.add(rs.getInt("ORDINAL_POSITION") + " " + rs.getString("COLUMN_NAME") + " " + type
                        + (type == Types.DECIMAL ? "(" + rs.getInt("COLUMN_SIZE") + "," + rs.getInt("DECIMAL_DIGITS") + ")"
                        : "") + " " + rs.getString("IS_NULLABLE"));
            }
        }
        return out;
    }

    @Test
    void metaDataDescribesEachColumn() throws SQLException {
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery("select * from t")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(7, md.getColumnCount());
            assertEquals(List.of(Types.INTEGER, Types.BIGINT, Types.DOUBLE, Types.DECIMAL, Types.DATE, Types.BOOLEAN,
                    Types.VARCHAR), List.of(md.getColumnType(1), md.getColumnType(2), md.getColumnType(3),
                    md.getColumnType(4), md.getColumnType(5), md.getColumnType(6), md.getColumnType(7)));
            assertEquals(12, md.getPrecision(4));
            assertEquals(2, md.getScale(4));
            assertEquals("DECIMAL", md.getColumnTypeName(4));
            assertEquals("m", md.getColumnLabel(4));
            assertEquals(ResultSetMetaData.columnNullable, md.isNullable(1));
            assertEquals(BigDecimal.class.getName(), md.getColumnClassName(4));
            assertEquals(Date.class.getName(), md.getColumnClassName(5));
        }
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery("select count(*) as n from t")) {
            assertEquals(ResultSetMetaData.columnNoNulls, rs.getMetaData().isNullable(1));
            assertEquals(Long.class.getName(), rs.getMetaData().getColumnClassName(1));
        }
    }

    @Test
    void gettersConvertAndTellNulls() throws SQLException {
        try (Statement s = tessera.createStatement();
             ResultSet rs = s.executeQuery("select i, b, d, m, dt, f, s from t where i in (1, 3) order by i")) {
            assertTrue(rs.next());
            assertEquals(1, rs.findColumn("I"));
            assertEquals(new BigDecimal("12.34"), rs.getBigDecimal("m"));
            assertEquals(12, rs.getInt("m")); // truncated toward zero
            assertEquals("12.34", rs.getString(4));
            assertEquals(LocalDate.of(2024, 2, 29), rs.getObject("dt", LocalDate.class));
            assertEquals(Date.valueOf("2024-02-29"), rs.getObject("dt"));
            assertEquals(10_000_000_000L, rs.getObject(2, Long.class));
            SQLException range = assertThrows(SQLException.class, () -> rs.getInt(2));
            assertEquals("22003", range.getSQLState());
            assertEquals(1.5, rs.getObject(3, Double.class));
            assertEquals(Boolean.TRUE, rs.getObject("f", Boolean.class));
            assertEquals("plain", rs.getObject(7, String.class));
            assertEquals(1.0, rs.getDouble(1));
            assertFalse(rs.wasNull());
            assertTrue(rs.next());
            assertEquals(0, rs.getLong("b"));
            assertTrue(rs.wasNull());
            assertNull(rs.getBigDecimal("m"));
            assertTrue(rs.wasNull());
            assertNull(rs.getDate(5));
            assertFalse(rs.getBoolean(6));
            assertTrue(rs.wasNull());
            assertNull(rs.getObject(7, String.class));
            assertFalse(rs.next());
            SQLException none = assertThrows(SQLException.class, () -> rs.getInt(1));
            assertEquals("24000", none.getSQLState());
            SQLException label = assertThrows(SQLException.class, () -> rs.findColumn("nope"));
            assertTrue(label.getMessage().contains("nope"), label.getMessage());
        }
    }
}
