package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two processes append to one database at the same moment, each holding its write open for a while before
 * committing: both commit, one after the other, and the database then opens with every column passing its
 * checksum and every row of both writes present.
 */
class StorageConcurrentWritersTest {

    static final int INITIAL = 1000;
    static final int ADDED = 20_000;

    /** How long a test waits for another process or a waiting writer before it fails instead of hanging. */
    static final long GUARD_MINUTES = 5;

    static Process start(Path out, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-XX:TieredStopAtLevel=1",
                mainClass));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }

    static String finish(Process p, Path out) throws Exception {
        assertTrue(p.waitFor(GUARD_MINUTES, TimeUnit.MINUTES), "the process ends");
        return "exit " + p.exitValue() + ": " + Files.readString(out).strip();
    }

    static void createTables(Path dir, String... names) {
        try (Database db = Database.openOrCreate(dir)) {
            for (String n : names) {
                TableSchema schema = new TableSchema(n, StorageTestProcess.SCHEMA.columns());
                try (TableWriter w = db.replace(schema)) {
                    w.write(StorageTestProcess.rows(schema, 0, INITIAL));
                    w.commit();
                }
            }
        }
    }

    /** Starts one appending process per (table, first row) and lets them all write at once. */
    static List<String> appendAtOnce(Path dir, Path work, String[] tables, long[] firsts) throws Exception {
        Path go = work.resolve("go");
        List<Process> ps = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        for (int i = 0; i < tables.length; i++) {
            Path out = work.resolve("out" + i);
            outs.add(out);
            ps.add(start(out, StorageTestProcess.class.getName(), "append", dir.toString(), tables[i],
                    Long.toString(firsts[i]), Integer.toString(ADDED), "400", go.toString()));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (var s = Files.list(work)) {
                if (s.filter(p -> p.getFileName().toString().startsWith("go.ready.")).count() == tables.length) {
                    break;
                }
            }
            Thread.sleep(5);
        }
        Files.createFile(go);
        List<String> results = new ArrayList<>();
        for (int i = 0; i < ps.size(); i++) {
            results.add(finish(ps.get(i), outs.get(i)));
        }
        return results;
    }

    /** Every column of every table read (each read verifies the checksum); k of table t is exactly {@code ks}. */
    static void assertRows(Path dir, String table, long rows) throws InterruptedException {
        try (Database db = Database.open(dir)) {
            Table t = db.table(table);
            assertEquals(rows, t.rowCount(), "rows of " + table);
            assertEquals(rows, StorageTestProcess.checkPrefix(t, 0));
        }
    }

    @Test
    void twoProcessesAppendingToTwoTablesBothCommit(@TempDir Path work) throws Exception {
        Path dir = work.resolve("db");
        createTables(dir, "t", "u");
        List<String> r = appendAtOnce(dir, work, new String[] {"t", "u"}, new long[] {INITIAL, INITIAL});
        for (String s : r) {
            assertTrue(s.startsWith("exit 0"), r.toString());
        }
        assertRows(dir, "t", INITIAL + ADDED);
        assertRows(dir, "u", INITIAL + ADDED);
    }

    @Test
    void twoProcessesAppendingToOneTableBothCommitAndLoseNoRow(@TempDir Path work) throws Exception {
        Path dir = work.resolve("db");
        createTables(dir, "t");
        List<String> r = appendAtOnce(dir, work, new String[] {"t", "t"}, new long[] {INITIAL, INITIAL + ADDED});
        for (String s : r) {
            assertTrue(s.startsWith("exit 0"), r.toString());
        }
        assertRows(dir, "t", INITIAL + 2L * ADDED);
    }
}
