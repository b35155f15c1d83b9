package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.tessera.data.parquet.DuckDbText.describe;
import static io.tessera.data.parquet.DuckDbText.duckRows;
import static io.tessera.data.parquet.DuckDbText.duckdb;
import static io.tessera.data.parquet.DuckDbText.exec;
import static io.tessera.data.parquet.DuckDbText.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A Parquet FLOAT column against DuckDB: DuckDB writes FLOAT values (fractions no double digit string shows short,
 * the largest and smallest floats, infinities, NaN, NULL), Tessera imports them into a REAL column exactly, exports
 * them as FLOAT, and DuckDB reads back the same floats.
 */
class ParquetRealTest {

    private static final int ROWS = 5_000;

    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS i,"
            + " CASE WHEN i % 11 = 5 THEN NULL WHEN i = 1 THEN 'nan'::FLOAT WHEN i = 2 THEN 'inf'::FLOAT"
            + " WHEN i = 3 THEN '-inf'::FLOAT WHEN i = 4 THEN 3.4028235e38::FLOAT WHEN i = 6 THEN 1.4e-45::FLOAT"
            + " ELSE (i / 7.0 - 300)::FLOAT END AS f"
            + " FROM range(" + ROWS + ") t(i)";

    @TempDir
    Path dir;

    @Test
    void duckDbWritesFloatsTesseraImportsAndExportsTheSameFloats() throws Exception {
        Path in = dir.resolve("in.parquet");
        Path out = dir.resolve("out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            assertEquals(List.of("i INTEGER", "f FLOAT"), describe(duck, in));
            List<List<String>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY i");
            db.createTable(TableSchema.parse("t", "i INTEGER NOT NULL, f REAL"));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 2500));
            assertEquals(List.of("i INTEGER", "f FLOAT"), describe(duck, out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY i"));
        }
    }
}
