package io.tessera.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A temporal type through JDBC beside DuckDB's driver given the same statements: a table {@code vals (i integer, v
 * TYPE)} filled in both with a subclass's values, bound as the subclass binds them (row i holds value i), and queries
 * whose rows, read as the subclass reads them, are compared.
 *
 * @param <T> the Java type of the values
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TemporalColumnTest<T> {

    Connection tessera;
    Connection duckdb;

    /** The column's SQL type, as both databases name it. */
    abstract String columnType();

    /** The values of rows 0, 1, ... (null for a NULL). */
    abstract List<T> values();

    /** Binds {@code value} (not null) of row {@code row} as parameter {@code index}. */
    abstract void bind(PreparedStatement p, int index, T value, int row) throws SQLException;

    /** Binds a NULL of the column's type as parameter {@code index}. */
    abstract void bindNull(PreparedStatement p, int index) throws SQLException;

    /** The current row of a query's result as text, read through the getters under test. */
    abstract String row(ResultSet rs) throws SQLException;

    /** Statements run in both databases after the connections open, before the table is made. */
    List<String> setUp() {
        return List.of();
    }

    @BeforeAll
    void fill(@TempDir Path dir) throws SQLException {
        tessera = DriverManager.getConnection("jdbc:tessera:" + dir.resolve("db") + "?create=true");
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        for (Connection c : List.of(tessera, duckdb)) {
            try (Statement s = c.createStatement()) {
                for (String sql : setUp()) {
                    s.execute(sql);
                }
                s.executeUpdate("create table vals (i integer, v " + columnType() + ")");
            }
            try (PreparedStatement p = c.prepareStatement("insert into vals values (?, ?)")) {
                List<T> values = values();
                for (int i = 0; i < values.size(); i++) {
                    p.setInt(1, i);
                    if (values.get(i) == null) {
                        bindNull(p, 2);
                    } else {
                        bind(p, 2, values.get(i), i);
                    }
                    assertEquals(1, p.executeUpdate());
                }
            }
        }
    }

    @AfterAll
    void close() throws SQLException {
        tessera.close();
        duckdb.close();
    }

    /** The first column's type code of {@code sql}'s result, then each row as {@link #row} reads it. */
    List<String> read(Connection c, String sql, T param) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            if (param != null) {
                bind(p, 1, param, -1);
            }
            try (ResultSet rs = p.executeQuery()) {
                List<String> rows = new ArrayList<>();
                rows.add("type " + rs.getMetaData().getColumnType(2));
                while (rs.next()) {
                    rows.add(row(rs));
                }
                return rows;
            }
        }
    }

    /** {@code sql}'s rows in Tessera, asserted equal to DuckDB's, which are returned. */
    List<String> assertSameAsDuckDb(String sql, T param) throws SQLException {
        List<String> expected = read(duckdb, sql, param);
        assertEquals(expected, read(tessera, sql, param), sql);
        return expected;
    }
}
