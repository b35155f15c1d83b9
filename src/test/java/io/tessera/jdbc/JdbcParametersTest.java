package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ?} parameters are bound as values: strings that would be SQL if pasted into the text (quotes, comments,
 * semicolons, a second statement) are stored and compared as the strings they are, in queries and in every data
 * change, and the database is unchanged but for the rows the statement itself writes.
 */
class JdbcParametersTest {

    static final List<String> HOSTILE = List.of("'); DROP TABLE t; --", "' OR '1'='1", "x' || (select 1) || '",
            "\"; DELETE FROM t; --", "O'Brien", "''", "\\'", "?", "/* ? */", "-- ?", "a;b", "中文", "");

    @TempDir
    static Path dir;
    static Connection conn;

    @BeforeAll
    static void open() throws SQLException {
        conn = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table t (id integer not null, s varchar)");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        conn.close();
    }

    private static List<String> strings(String sql, Object... params) throws SQLException {
        try (PreparedStatement p = conn.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                p.setObject(i + 1, params[i]);
            }
            List<String> out = new ArrayList<>();
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }

    @Test
    void hostileStringsAreStoredAndComparedAsStrings() throws SQLException {
        try (PreparedStatement insert = conn.prepareStatement("insert into t (id, s) values (?, ?)")) {
            for (int i = 0; i < HOSTILE.size(); i++) {
                insert.setInt(1, 100 + i);
                insert.setString(2, HOSTILE.get(i));
                assertEquals(1, insert.executeUpdate());
            }
        }
        assertEquals(HOSTILE, strings("select s from t where id >= ? order by id", 100));
        for (String h : HOSTILE) {
            assertEquals(List.of(h), strings("select s from t where s = ?", h), h);
            assertEquals(List.of(h + "|" + h), strings("select ? || '|' || s from t where s = ?", h, h), h);
        }
        try (PreparedStatement p = conn.prepareStatement("update t set s = ? where s = ?")) {
            p.setString(1, "'); DROP TABLE t; -- again");
            p.setString(2, "'); DROP TABLE t; --");
            assertEquals(1, p.executeUpdate());
        }
        assertEquals(List.of("'); DROP TABLE t; -- again"), strings("select s from t where id = ?", 100));
        try (PreparedStatement p = conn.prepareStatement("delete from t where s = ? or s = ?")) {
            p.setString(1, "' OR '1'='1");
            p.setString(2, "no such string");
            assertEquals(1, p.executeUpdate());
        }
        assertEquals(List.of(String.valueOf(HOSTILE.size() - 1)), strings("select count(*) from t where id >= ?", 100));
        assertTrue(conn.getMetaData().getTables(null, null, "t", null).next(), "the table is still there");
    }

    @Test
    void parametersAreTypedByTheirValues() throws SQLException {
        assertEquals(List.of("3"), strings("select ? + ?", 1, 2));
        assertEquals(List.of("3.75"), strings("select ? * ?", new BigDecimal("1.5"), new BigDecimal("2.5")));
        assertEquals(List.of("2.5"), strings("select ? / ?", 5.0, 2));
        assertEquals(List.of("2024-03-01"), strings("select ? + 1", java.sql.Date.valueOf("2024-02-29")));
        assertEquals(List.of("true"), strings("select ? and ?", true, true));
        assertEquals(List.of("9223372036854775807"), strings("select ?", Long.MAX_VALUE));
        try (PreparedStatement p = conn.prepareStatement("select ? is null, ? ")) {
            p.setNull(1, Types.INTEGER);
            p.setNull(2, Types.VARCHAR);
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertTrue(rs.getBoolean(1));
                assertEquals(null, rs.getString(2));
                assertEquals(Types.VARCHAR, rs.getMetaData().getColumnType(2));
            }
        }
    }

    @Test
    void aStatementRunsAgainWithOtherValues() throws SQLException {
        try (PreparedStatement p = conn.prepareStatement("select count(*) from t where id < ?")) {
            try (Statement s = conn.createStatement()) {
                s.executeUpdate("insert into t values (1, 'a'), (2, 'b'), (3, 'c')");
            }
            for (int bound = 1; bound <= 4; bound++) {
                p.setInt(1, bound);
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(bound - 1, rs.getInt(1));
                }
            }
            p.clearParameters();
            SQLException unset = assertThrows(SQLException.class, p::executeQuery);
            assertEquals("07001", unset.getSQLState());
        }
    }

    /** The values are constants of the generated code, read at run time: other values compile no class. */
    @Test
    void otherValuesReuseTheCompiledClasses() throws SQLException {
        try (Statement s = conn.createStatement()) {
            s.executeUpdate("create table reuse (n integer, s varchar, m decimal(6,2))");
            s.executeUpdate("insert into reuse values (1, 'a', 1.50), (2, 'b', 2.50), (3, 'c', 3.50)");
        }
        try (PreparedStatement p = conn.prepareStatement(
                "select count(*), sum(m) from reuse where n >= ? and s <> ? and m < ?")) {
            List<String> answers = new ArrayList<>();
            long compiles = 0;
            Object[][] values = {{1, "a", "9.99"}, {2, "zzz", "3.00"}, {0, "'); drop table reuse; --", "1.00"}};
            for (int i = 0; i < values.length; i++) {
                p.setInt(1, (Integer) values[i][0]);
                p.setString(2, (String) values[i][1]);
                p.setBigDecimal(3, new BigDecimal((String) values[i][2]));
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    answers.add(rs.getLong(1) + " " + rs.getBigDecimal(2));
                }
                if (i == 0) {
                    compiles = io.tessera.backend.jvm.gen.JavaCompiler.compiles();
                }
            }
            assertEquals(List.of("2 6.00", "1 2.50", "0 null"), answers);
            assertEquals(compiles, io.tessera.backend.jvm.gen.JavaCompiler.compiles(), "classes compiled for other values");
        }
    }

    @Test
    void theParameterCountComesFromTheTokensNotFromQuotedText() throws SQLException {
        try (PreparedStatement p = conn.prepareStatement("select '?', \"id\" from t where id = ? -- ?\n")) {
            ParameterMetaData md = p.getParameterMetaData();
            assertEquals(1, md.getParameterCount());
            assertEquals(Types.INTEGER, md.getParameterType(1), "the type of id, which it is compared with");
            p.setInt(1, 1);
            assertEquals(Types.INTEGER, p.getParameterMetaData().getParameterType(1));
            SQLException range = assertThrows(SQLException.class, () -> p.setInt(2, 5));
            assertEquals("07009", range.getSQLState());
            try (ResultSet rs = p.executeQuery()) {
                assertTrue(rs.next());
                assertEquals("?", rs.getString(1));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void aViewCannotKeepAParameter() throws SQLException {
        try (PreparedStatement p = conn.prepareStatement("create view v as select * from t where id = ?")) {
            p.setInt(1, 1);
            SQLException e = assertThrows(SQLException.class, p::executeUpdate);
            assertTrue(e.getMessage().contains("cannot hold parameters"), e.getMessage());
        }
    }

    @Test
    void aParameterWithoutAValueInPlainSqlIsAnError() throws SQLException {
        try (Statement s = conn.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("select * from t where id = ?"));
            assertTrue(e.getMessage().contains("1 parameter"), e.getMessage());
        }
    }
}
