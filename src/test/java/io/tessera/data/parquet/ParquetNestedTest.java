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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nested values in Parquet against DuckDB: a LIST of STRUCTs, a STRUCT holding a STRUCT and a LIST, and shapes two
 * and three levels deep, with NULLs at every level (a NULL list, an empty list, a NULL element, a NULL struct, a
 * NULL field) in several row groups. DuckDB writes them, Tessera imports the same values, exports them, and DuckDB
 * reads them back the same; a MAP of BLOB keys, which Tessera's types cannot hold, is refused naming the column (at
 * any depth).
 */
class ParquetNestedTest {

    private static final int ROWS = 3_000;

    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS id,"
            // a LIST of STRUCTs: NULL list, empty list, NULL element, NULL field
            + " CASE WHEN i % 9 = 4 THEN NULL WHEN i % 9 = 5 THEN [] ELSE"
            + " [{'sku': 'k' || i, 'qty': CASE WHEN i % 4 = 1 THEN NULL ELSE (i % 50)::INTEGER END,"
            + " 'price': (i % 1000 / 8)::DECIMAL(9,2)},"
            + " CASE WHEN i % 3 = 0 THEN NULL ELSE {'sku': NULL, 'qty': -i::INTEGER, 'price': 0.5::DECIMAL(9,2)} END]"
            + " || CASE WHEN i % 5 = 2 THEN [{'sku': '', 'qty': 7, 'price': NULL::DECIMAL(9,2)}] ELSE [] END END"
            + " AS items,"
            // a STRUCT holding a STRUCT and a LIST of primitives
            + " CASE WHEN i % 7 = 3 THEN NULL ELSE {'n': CASE WHEN i % 6 = 1 THEN NULL ELSE i::BIGINT * 1000 END,"
            + " 'sub': CASE WHEN i % 8 = 2 THEN NULL ELSE {'x': CASE WHEN i % 5 = 0 THEN NULL ELSE 'v ' || i END,"
            + " 'y': i / 4.0, 'd': DATE '2021-03-01' + (i % 300)::INTEGER} END,"
            + " 'k': CASE WHEN i % 10 = 6 THEN NULL WHEN i % 10 = 7 THEN [] ELSE"
            + " [i::INTEGER, NULL, (i % 13)::INTEGER] END} END AS s,"
            // never NULL: Tessera writes it as a required group, and reads its own file back
            + " {'p': {'q': (i % 3)::INTEGER}, 'r': [i::INTEGER]} AS w"
            + " FROM range(" + ROWS + ") t(i)";

    private static final List<String> TYPES = List.of("id INTEGER",
            "items STRUCT(sku VARCHAR, qty INTEGER, price DECIMAL(9,2))[]",
            "s STRUCT(n BIGINT, sub STRUCT(x VARCHAR, y DOUBLE, d DATE), k INTEGER[])",
            "w STRUCT(p STRUCT(q INTEGER), r INTEGER[])");

    @TempDir
    Path dir;

