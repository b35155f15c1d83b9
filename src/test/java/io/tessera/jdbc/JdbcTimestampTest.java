package io.tessera.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.Arrays;
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
class JdbcTimestampTest extends TemporalColumnTest<LocalDateTime> {

    static final List<LocalDateTime> VALUES = Arrays.asList(LocalDateTime.parse("2020-01-01T10:00:00"),
            LocalDateTime.parse("2024-02-29T23:59:59.123456"), LocalDateTime.parse("1969-12-31T23:59:59.5"), null);

    @Override
    String columnType() {
        return "timestamp";
    }

    @Override
    List<LocalDateTime> values() {
        return VALUES;
    }

    /** Row 1 through setObject, the others (and parameters of queries) through setTimestamp. */
    @Override
    void bind(PreparedStatement p, int index, LocalDateTime value, int row) throws SQLException {
        if (row == 1) {
            p.setObject(index, value);
        } else {
            p.setTimestamp(index, Timestamp.valueOf(value));
        }
    }

    @Override
    void bindNull(PreparedStatement p, int index) throws SQLException {
        p.setTimestamp(index, null);
    }

    /** The row as getTimestamp and wasNull. */
    @Override
    String row(ResultSet rs) throws SQLException {
        Timestamp t = rs.getTimestamp(2);
        return rs.getInt(1) + " " + t + " " + rs.wasNull();
    }

    @Test
    void timestampsRoundTripAsDuckDbGivesThem() throws SQLException {
        List<String> expected = assertSameAsDuckDb("select i, v from vals order by i", null);
        assertTrue(expected.contains("1 2024-02-29 23:59:59.123456 false"), expected.toString());
        assertSameAsDuckDb("select i, v from vals where v >= ? order by i", LocalDateTime.parse("2020-01-01T10:00:00"));
    }

    @Test
    void getObjectGivesLocalDateTime() throws SQLException {
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery("select v from vals order by i")) {
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
        try (PreparedStatement p = tessera.prepareStatement("select v, cast(v as varchar) from vals where i = 0");
             ResultSet rs = p.executeQuery()) {
            assertTrue(rs.next());
            // 10:00 in GMT+2 is 08:00 UTC
            assertEquals(LocalDateTime.parse("2020-01-01T10:00:00").minusHours(2)
                    .atZone(java.time.ZoneOffset.UTC).toInstant(), rs.getTimestamp(1, utcPlus2).toInstant());
            assertEquals("2020-01-01 10:00:00", rs.getString(1));
            assertEquals("2020-01-01 10:00:00", rs.getString(2));
        }
        try (PreparedStatement p = tessera.prepareStatement("select count(*) from vals where v = ?")) {
            Timestamp eightUtc = Timestamp.from(java.time.Instant.parse("2020-01-01T08:00:00Z"));
            p.setTimestamp(1, eightUtc, utcPlus2);
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1));
            }
        }
    }
}
