package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readers that open the database and read its columns slowly, one after the other, while a writer commits 20
 * times: every read sees exactly one committed generation (the rows 0 .. n-1 of one commit, in every column),
 * never a missing file, whether the reader is another process or another {@link Database} of this JVM.
 */
class StorageSnapshotReadTest {

    static final int COMMITS = 20;
    static final int PER_COMMIT = 500;

    static void commitAll(Path dir, long pauseMs) throws InterruptedException {
        try (Database db = Database.open(dir)) {
            for (int i = 1; i <= COMMITS; i++) {
                try (TableWriter w = db.append("t")) {
                    w.write(StorageTestProcess.rows(StorageTestProcess.SCHEMA, (long) i * PER_COMMIT, PER_COMMIT));
                    w.commit();
                }
                Thread.sleep(pauseMs);
            }
        }
    }

    static void create(Path dir) {
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(StorageTestProcess.SCHEMA)) {
            w.write(StorageTestProcess.rows(StorageTestProcess.SCHEMA, 0, PER_COMMIT));
            w.commit();
        }
    }

    @Test
    void readerProcessSeesOneGenerationPerOpenAcrossTwentyCommits(@TempDir Path work) throws Exception {
        Path dir = work.resolve("db");
        create(dir);
        Path stop = work.resolve("stop");
        Path out = work.resolve("reader.out");
        Process reader = StorageConcurrentWritersTest.start(out, StorageTestProcess.class.getName(), "scan",
                dir.toString(), "25", stop.toString());
        Thread.sleep(300); // the reader is under way before the first commit
        commitAll(dir, 60);
        Files.createFile(stop);
        String result = StorageConcurrentWritersTest.finish(reader, out);
        assertTrue(result.startsWith("exit 0") && result.contains("scanned"), result);
        try (Database db = Database.open(dir)) {
            assertEquals((COMMITS + 1L) * PER_COMMIT, StorageTestProcess.checkPrefix(db.table("t"), 0));
        }
    }

    @Test
    void readersOfThisJvmSeeOneGenerationPerOpenAcrossTwentyCommits(@TempDir Path work) throws Exception {
        Path dir = work.resolve("db");
        create(dir);
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try (Database db = Database.open(dir)) {
                        seen.add(StorageTestProcess.checkPrefix(db.table("t"), 10));
                    } catch (Throwable e) {
                        failures.add(e);
                        return;
                    }
                }
            });
            t.start();
            readers.add(t);
        }
        commitAll(dir, 20);
        stop.set(true);
        for (Thread t : readers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertEquals(List.of(), new ArrayList<>(failures));
        assertTrue(seen.stream().distinct().count() > 1, "the readers ran across commits: " + seen);
    }

    @Test
    void oldGenerationStaysWhileReadAndGoesAfterRefresh(@TempDir Path work) throws Exception {
        Path dir = work.resolve("db");
        create(dir);
        try (Database reader = Database.open(dir)) {
            Table before = reader.table("t");
            Path first = dir.resolve(before.column("k").dataFile().path());
            try (Database w = Database.open(dir); TableWriter a = w.append("t")) {
                a.write(StorageTestProcess.rows(a.schema(), PER_COMMIT, PER_COMMIT));
                a.commit();
            }
            assertTrue(Files.exists(first), "kept while a reader holds its generation");
            assertEquals(PER_COMMIT, StorageTestProcess.checkPrefix(before, 0));
            reader.refresh();
            assertEquals(2L * PER_COMMIT, StorageTestProcess.checkPrefix(reader.table("t"), 0));
            try (Database w = Database.open(dir); TableWriter a = w.append("t")) {
                a.write(StorageTestProcess.rows(a.schema(), 2L * PER_COMMIT, PER_COMMIT));
                a.commit();
            }
            assertFalse(Files.exists(first), "collected by the next writer once no reader holds it");
        }
    }
}
