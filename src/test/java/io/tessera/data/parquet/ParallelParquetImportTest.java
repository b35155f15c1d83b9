package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.storage.Column;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Parquet file of many row groups read on several threads, each group written as a part of its own: the table
 * holds the file's rows in the file's order, the same as on one thread, appends included.
 */
class ParallelParquetImportTest {

    private static final int ROWS = 30_000;

    @TempDir
    Path dir;

    @Test
    void manyRowGroupsOnManyThreadsKeepTheFilesOrder() throws Exception {
        Path file = dir.resolve("rows.parquet");
        List<List<Object>> expected = new ArrayList<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            s.execute("COPY (SELECT i::INTEGER AS k, 'tag' || (i % 7) AS tag,"
                    + " CASE WHEN i % 11 = 0 THEN NULL ELSE 'note ' || (i * 7919 % " + ROWS + ") END AS note"
                    + " FROM range(" + ROWS + ") t(i) ORDER BY i) TO '" + file + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
            try (ResultSet r = s.executeQuery("SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file + "')")) {
                r.next();
                assertTrue(r.getLong(1) > 10, "many row groups");
            }
            try (ResultSet r = s.executeQuery("SELECT * FROM '" + file + "'")) {
                while (r.next()) {
                    expected.add(Arrays.asList(r.getInt(1), r.getString(2), r.getString(3)));
                }
            }
        }
        String columns = "k INTEGER NOT NULL, tag VARCHAR, note VARCHAR";
        try (Database db = Database.openOrCreate(dir.resolve("one"))) {
            db.createTable(TableSchema.parse("t", columns));
            ParquetImporter.importFiles(db, "t", List.of(file), 1, InvalidUtf8.ERROR);
            assertEquals(expected, rows(db.table("t")));
        }
        try (Database db = Database.openOrCreate(dir.resolve("many"))) {
            db.createTable(TableSchema.parse("t", columns));
            ParquetImporter.importFiles(db, "t", List.of(file), 4, InvalidUtf8.ERROR);
            assertEquals(expected, rows(db.table("t")));
            ParquetImporter.importFiles(db, "t", List.of(file), 3, InvalidUtf8.ERROR);
            List<List<Object>> twice = new ArrayList<>(expected);
            twice.addAll(expected);
            assertEquals(twice, rows(db.table("t")), "an append keeps the rows before it, then the file's");
        }
    }

    private static List<List<Object>> rows(Table t) {
        List<List<Object>> out = new ArrayList<>();
        for (long r = 0; r < t.rowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (Column c : t.columns()) {
                row.add(c.getObject(r));
            }
            out.add(row);
        }
        return out;
    }
}
