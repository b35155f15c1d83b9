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
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TIMESTAMP through JDBC, beside DuckDB's driver given the same statements: {@code setTimestamp} and
 * {@code setObject(LocalDateTime)} store the date and time as given (microseconds kept), {@code getTimestamp} and
 * {@code getString} read them back as DuckDB's do, {@code getObject} gives a {@link LocalDateTime}, and the metadata
 * says {@link Types#TIMESTAMP}.
 */
class JdbcTimestampTest {

    @TempDir
    static Path dir;
    static Connection tessera;
    static Connection duckdb;

    static final LocalDateTime[] VALUES = {LocalDateTime.parse("2020-01-01T10:00:00"),
            LocalDateTime.parse("2024-02-29T23:59:59.123456"), LocalDateTime.parse("1969-12-31T23:59:59.5"), null};

    @BeforeAll
    static void fill() throws SQLException {
        tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("create table ev (i integer, ts timestamp)");
            }
            try (PreparedStatement p = c.prepareStatement("insert into ev values (?, ?)")) {
                for (int i = 0; i < VALUES.length; i++) {
                    p.setInt(1, i);
                    if (i == 1) {
                        p.setObject(2, VALUES[i]);
                    } else {
                        p.setTimestamp(2, VALUES[i] == null ? null : Timestamp.valueOf(VALUES[i]));
                    }
                    assertEquals(1, p.executeUpdate());
                }
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        tessera.close();
        duckdb.close();
    }

    /** Each row as its column type, getTimestamp, getString and wasNull. */
    private static List<String> read(Connection c, String sql, Timestamp param) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            if (param != null) {
                p.setTimestamp(1, param);
            }
            try (ResultSet rs = p.executeQuery()) {
                List<String> rows = new ArrayList<>();
                rows.add("type " + rs.getMetaData().getColumnType(2));
                while (rs.next()) {
                    Timestamp t = rs.getTimestamp(2);
                    rows.add(rs.getInt(1) + " " + t + " " + rs.wasNull());
                }
                return rows;
            }
        }
    }

    @Test
    void timestampsRoundTripAsDuckDbGivesThem() throws SQLException {
        String sql = "select i, ts from ev order by i";
        List<String> expected = read(duckdb, sql, null);
        assertEquals(expected, read(tessera, sql, null));
        assertTrue(expected.contains("1 2024-02-29 23:59:59.123456 false"), expected.toString());
        String where = "select i, ts from ev where ts >= ? order by i";
        Timestamp from = Timestamp.valueOf("2020-01-01 10:00:00");
        assertEquals(read(duckdb, where, from), read(tessera, where, from));
    }

    @Test
    void getObjectGivesLocalDateTime() throws SQLException {
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery("select ts from ev order by i")) {
            assertEquals(Types.TIMESTAMP, rs.getMetaData().getColumnType(1));
            assertEquals(LocalDateTime.class.getName(), rs.getMetaData().getColumnClassName(1));
            for (LocalDateTime v : VALUES) {
                assertTrue(rs.next());
                if (v == null) {
                    assertNull(rs.getObject(1));
                    assertNull(rs.getTimestamp(1));
                } else {
                    assertInstanceOf(LocalDateTime.class, rs.getObject(1));
                    assertEquals(v, rs.getObject(1));
                    assertEquals(v, rs.getObject(1, LocalDateTime.class));
                    assertEquals(Timestamp.valueOf(v), rs.getObject(1, Timestamp.class));
                    assertEquals(v.toLocalDate(), rs.getObject(1, java.time.LocalDate.class));
                }
            }
        }
    }

    @Test
    void aCalendarReadsTheDateAndTimeInItsZone() throws SQLException {
        Calendar utcPlus2 = Calendar.getInstance(TimeZone.getTimeZone("GMT+02:00"));
        try (PreparedStatement p = tessera.prepareStatement("select ts, cast(ts as varchar) from ev where i = 0");
             ResultSet rs = p.executeQuery()) {
            assertTrue(rs.next());
            // 10:00 in GMT+2 is 08:00 UTC
            assertEquals(LocalDateTime.parse("2020-01-01T10:00:00").minusHours(2)
                    .atZone(java.time.ZoneOffset.UTC).toInstant(), rs.getTimestamp(1, utcPlus2).toInstant());
            assertEquals("2020-01-01 10:00:00", rs.getString(1));
            assertEquals("2020-01-01 10:00:00", rs.getString(2));
        }
        try (PreparedStatement p = tessera.prepareStatement("select count(*) from ev where ts = ?")) {
            Timestamp eightUtc = Timestamp.from(java.time.Instant.parse("2020-01-01T08:00:00Z"));
            p.setTimestamp(1, eightUtc, utcPlus2);
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1));
            }
        }
    }
}
