package io.tessera.exec;

import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SMALLINT and TINYINT casts give columns of those types (the range checks of every CAST, and DuckDB's answers in
 * range, are in src/test/resources/sql/cast_range.test).
 */
class CastRangeTest {

    private static final String COLUMNS = "id INTEGER NOT NULL, i INTEGER, b BIGINT, d DOUBLE, m DECIMAL(12,2), s VARCHAR";

    /** Rows whose values fit every target the queries below cast them to. */
    private static final Object[][] IN_RANGE = {
        {1, 127, 32767L, 2.5, new BigDecimal("-128.49"), "-32768"},
        {2, -128, -32768L, -2.5, new BigDecimal("999.99"), "  42 "},
        {3, null, null, null, null, null},
        {4, 0, 2147483647L, 9.2233720368547748E18, new BigDecimal("-0.50"), "127"},
    };

    @Test
    void smallintAndTinyintCastsHaveTheirTypes(@TempDir Path dir) {
        TinyTables.write(dir, "t", COLUMNS, IN_RANGE);
        try (Tessera t = Tessera.open(dir)) {
            QueryResult r = t.query("select cast(i as smallint), cast(i as tinyint), cast(70 as smallint) from t where id = 1");
            assertEquals(DataType.SMALLINT, r.columns().get(0).type());
            assertEquals(DataType.TINYINT, r.columns().get(1).type());
            assertEquals(DataType.SMALLINT, r.columns().get(2).type());
            assertEquals(List.of(List.of("127", "127", "70")), rows(r));
        }
    }

    private static List<List<String>> rows(QueryResult r) {
        List<List<String>> out = new ArrayList<>();
        for (Object[] row : r.rows()) {
            List<String> l = new ArrayList<>();
            for (Object v : row) {
                l.add(v == null ? null : v.toString());
            }
            out.add(l);
        }
        return out;
    }
}
