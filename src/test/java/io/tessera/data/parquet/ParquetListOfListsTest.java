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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Parquet LISTs of LISTs against DuckDB: an INTEGER[][], a VARCHAR[][][] and a STRUCT holding a BIGINT[][] inside a
 * list, with a NULL and an empty list at every level and NULL elements, in several row groups. DuckDB writes them,
 * Tessera reads the same types and values, exports them, and DuckDB reads Tessera's file back as the same values.
 */
class ParquetListOfListsTest {

    private static final int ROWS = 2_000;

    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS id,"
            // two levels: NULL and empty outer list, NULL and empty inner list, NULL element
            + " CASE WHEN i % 9 = 4 THEN NULL WHEN i % 9 = 5 THEN [] ELSE"
            + " [[i::INTEGER, CASE WHEN i % 4 = 1 THEN NULL ELSE (i % 50)::INTEGER END],"
            + " CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN [] ELSE [-i::INTEGER] END] END AS ll,"
            // three levels of text, an empty string among them
            + " CASE WHEN i % 7 = 3 THEN NULL ELSE [[['v' || i, CASE WHEN i % 5 = 0 THEN NULL ELSE '' END], NULL],"
            + " CASE WHEN i % 6 = 2 THEN NULL ELSE [[], ['w']] END] END AS lll,"
            // a list of lists inside a struct inside a list
            + " [{'a': CASE WHEN i % 8 = 2 THEN NULL ELSE [[i::BIGINT * 1000], NULL, []] END, 'n': i % 2 = 0}] AS sl"
            + " FROM range(" + ROWS + ") t(i)";

    private static final List<String> TYPES = List.of("id INTEGER", "ll INTEGER[][]", "lll VARCHAR[][][]",
            "sl STRUCT(a BIGINT[][], n BOOLEAN)[]");

    @TempDir
    Path dir;

    @Test
    void duckDbWritesTesseraImportsAndExportsTheSameListsOfLists() throws Exception {
        Path in = dir.resolve("in.parquet");
        Path out = dir.resolve("out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 512)");
            assertEquals(TYPES, describe(duck, in));
            List<List<String>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY id");
            for (String shape : List.of(", NULL]", ", []]", "[[], [w]]", "''", "'a': NULL", "[[0, 0], NULL]")) {
                assertTrue(want.stream().anyMatch(r -> String.join("|", r.stream().map(String::valueOf).toList())
                        .contains(shape)), shape);
            }
            assertTrue(want.stream().anyMatch(r -> r.get(1) == null) && want.stream().anyMatch(r -> r.get(2) == null));
            assertTrue(want.stream().anyMatch(r -> "[]".equals(r.get(1))));

            List<SourceColumn> columns;
            try (ParquetFile f = ParquetFile.open(in)) {
                columns = f.columns();
            }
            for (SourceColumn c : columns) {
                assertNull(c.reason(), c.name());
            }

            String schema = "id INTEGER NOT NULL, " + String.join(", ", TYPES.subList(1, TYPES.size()));
            db.createTable(TableSchema.parse("t", schema));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 700));
            assertEquals(TYPES, describe(duck, out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY id"));

            db.createTable(TableSchema.parse("back", schema));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "back", List.of(out), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("back")));
        }
    }
}
