package io.tessera.data.parquet;

import io.tessera.storage.ByteStrings;
import io.tessera.storage.Column;
import io.tessera.storage.Table;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The Parquet tests' side-by-side view of DuckDB and Tessera: both engines' rows as the text DuckDB's driver gives
 * (a struct as {'a': 1, 'b': x}, a list as [1, 2], a UUID's canonical form, a BLOB as \xAB), NULL as null.
 */
public final class DuckDbText {

    private DuckDbText() {
    }

    /** An in-memory DuckDB. */
    public static Connection duckdb() throws SQLException {
        return DriverManager.getConnection("jdbc:duckdb:");
    }

    public static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** "name TYPE" per column of a Parquet file, as DuckDB reads it. */
    public static List<String> describe(Connection duck, Path file) throws SQLException {
        return duckRows(duck, "DESCRIBE SELECT * FROM read_parquet('" + file + "')").stream()
                .map(r -> r.get(0) + " " + r.get(1)).toList();
    }

    /** DuckDB's rows of {@code sql} as its driver's text. */
    public static List<List<String>> duckRows(Connection c, String sql) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            int n = r.getMetaData().getColumnCount();
            while (r.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    String v = r.getString(i);
                    row.add(r.wasNull() ? null : v);
                }
                out.add(row);
            }
        }
        return out;
    }

    /** A table's rows as the same text (byte[] as DuckDB writes a BLOB; UUID, StructValue, ListValue print as it does). */
    public static List<List<String>> rows(Table t) {
        List<List<String>> out = new ArrayList<>();
        for (long r = 0; r < t.rowCount(); r++) {
            List<String> row = new ArrayList<>();
            for (Column c : t.columns()) {
                Object v = c.getObject(r);
                row.add(v == null ? null : v instanceof byte[] b ? ByteStrings.format(b) : v.toString());
            }
            out.add(row);
        }
        return out;
    }
}
