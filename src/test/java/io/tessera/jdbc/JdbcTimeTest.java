package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Types;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TIME through JDBC, beside DuckDB's driver given the same statements: {@code setTime} and
 * {@code setObject(LocalTime)} store the time of day as given (microseconds kept by setObject), {@code getTime},
 * {@code getObject(LocalTime)} and {@code getString} read them back as DuckDB's do, and the metadata says
 * {@link Types#TIME}.
 */
class JdbcTimeTest {

    @TempDir
    static Path dir;
    static Connection tessera;
    static Connection duckdb;

    static final LocalTime[] VALUES = {LocalTime.parse("10:00:00"), LocalTime.parse("23:59:59.123456"),
            LocalTime.parse("00:00:00.5"), null};

    @BeforeAll
    static void fill() throws SQLException {
        tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("create table shifts (i integer, t time)");
            }
            try (PreparedStatement p = c.prepareStatement("insert into shifts values (?, ?)")) {
                for (int i = 0; i < VALUES.length; i++) {
                    p.setInt(1, i);
                    if (VALUES[i] != null && VALUES[i].getNano() % 1_000_000 != 0) {
                        p.setObject(2, VALUES[i]); // java.sql.Time holds milliseconds only
                    } else {
                        p.setTime(2, VALUES[i] == null ? null : sqlTime(VALUES[i]));
                    }
                    assertEquals(1, p.executeUpdate());
                }
            }
        }
    }

    /** The time of day as {@link Time}, its milliseconds kept ({@code Time.valueOf} drops them). */
    private static Time sqlTime(LocalTime t) {
        return new Time(Time.valueOf(t).getTime() + t.getNano() / 1_000_000);
    }

    @AfterAll
    static void close() throws SQLException {
        tessera.close();
        duckdb.close();
    }

    /** The column's type, then each row as getObject(LocalTime), getString of a cast and wasNull. */
    private static List<String> read(Connection c, String sql, LocalTime param) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            if (param != null) {
                p.setObject(1, param);
            }
            try (ResultSet rs = p.executeQuery()) {
                List<String> rows = new ArrayList<>();
                rows.add("type " + rs.getMetaData().getColumnType(2));
                while (rs.next()) {
                    LocalTime t = rs.getObject(2, LocalTime.class);
                    rows.add(rs.getInt(1) + " " + t + " " + rs.wasNull() + " " + rs.getString(3));
                }
                return rows;
            }
        }
    }

    @Test
    void timesRoundTripAsDuckDbGivesThem() throws SQLException {
        String sql = "select i, t, cast(t as varchar) from shifts order by i";
        List<String> expected = read(duckdb, sql, null);
        assertEquals(expected, read(tessera, sql, null));
        assertTrue(expected.contains("1 23:59:59.123456 false 23:59:59.123456"), expected.toString());
        String where = "select i, t, cast(t as varchar) from shifts where t >= ? order by i";
        LocalTime from = LocalTime.parse("01:00:00");
        assertEquals(read(duckdb, where, from), read(tessera, where, from));
    }

    @Test
    void getObjectGivesLocalTimeAndGetTimeItsMilliseconds() throws SQLException {
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery("select t from shifts order by i")) {
            assertEquals(Types.TIME, rs.getMetaData().getColumnType(1));
            assertEquals("TIME", rs.getMetaData().getColumnTypeName(1));
            assertEquals(LocalTime.class.getName(), rs.getMetaData().getColumnClassName(1));
            for (LocalTime v : VALUES) {
                assertTrue(rs.next());
                if (v == null) {
                    assertNull(rs.getObject(1));
                    assertNull(rs.getTime(1));
                } else {
                    assertInstanceOf(LocalTime.class, rs.getObject(1));
                    assertEquals(v, rs.getObject(1));
                    assertEquals(v, rs.getObject(1, LocalTime.class));
                    assertEquals(sqlTime(v.withNano(v.getNano() / 1_000_000 * 1_000_000)), rs.getTime(1));
                }
            }
        }
    }
}
