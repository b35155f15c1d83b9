package io.tessera.exec;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import io.tessera.sql.SqlError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What INSERT, UPDATE, DELETE and COPY promise beyond their answers: a reader holding a snapshot keeps reading it
 * while another writer updates and deletes; a statement that fails part way leaves the table as it was, with no
 * file of its own left behind; COPY reads only files under the directories the application allowed.
 */
class DataChangeTest {

    /** Rows of the test table: ids 0 .. ROWS-1, v = 10 each, so sum(v) = 10 * ROWS in every generation. */
    static final int ROWS = 2000;

    static Tessera tableOfTens(Path dir) {
        Tessera t = Tessera.openOrCreate(dir);
        t.query("CREATE TABLE t (id INTEGER NOT NULL, v BIGINT NOT NULL, s SMALLINT)");
        t.query("INSERT INTO t SELECT * FROM (VALUES (0, 10, 1)) AS x(id, v, s)");
        // doubling by INSERT ... SELECT from the table itself up to 2048 rows, then cut to ROWS
        for (int n = 1; n < ROWS; n *= 2) {
            assertEquals(n, scalar(t, "INSERT INTO t SELECT id + " + n + ", v, s FROM t"));
        }
        t.query("DELETE FROM t WHERE id >= " + ROWS);
        return t;
    }

    static long scalar(Tessera t, String sql) {
        return ((Number) t.query(sql).rows().getFirst()[0]).longValue();
    }

    @Test
    void aSnapshotReaderKeepsReadingWhatItOpenedWhileAnotherWriterUpdatesAndDeletes(@TempDir Path dir) {
        try (Tessera writer = tableOfTens(dir); Tessera reader = Tessera.open(dir)) {
            assertEquals(ROWS, scalar(reader, "SELECT count(*) FROM t"));
            int generation = reader.database().table("t").generation();

            assertEquals(ROWS / 2, scalar(writer, "UPDATE t SET v = v + 1 WHERE id % 2 = 0"));
            assertEquals(ROWS / 4, scalar(writer, "DELETE FROM t WHERE id < " + ROWS / 4));
            assertEquals(ROWS - ROWS / 4, scalar(writer, "SELECT count(*) FROM t"));

            // the reader still holds the generation it opened: same rows, same sum, its files still there
            assertEquals(generation, reader.database().table("t").generation());
            assertEquals(ROWS, scalar(reader, "SELECT count(*) FROM t"));
            assertEquals(10L * ROWS, scalar(reader, "SELECT sum(v) FROM t"));

            reader.database().refresh();
            assertEquals(ROWS - ROWS / 4, scalar(reader, "SELECT count(*) FROM t"));
            assertEquals(10L * (ROWS - ROWS / 4) + (ROWS / 2 - ROWS / 8), scalar(reader, "SELECT sum(v) FROM t"));
        }
    }

    @Test
    void readersThatRefreshSeeOneWholeGenerationWhileUpdatesCommit(@TempDir Path dir) throws Exception {
        try (Tessera writer = tableOfTens(dir)) {
            AtomicBoolean stop = new AtomicBoolean();
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            Thread[] readers = new Thread[2];
            for (int i = 0; i < readers.length; i++) {
                readers[i] = new Thread(() -> {
                    try (Tessera reader = Tessera.open(dir)) {
                        while (!stop.get()) {
                            reader.database().refresh();
                            Object[] row = reader.query("SELECT count(*), sum(v) FROM t").rows().getFirst();
                            // every UPDATE moves 1 from one row to another: the sum of one generation never changes
                            if (((Number) row[0]).longValue() != ROWS || ((Number) row[1]).longValue() != 10L * ROWS) {
                                wrong.add(java.util.Arrays.toString(row));
                            }
                        }
                    } catch (RuntimeException e) {
                        wrong.add(e.toString());
                    }
                });
                readers[i].start();
            }
            for (int i = 0; i < 15; i++) {
                int from = i % ROWS;
                int to = (i * 7 + 1) % ROWS;
                assertEquals(2, scalar(writer, "UPDATE t SET v = CASE WHEN id = " + from + " THEN v - 1 ELSE v + 1 END"
                        + " WHERE id IN (" + from + ", " + to + ")"));
            }
            stop.set(true);
            for (Thread r : readers) {
                r.join(60_000);
            }
            assertEquals(List.of(), List.copyOf(wrong));
            assertEquals(10L * ROWS, scalar(writer, "SELECT sum(v) FROM t"));
        }
    }

