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
 * MAP columns in Parquet against DuckDB: DuckDB writes its MAP groups (a repeated group of a key and a value), Tessera
 * imports the same maps (NULL maps, empty maps, NULL values, maps of lists and structs, lists of maps, a struct of a
 * map, in several row groups), exports them as MAP groups, and DuckDB reads them back as the same values.
 */
class ParquetMapTest {

    private static final int ROWS = 5_000;

    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS id,"
            + " CASE WHEN i % 7 = 3 THEN NULL WHEN i % 7 = 4 THEN MAP {} ELSE MAP {'k' || i: i::INTEGER,"
            + " 'n': CASE WHEN i % 5 = 1 THEN NULL ELSE (i * 2)::INTEGER END} END AS m,"
            + " CASE WHEN i % 4 = 0 THEN NULL ELSE MAP {i: [i, NULL], -i: NULL} END AS ml,"
            + " [MAP {'a': {'x': i, 'd': DATE '2020-01-01' + (i % 400)::INTEGER}}, NULL, MAP {}] AS lm,"
            + " {'s': MAP {'q': 'v ' || i, 'e': ''}} AS sm"
            + " FROM range(" + ROWS + ") t(i)";

    private static final List<String> TYPES = List.of("id INTEGER", "m MAP(VARCHAR, INTEGER)",
            "ml MAP(BIGINT, BIGINT[])", "lm MAP(VARCHAR, STRUCT(x BIGINT, d DATE))[]",
            "sm STRUCT(s MAP(VARCHAR, VARCHAR))");

    @TempDir
    Path dir;

    @Test
    void duckDbWritesTesseraImportsAndExportsTheSameMaps() throws Exception {
        Path in = dir.resolve("in.parquet");
        Path out = dir.resolve("out.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            assertEquals(TYPES, describe(duck, in));
            List<List<String>> want = duckRows(duck, "SELECT * FROM read_parquet('" + in + "') ORDER BY id");
            assertTrue(want.stream().anyMatch(r -> r.get(1) == null), "a NULL map");
            assertTrue(want.stream().anyMatch(r -> "{}".equals(r.get(1))), "an empty map");
            assertTrue(want.stream().anyMatch(r -> r.get(1) != null && r.get(1).contains("n=NULL")), "a NULL value");
            try (ParquetFile f = ParquetFile.open(in)) {
                assertEquals(TYPES.subList(1, TYPES.size()), f.columns().subList(1, TYPES.size()).stream()
                        .map(c -> c.name() + " " + c.natural()).toList());
            }
            db.createTable(TableSchema.parse("t", "id INTEGER NOT NULL, " + String.join(", ", TYPES.subList(1,
                    TYPES.size()))));
            assertEquals(ROWS, ParquetImporter.importFiles(db, "t", List.of(in), 2, InvalidUtf8.ERROR).rows());
            assertEquals(want, rows(db.table("t")));

            assertEquals(ROWS, ParquetExporter.export(db.table("t"), out, 1500));
            assertEquals(TYPES, describe(duck, out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_parquet('" + out + "') ORDER BY id"));
        }
    }

    @Test
    void aMapIntoAListColumnAndAMapOfBytesAreRefusedNamingTheColumn() throws Exception {
        Path file = dir.resolve("maps.parquet");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (SELECT MAP {'k': 1} AS m, MAP {'\\xAA'::BLOB: 1} AS b) TO '" + file
                    + "' (FORMAT parquet)");
            try (ParquetFile f = ParquetFile.open(file)) {
                assertEquals("a MAP whose key holds BYTES, which Tessera's structs cannot hold",
                        f.columns().get(1).reason());
            }
            db.createTable(TableSchema.parse("t", "m STRUCT(\"key\" VARCHAR, \"value\" INTEGER)[]"));
            ImportException e = assertThrows(ImportException.class,
                    () -> ParquetImporter.importFiles(db, "t", List.of(file), 1, InvalidUtf8.ERROR));
            assertTrue(e.getMessage().contains("(m): the file holds MAP(VARCHAR, INTEGER), which a"
                    + " STRUCT(\"key\" VARCHAR, \"value\" INTEGER)[] column cannot take"), e.getMessage());
        }
    }
}
