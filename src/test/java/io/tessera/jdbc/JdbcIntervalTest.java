package io.tessera.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * INTERVAL results through JDBC beside DuckDB's driver given the same query: the metadata (Types.OTHER, named
 * INTERVAL, read as String), getObject a String of DuckDB's text, getString the same, NULL read as null.
 */
class JdbcIntervalTest {

    private static final String QUERY = "SELECT INTERVAL '1 year 2 months 3 days 04:05:06.5', TIMESTAMP '2020-03-01 10:00'"
            + " - TIMESTAMP '2020-01-01', age(TIMESTAMP '2019-01-01', TIMESTAMP '2020-03-15 10:00'), INTERVAL '0 days',"
            + " CAST(NULL AS INTERVAL)";

    @Test
    void resultsReadAsDuckDbsDriverReadsThem(@TempDir Path dir) throws SQLException {
        try (Connection tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
             Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            List<String> expected = read(duckdb);
            assertEquals(List.of("1111 INTERVAL java.lang.String", "1 year 2 months 3 days 04:05:06.5 String"),
                    expected.subList(0, 2));
            assertEquals(expected, read(tessera));
        }
    }

    private static List<String> read(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(QUERY)) {
            ResultSetMetaData md = rs.getMetaData();
            rs.next();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnType(i) + " " + md.getColumnTypeName(i) + " " + md.getColumnClassName(i));
                Object o = rs.getObject(i);
                out.add(rs.getString(i) + " " + (o == null ? "null" : o.getClass().getSimpleName()));
            }
        }
        return out;
    }
}
