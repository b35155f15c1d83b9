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
 * STRUCT columns in Parquet against DuckDB: DuckDB writes groups of primitive fields, Tessera imports the same
 * values (a NULL struct apart from a struct of NULL fields, in several row groups), exports them as groups, and
 * DuckDB reads them back as STRUCTs with the same values; nesting deeper than ParquetNestedTest reads is refused naming the column.
 */
class ParquetStructTest {

    private static final int ROWS = 5_000;

    /** Every field type a struct holds, NULL structs and NULL fields, a NOT NULL struct beside them. */
    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS id,"
            + " CASE WHEN i % 7 = 3 THEN NULL ELSE {'a': CASE WHEN i % 5 = 1 THEN NULL ELSE i::INTEGER END,"
            + " 'b': CASE WHEN i % 4 = 2 THEN NULL WHEN i % 4 = 1 THEN '' ELSE 'v ' || i END,"
            + " 'd': DATE '2020-01-01' + (i % 400)::INTEGER, 'm': (i / 8)::DECIMAL(9,2), 'f': i / 3.0,"
            + " 'ok': i % 2 = 0, 'big': i::BIGINT * 1000000} END AS s,"
            + " {'n': (i % 11)::INTEGER} AS w"
            + " FROM range(" + ROWS + ") t(i)";

    private static final List<String> TYPES = List.of("id INTEGER",
            "s STRUCT(a INTEGER, b VARCHAR, d DATE, m DECIMAL(9,2), f DOUBLE, ok BOOLEAN, big BIGINT)",
            "w STRUCT(n INTEGER)");

    @TempDir
    Path dir;

    @Test
    void duckDbWritesTesseraImportsAndExportsTheSameStructs() throws Exception {
        Path in = dir.resolve("in.parquet");
        Path out = dir.resolve("out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            assertEquals(TYPES, describe(duck, in));
            List<List<String>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY id");
            assertTrue(want.stream().anyMatch(r -> r.get(1) == null), "a NULL struct");
            assertTrue(want.stream().anyMatch(r -> r.get(1) != null && r.get(1).contains("'a': NULL")), "a NULL field");
            db.createTable(TableSchema.parse("t", "id INTEGER NOT NULL, " + TYPES.get(1) + ", "
                    + TYPES.get(2) + " NOT NULL"));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 1500));
            assertEquals(TYPES, describe(duck, out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY id"));
        }
    }

    @Test
    void structsOfNestedValuesAndStructsOfOtherFieldsAreRefusedNamingTheColumn() throws Exception {
        Path nested = dir.resolve("nested.parquet");
        Path plain = dir.resolve("plain.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (SELECT 1 AS id, {'xs': [[MAP {'\\xAA'::BLOB: 1}]]} AS s,"
                    + " [{'m': MAP {'\\xAA'::BLOB: 1}}] AS l) TO '" + nested + "' (FORMAT parquet)");
            List<SourceColumn> columns;
            try (ParquetFile f = ParquetFile.open(nested)) {
                columns = f.columns();
            }
            assertTrue(columns.get(1).reason().contains("a STRUCT whose field xs holds a LIST of a LIST of a MAP whose"
                    + " key holds BYTES"), columns.get(1).reason());
            assertTrue(columns.get(2).reason().contains("MAP"), columns.get(2).reason());

            exec(duck, "COPY (SELECT {'a': 1, 'b': 'x'} AS s) TO '" + plain + "' (FORMAT parquet)");
            db.createTable(TableSchema.parse("t", "s STRUCT(a INTEGER, c VARCHAR)"));
            ImportException e = assertThrows(ImportException.class,
                    () -> ParquetImporter.importFiles(db, "t", List.of(plain), 2, InvalidUtf8.ERROR));
            assertTrue(e.getMessage().contains("(s): the file holds STRUCT(a INTEGER, b VARCHAR), which a"
                    + " STRUCT(a INTEGER, c VARCHAR) column cannot take"), e.getMessage());
        }
    }
}
