package io.tessera.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TIMESTAMP WITH TIME ZONE through JDBC, beside DuckDB's driver given the same statements: {@code setObject} of an
 * {@link OffsetDateTime} stores its instant, {@code getObject} gives an OffsetDateTime of the same instant (Tessera's
 * at the session zone's offset, UTC here, as DuckDB's), {@code getTimestamp} the instant, {@code getString} of a cast
 * DuckDB's text in the session's zone, and the metadata says {@link Types#TIMESTAMP_WITH_TIMEZONE}.
 */
class JdbcTimestampTzTest extends TemporalColumnTest<OffsetDateTime> {

    static final List<OffsetDateTime> VALUES = Arrays.asList(OffsetDateTime.parse("2020-07-01T10:00:00+02:00"),
            OffsetDateTime.parse("2024-02-29T23:59:59.123456-05:30"), OffsetDateTime.parse("1969-12-31T23:59:59.5Z"),
            null);

    @Override
    String columnType() {
        return "timestamptz";
    }

    @Override
    List<String> setUp() {
        return List.of("SET TimeZone = 'UTC'");
    }

    @Override
    List<OffsetDateTime> values() {
        return VALUES;
    }

    @Override
    void bind(PreparedStatement p, int index, OffsetDateTime value, int row) throws SQLException {
        p.setObject(index, value);
    }

    @Override
    void bindNull(PreparedStatement p, int index) throws SQLException {
        p.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    }

    /** The row as getObject(OffsetDateTime)'s instant, getTimestamp's instant, wasNull and getString of a cast. */
    @Override
    String row(ResultSet rs) throws SQLException {
        OffsetDateTime t = rs.getObject(2, OffsetDateTime.class);
        Timestamp ts = rs.getTimestamp(2);
        return rs.getInt(1) + " " + (t == null ? null : t.toInstant()) + " " + rs.wasNull() + " "
                + (ts == null ? null : ts.toInstant()) + " " + rs.getString(3);
    }

    @Test
    void instantsRoundTripAsDuckDbGivesThem() throws SQLException {
        List<String> expected = assertSameAsDuckDb("select i, v, cast(v as varchar) from vals order by i", null);
        assertTrue(expected.contains("1 2024-03-01T05:29:59.123456Z false 2024-03-01T05:29:59.123456Z"
                + " 2024-03-01 05:29:59.123456+00"), expected.toString());
        assertSameAsDuckDb("select i, v, cast(v as varchar) from vals where v >= ? order by i",
                OffsetDateTime.parse("2020-07-01T09:00:00+01:00"));
    }

    @Test
    void getObjectGivesOffsetDateTimeInTheSessionsZone() throws SQLException {
        try (Statement s = tessera.createStatement()) {
            s.execute("SET TimeZone = 'America/New_York'");
            try (ResultSet rs = s.executeQuery("select v from vals order by i")) {
                assertEquals(Types.TIMESTAMP_WITH_TIMEZONE, rs.getMetaData().getColumnType(1));
                assertEquals("TIMESTAMP WITH TIME ZONE", rs.getMetaData().getColumnTypeName(1));
                assertEquals(OffsetDateTime.class.getName(), rs.getMetaData().getColumnClassName(1));
                for (OffsetDateTime v : VALUES) {
                    assertTrue(rs.next());
                    if (v == null) {
                        assertNull(rs.getObject(1));
                        assertNull(rs.getTimestamp(1));
                    } else {
                        OffsetDateTime got = assertInstanceOf(OffsetDateTime.class, rs.getObject(1));
                        assertEquals(v.toInstant(), got.toInstant());
                        assertEquals(java.time.ZoneId.of("America/New_York").getRules().getOffset(v.toInstant()),
                                got.getOffset());
                        assertEquals(Timestamp.from(v.toInstant()), rs.getTimestamp(1));
                        assertEquals(v.toInstant(), rs.getObject(1, java.time.Instant.class));
                    }
                }
            } finally {
                s.execute("RESET TimeZone");
            }
        }
    }
}