    /** The files in the table's folder, lock files left out (readers make them). */
    static Set<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve("t"))) {
            return new TreeSet<>(s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".lock")).toList());
        }
    }

    @Test
    void aFailingInsertOrUpdateLeavesTheTableAndItsFilesAsTheyWere(@TempDir Path dir) throws IOException {
        try (Tessera t = tableOfTens(dir)) {
            int generation = t.database().table("t").generation();
            Set<String> before = files(dir);
            String sum = "SELECT count(*), sum(v), sum(s), count(s) FROM t";
            List<Object> rows = List.of(t.query(sum).rows().getFirst());

            // the NULL comes in the last row: the rows before it were written to the new generation's files first
            SqlError notNull = assertThrows(SqlError.class, () -> t.query(
                    "INSERT INTO t SELECT id + " + ROWS + ", CASE WHEN id = " + (ROWS - 1) + " THEN NULL ELSE v END, s"
                            + " FROM t"));
            assertTrue(notNull.getMessage().contains("NOT NULL constraint failed: t.v"), notNull.getMessage());
            assertThrows(SqlError.class, () -> t.query("INSERT INTO t (id, v, s) VALUES (1, 1, 1), (2, 2, 40000)"));
            assertThrows(SqlError.class, () -> t.query("INSERT INTO t SELECT id, v, s * 40000 FROM t"));
            assertThrows(SqlError.class, () -> t.query("UPDATE t SET s = id * 20 WHERE id > 0"));
            assertThrows(SqlError.class, () -> t.query("UPDATE t SET v = NULL WHERE id = " + (ROWS - 1)));
            assertThrows(RuntimeException.class, () -> t.query("INSERT INTO t (id, v) VALUES (1, 1), (2, 1 / 0)"));

            assertEquals(generation, t.database().table("t").generation());
            assertEquals(before, files(dir));
            assertEquals(rows, List.of(t.query(sum).rows().getFirst()));
            try (Tessera other = Tessera.open(dir)) {
                assertEquals(rows, List.of(other.query(sum).rows().getFirst()));
            }
        }
    }

    @Test
    void aFailingCreateTableAsOrCopyLeavesNoFile(@TempDir Path dir) throws IOException {
        try (Tessera t = tableOfTens(dir)) {
            Path copy = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-files"));
            Files.writeString(copy.resolve("bad.csv"), "1,10,1\n2,20,70000\n");
            t.allowCopyFrom(copy);
            Set<String> before = files(dir);
            int generation = t.database().table("t").generation();
            String m = assertThrows(RuntimeException.class, () -> t.query("COPY t FROM '" + copy.resolve("bad.csv")
                    + "'")).getMessage();
            assertTrue(m.contains("bad.csv:2: column 3 (s)"), m);
            assertEquals(before, files(dir));
            assertEquals(generation, t.database().table("t").generation());

            assertThrows(SqlError.class, () -> t.query("CREATE TABLE c AS SELECT CAST(id * 100 AS SMALLINT) AS x FROM t"));
            assertTrue(!t.database().hasTable("c") && !Files.exists(dir.resolve("c")));
            try (Stream<Path> s = Files.list(dir)) {
                assertEquals(List.of(), s.map(p -> p.getFileName().toString())
                        .filter(n -> !n.startsWith(".") && !n.equals("t") && !n.startsWith("manifest.json")).toList());
            }
        }
    }

    @Test
    void copyReadsOnlyRegularFilesUnderTheDirectoriesTheApplicationAllowed(@TempDir Path work) throws IOException {
        Path allowed = Files.createDirectories(work.resolve("allowed"));
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.writeString(allowed.resolve("ok.csv"), "1,one\n2,two\n");
        Files.writeString(outside.resolve("secret.csv"), "3,secret\n");
        Files.createSymbolicLink(allowed.resolve("link.csv"), outside.resolve("secret.csv"));
        Files.createSymbolicLink(allowed.resolve("linked_dir"), outside);
        try (Tessera t = Tessera.openOrCreate(work.resolve("db"))) {
            t.query("CREATE TABLE c (id INTEGER, name VARCHAR)");
            String ok = "COPY c FROM '" + allowed.resolve("ok.csv") + "'";
            // by default COPY reads nothing
            assertTrue(refused(t, ok).contains("allowed no directory"), refused(t, ok));

            t.allowCopyFrom(allowed);
            assertEquals(2L, scalar(t, ok));
            for (String path : List.of(outside.resolve("secret.csv").toString(), allowed + "/../outside/secret.csv")) {
                String m = refused(t, "COPY c FROM '" + path + "'");
                assertTrue(m.contains("refusing to read") && m.contains("not under a directory SQL may read")
                        && m.contains("--allow-read"), m);
            }
            // a link below the allowed directory is refused wherever it stands, naming it
            assertTrue(refused(t, "COPY c FROM '" + allowed.resolve("link.csv") + "'")
                    .contains("'link.csv' is a symbolic link"));
            assertTrue(refused(t, "COPY c FROM '" + allowed.resolve("linked_dir/secret.csv") + "'")
                    .contains("'linked_dir' is a symbolic link"));
            assertTrue(refused(t, "COPY c FROM '" + allowed + "'").contains("not a regular file"));
            assertTrue(refused(t, "COPY c FROM '/dev/zero'").contains("refusing to read"));
            assertTrue(refused(t, "COPY c FROM '" + allowed.resolve("none.csv") + "'").contains("no such file"));
            assertEquals(2L, scalar(t, "SELECT count(*) FROM c"));
            assertEquals(List.of("one", "two"), t.query("SELECT name FROM c ORDER BY id").rows().stream()
                    .map(r -> (String) r[0]).toList());
        }
    }

    private static String refused(Tessera t, String sql) {
        return assertThrows(SqlError.class, () -> t.query(sql)).getMessage();
    }

    @Test
    void aDataChangeReturnsOneRowNamedCount(@TempDir Path dir) {
        try (Tessera t = Tessera.openOrCreate(dir)) {
            t.query("CREATE TABLE t (a INTEGER)");
            QueryResult r = t.query("INSERT INTO t VALUES (1), (2), (NULL)");
            assertEquals("count", r.columns().getFirst().name());
            assertEquals(1, r.rowCount());
            assertEquals(3L, r.get(0, 0));
        }
    }
}
