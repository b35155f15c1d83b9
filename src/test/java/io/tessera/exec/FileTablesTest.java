package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.sql.FileReference;
import io.tessera.storage.Database;
import io.tessera.sql.SqlError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files in FROM beyond what the .test files show: the directories SQL may read, links refused, a bad value past
 * the rows the types were guessed from named by file, line and column, and no temporary table left behind.
 */
class FileTablesTest {

    @Test
    void aFileIsReadOnlyBelowAnAllowedDirectoryThroughNoLink(@TempDir Path work) throws IOException {
        Path allowed = Files.createDirectories(work.resolve("allowed"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.writeString(allowed.resolve("ok.csv"), "id,name\n1,one\n2,two\n");
        Files.writeString(outside.resolve("secret.csv"), "id,name\n3,secret\n");
        Files.createSymbolicLink(allowed.resolve("link.csv"), outside.resolve("secret.csv"));
        Files.createSymbolicLink(allowed.resolve("linked"), outside);
        try (Tessera t = Tessera.openOrCreate(work.resolve("db"))) {
            String ok = "SELECT count(*) FROM '" + allowed.resolve("ok.csv") + "'";
            assertTrue(refused(t, ok).contains("allowed no directory"), refused(t, ok));
            t.allowCopyFrom(allowed);
            assertEquals(2L, scalar(t, ok));
            String m = refused(t, "SELECT * FROM '" + allowed.resolve("link.csv") + "'");
            assertTrue(m.contains("'link.csv' is a symbolic link") && m.contains("at line 1, column 15"), m);
            m = refused(t, "SELECT * FROM read_csv('" + allowed.resolve("linked/secret.csv") + "')");
            assertTrue(m.contains("'linked' is a symbolic link"), m);
            m = refused(t, "SELECT * FROM '" + allowed.resolve("linked") + "/*.csv'");
            assertTrue(m.contains("'linked' is a symbolic link"), m);
            m = refused(t, "SELECT * FROM '" + outside.resolve("secret.csv") + "'");
            assertTrue(m.contains("not under a directory SQL may read"), m);
            assertNoTemporaryTables(work.resolve("db"));
        }
    }

    @Test
    void aBadValuePastTheGuessedRowsNamesFileLineAndColumnWhereTheColumnIsRead(@TempDir Path work) throws IOException {
        StringBuilder csv = new StringBuilder("id,v\n");
        for (int i = 0; i < 25_000; i++) {
            csv.append(i).append(',').append(i * 2).append('\n');
        }
        csv.append("25000,twice\n");
        Path file = Files.writeString(work.resolve("big.csv"), csv);
        try (Tessera t = Tessera.openOrCreate(work.resolve("db")).allowCopyFrom(work)) {
            t.query("CREATE TABLE keep (v BIGINT)");
            String m = refused(t, "INSERT INTO keep SELECT v FROM '" + file + "'");
            assertTrue(m.contains("big.csv:25002: column 2 (v)") && m.contains("twice"), m);
            assertEquals(0L, scalar(t, "SELECT count(*) FROM keep"));
            // a query that does not name v never parses it
            assertEquals(25_001L, scalar(t, "SELECT count(id) FROM '" + file + "'"));
            assertEquals(25_001L, scalar(t, "SELECT count(*) FROM '" + file + "'"));
            // the guess from the first rows holds for a query that reads them all when the file is good
            Files.writeString(file, csv.substring(0, csv.lastIndexOf("25000,twice")));
            assertEquals(25_000L, scalar(t, "SELECT count(*) FROM '" + file + "' WHERE v = id * 2"));
            assertNoTemporaryTables(work.resolve("db"));
        }
    }

    @Test
    void filesAreReadAgainByEachStatementAndLeaveNothingInTheDatabase(@TempDir Path work) throws IOException {
        Path file = Files.writeString(work.resolve("n.csv"), "n\n1\n2\n");
        try (Tessera t = Tessera.openOrCreate(work.resolve("db")).allowCopyFrom(work)) {
            assertEquals(3L, scalar(t, "SELECT sum(n) FROM '" + file + "'"));
            Files.writeString(file, "n\n1\n2\n3\n");
            assertEquals(6L, scalar(t, "SELECT sum(n) FROM '" + file + "'"));
            assertTrue(t.database().tables().isEmpty());
            assertNoTemporaryTables(work.resolve("db"));
            // EXPLAIN plans the file as a table
            String plan = String.join("\n", t.query("EXPLAIN SELECT sum(n) FROM '" + file + "'").rows().stream()
                    .map(r -> (String) r[0]).toList());
            assertTrue(plan.contains("LOOP file_0"), plan);
            assertNoTemporaryTables(work.resolve("db"));
        }
    }

    @Test
    void parquetRowGroupsOutsideTheWhereBoundsAreNotRead(@TempDir Path work) {
        // sales_1.parquet: ids 1..3000 in row groups written by DuckDB with ROW_GROUP_SIZE 1000
        Path dir = Path.of("src/test/resources/sql/copy/files");
        String file = dir.resolve("sales_1.parquet").toString();
        try (Database db = Database.openOrCreate(work.resolve("db"));
             FileTableLoader loader = new FileTableLoader(db, List.of(dir), null)) {
            assertEquals(3000, rows(loader, file, List.of()));
            long high = rows(loader, file, List.of(new FileReference.Bound("id", ">", BigDecimal.valueOf(2500))));
            assertTrue(high >= 500 && high < 3000, high + " rows read");
            long low = rows(loader, file, List.of(new FileReference.Bound("id", "<=", BigDecimal.valueOf(3))));
            assertTrue(low >= 3 && low < 3000, low + " rows read");
            assertEquals(0, rows(loader, file, List.of(new FileReference.Bound("id", "<", BigDecimal.ZERO))));
            assertEquals(0, rows(loader, file, List.of(new FileReference.Bound("id", "=", BigDecimal.valueOf(3001)))));
            // a bound on a DECIMAL column, by its value: price = id * 1.25
            long priced = rows(loader, file, List.of(new FileReference.Bound("price", ">=", new BigDecimal("3700.5"))));
            assertTrue(priced >= 40 && priced < 3000, priced + " rows read");
        }
        try (Tessera t = Tessera.openOrCreate(work.resolve("db2")).allowCopyFrom(dir)) {
            assertEquals(500L, scalar(t, "SELECT count(*) FROM '" + file + "' WHERE id > 2500"));
            assertEquals(3L, scalar(t, "SELECT count(*) FROM '" + file + "' WHERE 3 >= id AND name <> 'x'"));
            assertEquals(3000L, scalar(t, "SELECT count(*) FROM '" + file + "' WHERE id > 2500 OR id <= 2500"));
        }
    }

    private static long rows(FileTableLoader loader, String file, List<FileReference.Bound> bounds) {
        return loader.table(new FileReference(null, List.of(file), Map.of(), Map.of(), Set.of("id"), bounds,
                org.apache.calcite.sql.parser.SqlParserPos.ZERO)).rowCount();
    }

    private static void assertNoTemporaryTables(Path db) throws IOException {
        assertFalse(Files.exists(db.resolve(".files")), () -> {
            try (var s = Files.walk(db.resolve(".files"))) {
                return s.map(Path::toString).toList().toString();
            } catch (IOException e) {
                return e.toString();
            }
        });
    }

    private static long scalar(Tessera t, String sql) {
        return ((Number) t.query(sql).rows().getFirst()[0]).longValue();
    }

    private static String refused(Tessera t, String sql) {
        return assertThrows(SqlError.class, () -> t.query(sql)).getMessage();
    }
}
