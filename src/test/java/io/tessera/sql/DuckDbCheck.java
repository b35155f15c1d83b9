package io.tessera.sql;

import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Small tables written row by row, and one query run on Tessera and on DuckDB (loaded with the same tables),
 * with the rows compared exactly: in order when the query fixes the order, else as sorted lists.
 */
final class DuckDbCheck implements AutoCloseable {

    private final Tessera tessera;
    private final DuckDbPeer duck;

    DuckDbCheck(Path dir) {
        tessera = Tessera.open(dir);
        duck = DuckDbPeer.inMemory(tessera.database());
    }

    Tessera tessera() {
        return tessera;
    }

    /** Creates (or replaces) table {@code name} with columns {@code columns} (DDL syntax) holding {@code rows}. */
    static void write(Path dir, String name, String columns, Object[]... rows) {
        io.tessera.exec.TinyTables.write(dir, name, columns, rows);
    }

    /** The rows of a result, each value as text (numbers by value, whatever their Java kind). */
    static List<String> rows(QueryResult r) {
        List<String> out = new ArrayList<>();
        for (Object[] row : r.rows()) {
            StringBuilder sb = new StringBuilder("[");
            for (int c = 0; c < row.length; c++) {
                Object v = row[c];
                if (v instanceof Number n && !(v instanceof Double)) {
                    v = new BigDecimal(n.toString()).stripTrailingZeros().toPlainString();
                }
                sb.append(c == 0 ? "" : ", ").append(v);
            }
            out.add(sb.append(']').toString());
        }
        return out;
    }

    /** Asserts that Tessera and DuckDB give the same rows, in the same order when {@code ordered}. */
    List<String> same(String sql, boolean ordered) {
        List<String> expected = rows(duck.query(sql));
        List<String> actual;
        try {
            actual = rows(tessera.query(sql));
        } catch (RuntimeException e) {
            throw new AssertionError("Tessera failed on " + sql + " where DuckDB gave " + expected + ": " + e, e);
        }
        if (!ordered) {
            expected = new ArrayList<>(expected);
            actual = new ArrayList<>(actual);
            expected.sort(null);
            actual.sort(null);
        }
        assertEquals(expected, actual, sql);
        return actual;
    }

    /** Asserts that both engines reject {@code sql}. */
    void bothReject(String sql) {
        try {
            duck.query(sql);
            fail("DuckDB accepted " + sql);
        } catch (IllegalStateException expected) {
            // the reference rejects it
        }
        try {
            List<String> rows = rows(tessera.query(sql));
            fail("Tessera accepted " + sql + ", giving " + rows);
        } catch (SqlError expected) {
            // and so does Tessera
        }
    }

    @Override
    public void close() {
        duck.close();
        tessera.close();
    }
}
