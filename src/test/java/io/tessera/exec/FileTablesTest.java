package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.sql.SqlError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
