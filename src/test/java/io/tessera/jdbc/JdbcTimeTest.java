package io.tessera.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Types;
import java.time.LocalTime;
import java.util.Arrays;
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
class JdbcTimeTest extends TemporalColumnTest<LocalTime> {

    static final List<LocalTime> VALUES = Arrays.asList(LocalTime.parse("10:00:00"),
            LocalTime.parse("23:59:59.123456"), LocalTime.parse("00:00:00.5"), null);

    @Override
    String columnType() {
        return "time";
    }

    @Override
    List<LocalTime> values() {
        return VALUES;
    }

    @Override
    void bind(PreparedStatement p, int index, LocalTime value, int row) throws SQLException {
        if (value.getNano() % 1_000_000 != 0) {
            p.setObject(index, value); // java.sql.Time holds milliseconds only
        } else {
            p.setTime(index, sqlTime(value));
        }
    }

    @Override
    void bindNull(PreparedStatement p, int index) throws SQLException {
        p.setTime(index, null);
    }

    /** The row as getObject(LocalTime), wasNull and getString of a cast. */
    @Override
    String row(ResultSet rs) throws SQLException {
        LocalTime t = rs.getObject(2, LocalTime.class);
        return rs.getInt(1) + " " + t + " " + rs.wasNull() + " " + rs.getString(3);
    }

    /** The time of day as {@link Time}, its milliseconds kept ({@code Time.valueOf} drops them). */
    private static Time sqlTime(LocalTime t) {
        return new Time(Time.valueOf(t).getTime() + t.getNano() / 1_000_000);
    }

    @Test
    void timesRoundTripAsDuckDbGivesThem() throws SQLException {
        List<String> expected = assertSameAsDuckDb("select i, v, cast(v as varchar) from vals order by i", null);
        assertTrue(expected.contains("1 23:59:59.123456 false 23:59:59.123456"), expected.toString());
        assertSameAsDuckDb("select i, v, cast(v as varchar) from vals where v >= ? order by i",
                LocalTime.parse("01:00:00"));
    }

    @Test
    void getObjectGivesLocalTimeAndGetTimeItsMilliseconds() throws SQLException {
        try (Statement s = tessera.createStatement(); ResultSet rs = s.executeQuery("select v from vals order by i")) {
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
