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
 * Nested values one level deep in Parquet against DuckDB: a LIST of STRUCTs, a STRUCT holding a STRUCT and a LIST,
 * with NULLs at every level (a NULL list, an empty list, a NULL element, a NULL struct, a NULL field) in several row
 * groups. DuckDB writes them, Tessera imports the same values, exports them, and DuckDB reads them back the same;
 * deeper shapes are refused both ways naming the column.
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

    @Test
    void deeperShapesAreRefusedNamingTheColumn() throws Exception {
        Path deep = dir.resolve("deep.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (SELECT 1 AS id, {'a': {'b': {'c': 1}}} AS s, [[1, 2]] AS ll, [{'xs': [1]}] AS ls,"
                    + " {'a': [{'b': 1}]} AS sl) TO '" + deep + "' (FORMAT parquet)");
            List<SourceColumn> columns;
            try (ParquetFile f = ParquetFile.open(deep)) {
                columns = f.columns();
            }
            assertEquals(null, columns.get(0).reason());
            assertTrue(columns.get(1).reason().contains("a STRUCT whose field a holds a STRUCT whose field b is a"
                    + " nested (list or group) value inside a nested value"), columns.get(1).reason());
            assertTrue(columns.get(2).reason().contains("a LIST of nested values"), columns.get(2).reason());
            assertTrue(columns.get(3).reason().contains("a LIST of a STRUCT whose field xs is a nested"),
                    columns.get(3).reason());
            assertTrue(columns.get(4).reason().contains("a STRUCT whose field a holds a LIST of nested values inside a"
                    + " nested value"), columns.get(4).reason());

            db.createTable(TableSchema.parse("t", "ls STRUCT(xs INTEGER[])[]"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ParquetExporter.export(db.table("t"), dir.resolve("out.parquet"), 100));
            assertTrue(e.getMessage().contains("Parquet export of the column ls of type STRUCT(xs INTEGER[])[] (a LIST"
                    + " holding STRUCT(xs INTEGER[]), nested deeper than Tessera writes to Parquet)"), e.getMessage());
        }
    }
}
