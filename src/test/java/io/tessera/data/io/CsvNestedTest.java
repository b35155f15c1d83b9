package io.tessera.data.io;

import io.tessera.storage.Database;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static io.tessera.data.io.ImportTestSupport.opts;
import static io.tessera.data.parquet.DuckDbText.duckRows;
import static io.tessera.data.parquet.DuckDbText.duckdb;
import static io.tessera.data.parquet.DuckDbText.exec;
import static io.tessera.data.parquet.DuckDbText.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LIST and STRUCT columns in CSV as DuckDB's text of them, against DuckDB: its COPY TO csv writes nested values
 * (strings quoted where DuckDB quotes them, NULLs at every level), Tessera imports the same values, exports a file
 * byte for byte like DuckDB's, and DuckDB reads Tessera's file back the same; malformed text names the line, the
 * column and the character.
 */
class CsvNestedTest {

    private static final String STRINGS = "['it''s', 'a,b', '', 'NULL', ' lead', 'x\"y', '[b]', '{c}', 'a\\b',"
            + " 'é ü', 'p: q']";

    private static final String DUCKDB_ROWS = "SELECT i::INTEGER AS id,"
            + " CASE WHEN i % 7 = 3 THEN NULL WHEN i % 7 = 4 THEN [] ELSE [i::INTEGER, NULL, -i::INTEGER] END AS l,"
            + " CASE WHEN i % 5 = 2 THEN NULL ELSE {'a': CASE WHEN i % 3 = 0 THEN NULL ELSE i / 4.0 END,"
            + " 'b': CASE WHEN i % 4 = 1 THEN NULL ELSE " + STRINGS + "[i % 11 + 1:i % 11 + 2] || [NULL, 'v' || i] END,"
            + " 'd': DATE '2020-02-27' + i::INTEGER, 'e': (i % 1000 / 8)::DECIMAL(9,2), 'f': i % 2 = 0} END AS s,"
            + " CASE WHEN i % 6 = 5 THEN NULL ELSE [{'k': 'k ' || i, 'm': CASE WHEN i % 3 = 1 THEN NULL"
            + " ELSE {'n': i::BIGINT * 1000000, 't': TIMESTAMP '2024-01-01 10:00:00' + i * INTERVAL 1 MINUTE} END},"
            + " NULL, {'k': " + STRINGS + "[i % 11 + 1], 'm': {'n': NULL, 't': NULL}}] END AS ls"
            + " FROM range(300) t(i)";

    private static final String TYPES = "id INTEGER, l INTEGER[],"
            + " s STRUCT(a DOUBLE, b VARCHAR[], d DATE, e DECIMAL(9,2), f BOOLEAN),"
            + " ls STRUCT(k VARCHAR, m STRUCT(n BIGINT, t TIMESTAMP))[]";

    private static final String DUCKDB_COLUMNS = "{'id': 'INTEGER', 'l': 'INTEGER[]',"
            + " 's': 'STRUCT(a DOUBLE, b VARCHAR[], d DATE, e DECIMAL(9,2), f BOOLEAN)',"
            + " 'ls': 'STRUCT(k VARCHAR, m STRUCT(n BIGINT, t TIMESTAMP))[]'}";

    @TempDir
    Path dir;

    @Test
    void duckDbWritesTesseraImportsAndExportsTheSameNestedValues() throws Exception {
        Path in = dir.resolve("in.csv");
        Path out = dir.resolve("out.csv");
        try (Connection duck = duckdb(); Database db = Database.openOrCreate(dir.resolve("db"))) {
            exec(duck, "COPY (" + DUCKDB_ROWS + ") TO '" + in + "' (HEADER)");
            List<List<String>> want = duckRows(duck, DUCKDB_ROWS + " ORDER BY id");
            String text = Files.readString(in);
            for (String shape : List.of("'it\\'s'", "'a,b'", "''", "'NULL'", "' lead'", "'[b]'", "'a\\\\b'",
                    "'p: q'", "é ü", "[]", "'m': NULL", "'b': NULL", "}, NULL, {")) {
                assertTrue(text.contains(shape), shape);
            }

            db.createTable(TableSchema.parse("t", TYPES));
            assertEquals(300, TableImporter.importFiles(db, "t", List.of(in), opts().withHeader(true)).rows());
            assertEquals(want, rows(db.table("t")));

            assertEquals(300, TableExporter.export(db.table("t"), out, ImportFormat.CSV, (byte) ','));
            assertEquals(text, Files.readString(out));
            assertEquals(want, duckRows(duck, "SELECT * FROM read_csv('" + out + "', header = true, columns = "
                    + DUCKDB_COLUMNS + ") ORDER BY id"));
        }
    }

    @Test
    void malformedTextNamesLineColumnAndCharacter() throws Exception {
        try (Database db = Database.openOrCreate(dir.resolve("db"))) {
            db.createTable(TableSchema.parse("t", "id INTEGER, s STRUCT(a INTEGER, b VARCHAR[]), l INTEGER[]"));
            String[][] cases = {
                {"1,\"{'a': 1, 'b': [x, y\",", "column 2 (s): malformed nested value at character 20: the text"
                        + " ends before the closing ']'"},
                {"1,,\"[1, x]\"", "column 3 (l): malformed nested value at character 5: invalid INTEGER 'x'"},
                {"1,\"{'a': 1, 'c': 2}\",", "column 2 (s): malformed nested value at character 10:"
                        + " STRUCT(a INTEGER, b VARCHAR[]) has no field 'c'"},
                {"1,,[1] 2", "column 3 (l): malformed nested value at character 5: text after the end of the LIST"},
                {"1,\"{'a': 1, 'a': 2}\",", "column 2 (s): malformed nested value at character 10: the field 'a'"
                        + " is named twice"},
                {"1,\"{'b': 'x'}\",", "column 2 (s): malformed nested value at character 7: expected a LIST ([) or"
                        + " NULL"},
                {"1,,\"\"", "column 3 (l): empty text (\"\"), which is no INTEGER[] value"},
                {"1,,1", "column 3 (l): malformed nested value at character 1: expected a LIST ('[')"},
            };
            for (String[] c : cases) {
                Path f = dir.resolve("bad.csv");
                Files.writeString(f, "id,s,l\n2,,[]\n" + c[0] + "\n", StandardCharsets.UTF_8);
                ImportException e = assertThrows(ImportException.class,
                        () -> TableImporter.importFiles(db, "t", List.of(f), opts().withHeader(true)));
                assertTrue(e.getMessage().contains(f + ":3: " + c[1]), c[0] + " -> " + e.getMessage());
                assertEquals(0, db.table("t").rowCount());
            }
        }
    }
}
