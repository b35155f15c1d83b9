package io.tessera.data.parquet;

import io.tessera.data.io.ImportException;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UUID and BLOB in Parquet against DuckDB: DuckDB writes FIXED_LEN_BYTE_ARRAY(16) annotated UUID and BYTE_ARRAY
 * without a string annotation, Tessera imports the same values, exports them as those types, and DuckDB reads them
 * back as UUID and BLOB with the same values.
 */
class ParquetBlobUuidTest {

    private static final int ROWS = 6_000;

    /**
     * UUIDs whose first bit differs and NULLs; bytes of every value (0x00, 0xFF), empty, NULL, and lengths that
     * vary, in row groups of 2048 rows.
     */
    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS i,"
            + " CASE WHEN i % 7 = 3 THEN NULL ELSE (lpad(to_hex(i * 2654435761 % 4294967296), 8, '0')"
            + " || '-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::UUID END AS u,"
            + " CASE WHEN i % 5 = 2 THEN NULL WHEN i % 5 = 1 THEN ''::BLOB"
            + " ELSE unhex(lpad(to_hex(i % 256), 2, '0') || '00ff' || repeat('ab', i % 9)) END AS b,"
            + " gen_random_uuid() AS r"
            + " FROM range(" + ROWS + ") t(i)";

    @TempDir
    Path dir;

    @Test
    void duckDbWritesTesseraImportsAndExportsTheSameValuesAndTypes() throws Exception {
        Path in = dir.resolve("in.parquet");
        Path out = dir.resolve("out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            assertEquals(List.of("i INTEGER", "u UUID", "b BLOB", "r UUID"), describe(duck, in));
            List<List<String>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY i");
            db.createTable(TableSchema.parse("t", "i INTEGER NOT NULL, u UUID, b BLOB, r UUID NOT NULL"));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));
            assertTrue(want.stream().anyMatch(r -> r.get(2) != null && r.get(2).contains("\\xFF")), "0xFF bytes");

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 2500));
            assertEquals(List.of("i INTEGER", "u UUID", "b BLOB", "r UUID"), describe(duck, out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY i"));
        }
    }

    @Test
    void bytesOrAUuidInAColumnOfAnotherTypeFailNamingTheColumn() throws Exception {
        Path file = dir.resolve("f.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (SELECT gen_random_uuid() AS u, 'x'::BLOB AS b) TO '" + file + "' (FORMAT parquet)");
            db.createTable(TableSchema.parse("t", "u VARCHAR, b BLOB"));
            ImportException e = assertThrows(ImportException.class,
                    () -> ParquetImporter.importFiles(db, "t", List.of(file), 2, InvalidUtf8.ERROR));
            assertTrue(e.getMessage().contains("column 1 (u): the file holds UUID, which a VARCHAR column cannot take"),
                    e.getMessage());
            db.createTable(TableSchema.parse("s", "u UUID, b VARCHAR"));
            e = assertThrows(ImportException.class,
                    () -> ParquetImporter.importFiles(db, "s", List.of(file), 2, InvalidUtf8.ERROR));
            assertTrue(e.getMessage().contains("column 2 (b): the file holds BYTES, which a VARCHAR column cannot take"),
                    e.getMessage());
        }
    }
}