    @Test
    void duckDbWritesTesseraImportsAndExportsTheSameNestedValues() throws Exception {
        Path in = dir.resolve("in.parquet");
        Path out = dir.resolve("out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 1024)");
            assertEquals(TYPES, describe(duck, in));
            List<List<String>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY id");
            for (String shape : List.of("}, NULL", "[]", "'qty': NULL", "'sub': NULL", "'k': NULL", "'k': []",
                    "'x': NULL", "'sku': NULL", "'sku': '', ")) {
                assertTrue(want.stream().anyMatch(r -> String.valueOf(r.get(1)).contains(shape)
                        || String.valueOf(r.get(2)).contains(shape)), shape);
            }
            assertTrue(want.stream().anyMatch(r -> r.get(1) == null) && want.stream().anyMatch(r -> r.get(2) == null));

            db.createTable(TableSchema.parse("t", "id INTEGER NOT NULL, " + TYPES.get(1) + ", " + TYPES.get(2) + ", "
                    + TYPES.get(3) + " NOT NULL"));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 700));
            assertEquals(TYPES, describe(duck, out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY id"));

            db.createTable(TableSchema.parse("back", "id INTEGER NOT NULL, " + TYPES.get(1) + ", " + TYPES.get(2)
                    + ", " + TYPES.get(3) + " NOT NULL"));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "back", List.of(out), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("back")));
        }
    }

    /** Shapes two and three levels deep, with NULLs at every level, from DuckDB and back to it. */
    private static final String DEEP_ROWS = "SELECT i::INTEGER AS id,"
            // a LIST of STRUCTs holding a LIST: NULL list, empty list, NULL element, NULL field, empty inner list
            + " CASE WHEN i % 11 = 3 THEN NULL WHEN i % 11 = 4 THEN [] ELSE"
            + " [{'xs': CASE WHEN i % 7 = 1 THEN NULL WHEN i % 7 = 2 THEN [] ELSE [i::INTEGER, NULL] END,"
            + " 'n': CASE WHEN i % 5 = 0 THEN NULL ELSE 'n' || i END},"
            + " CASE WHEN i % 3 = 0 THEN NULL ELSE {'xs': [(i % 9)::INTEGER], 'n': ''} END] END AS ls,"
            // a STRUCT holding a LIST of STRUCTs holding a STRUCT
            + " CASE WHEN i % 13 = 5 THEN NULL ELSE {'a': CASE WHEN i % 6 = 4 THEN NULL WHEN i % 6 = 5 THEN []"
            + " ELSE [{'b': (i % 100)::BIGINT, 'c': CASE WHEN i % 4 = 3 THEN NULL ELSE {'d': 'd' || i,"
            + " 'e': DATE '2020-01-01' + (i % 400)::INTEGER} END}, NULL] END, 'f': (i / 8.0)::DOUBLE} END AS sl,"
            // a STRUCT of a STRUCT of a STRUCT
            + " CASE WHEN i % 17 = 2 THEN NULL ELSE {'p': CASE WHEN i % 4 = 0 THEN NULL ELSE {'q':"
            + " CASE WHEN i % 3 = 1 THEN NULL ELSE {'r': CASE WHEN i % 5 = 1 THEN NULL ELSE (i % 7)::INTEGER END,"
            + " 's': (i % 1000 / 8)::DECIMAL(9,2)} END} END} END AS ss,"
            // a LIST of STRUCTs holding a LIST of STRUCTs
            + " [{'m': [{'k': i::INTEGER, 'v': CASE WHEN i % 2 = 0 THEN NULL ELSE i % 2 = 1 END}]},"
            + " {'m': CASE WHEN i % 3 = 2 THEN NULL ELSE [] END}] AS lls"
            + " FROM range(" + ROWS + ") t(i)";

    private static final List<String> DEEP_TYPES = List.of("id INTEGER",
            "ls STRUCT(xs INTEGER[], n VARCHAR)[]",
            "sl STRUCT(a STRUCT(b BIGINT, c STRUCT(d VARCHAR, e DATE))[], f DOUBLE)",
            "ss STRUCT(p STRUCT(q STRUCT(r INTEGER, s DECIMAL(9,2))))",
            "lls STRUCT(m STRUCT(k INTEGER, v BOOLEAN)[])[]");

    @Test
    void deeperShapesRoundTripBetweenDuckDbAndTessera() throws Exception {
        Path in = dir.resolve("deep.parquet");
        Path out = dir.resolve("deep-out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DEEP_ROWS + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 1024)");
            assertEquals(DEEP_TYPES, describe(duck, in));
            List<List<String>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY id");
            for (String shape : List.of("'xs': NULL", "'xs': []", "'n': NULL", "}, NULL]", "'a': NULL", "'a': []",
                    "'c': NULL", "'p': NULL", "'q': NULL", "'r': NULL", "'m': NULL", "'m': []", "'v': NULL")) {
                assertTrue(want.stream().anyMatch(r -> String.join("|", r.stream().map(String::valueOf).toList())
                        .contains(shape)), shape);
            }
            for (int c = 1; c <= 3; c++) {
                int column = c;
                assertTrue(want.stream().anyMatch(r -> r.get(column) == null), "a NULL in column " + c);
            }
            String columns = String.join(", ", DEEP_TYPES.subList(1, DEEP_TYPES.size()));
            db.createTable(TableSchema.parse("t", "id INTEGER NOT NULL, " + columns));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 700));
            assertEquals(DEEP_TYPES, describe(duck, out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY id"));
        }
    }

    @Test
    void shapesTesseraCannotHoldAreRefusedNamingTheColumn() throws Exception {
        Path file = dir.resolve("unheld.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            // a MAP of BLOB keys: a map's key and value are what a struct's fields may be
            exec(duck, "COPY (SELECT 1 AS id, MAP {'\\xAA'::BLOB: 1} AS m, [MAP {'\\xAA'::BLOB: 1}] AS lm,"
                    + " [[MAP {'\\xAA'::BLOB: 1}]] AS llm) TO '" + file + "' (FORMAT parquet)");
            List<SourceColumn> columns;
            try (ParquetFile f = ParquetFile.open(file)) {
                columns = f.columns();
            }
            String bytes = "a MAP whose key holds BYTES, which Tessera's structs cannot hold";
            assertEquals(null, columns.get(0).reason());
            assertEquals(bytes, columns.get(1).reason());
            assertEquals("a LIST of " + bytes, columns.get(2).reason());
            assertEquals("a LIST of a LIST of " + bytes, columns.get(3).reason());

            db.createTable(TableSchema.parse("t", "id INTEGER, lm INTEGER[]"));
            io.tessera.data.io.ImportException e = assertThrows(io.tessera.data.io.ImportException.class,
                    () -> ParquetImporter.importFiles(db, "t", List.of(file), 1, InvalidUtf8.ERROR));
            assertTrue(e.getMessage().contains("column 2 (lm): a LIST of " + bytes),
                    e.getMessage());
        }
    }
}
