package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One writer at a time per database: a second writer, of this JVM or of another process, waits and says so, or
 * with {@code waitForOtherWriters(false)} fails at once naming the writer's process. "At once" is shown by what
 * happened, not by a clock: the failure comes while the lock is still held, with no notice of waiting.
 */
class StorageWriterLockTest {

    static void create(Path dir) {
        try (Database db = Database.openOrCreate(dir); TableWriter w = db.replace(StorageTestProcess.SCHEMA)) {
            w.write(StorageTestProcess.rows(StorageTestProcess.SCHEMA, 0, 100));
            w.commit();
        }
    }

    @Test
    void secondWriterOfThisJvmWaitsSayingSoAndStartsFromTheFirstOnesCommit(@TempDir Path dir) throws Exception {
        create(dir);
        ConcurrentLinkedQueue<String> notices = new ConcurrentLinkedQueue<>();
        try (Database first = Database.open(dir); Database second = Database.open(dir)) {
            second.onWaitForWriter(notices::add);
            TableWriter w = first.append("t");
            w.write(StorageTestProcess.rows(w.schema(), 100, 100));
            CompletableFuture<Long> later = CompletableFuture.supplyAsync(() -> {
                try (TableWriter w2 = second.append("t")) {
                    w2.write(StorageTestProcess.rows(w2.schema(), 200, 100));
                    return w2.commit().rowCount();
                }
            });
            awaitNotice(notices);
            assertFalse(later.isDone(), "the second writer waits");
            assertEquals(1, notices.size());
            String n = notices.peek();
            assertTrue(n.startsWith("tessera: waiting for another writer of " + dir)
                    && n.contains("pid " + ProcessHandle.current().pid()), n);
            w.commit();
            assertEquals(300L, later.get(StorageConcurrentWritersTest.GUARD_MINUTES, TimeUnit.MINUTES),
                    "the second write starts from the first's rows");
        }
        try (Database db = Database.open(dir)) {
            assertEquals(300, StorageTestProcess.checkPrefix(db.table("t"), 0));
        }
    }

    @Test
    void noWaitFailsAtOnceWhileThisJvmWrites(@TempDir Path dir) throws Exception {
        create(dir);
        try (Database first = Database.open(dir);
             Database second = Database.open(dir).waitForOtherWriters(false)) {
            try (Database.WriteLock l = first.lockForWriting()) {
                StorageException e = assertThrows(StorageException.class, () -> second.append("t"));
                assertTrue(e.getMessage().contains("another writer") && e.getMessage().contains(dir.toString()),
                        e.getMessage());
                assertThrows(StorageException.class, () -> second.dropTable("t"));
                assertThrows(StorageException.class, () -> second.createTable(
                        new TableSchema("u", StorageTestProcess.SCHEMA.columns())));
            }
            try (TableWriter w = second.append("t")) {
                w.write(StorageTestProcess.rows(w.schema(), 100, 1));
                assertEquals(101, w.commit().rowCount(), "the lock is free again once the first writer is done");
            }
        }
    }

    @Test
    void noWaitFailsAtOnceWhileAnotherProcessWrites(@TempDir Path work) throws Exception {
        Path dir = work.resolve("db");
        create(dir);
        Path ready = work.resolve("ready");
        Path release = work.resolve("release");
        Path out = work.resolve("holder.out");
        Process holder = StorageConcurrentWritersTest.start(out, StorageLockHolderProcess.class.getName(),
                dir.toString(), ready.toString(), release.toString());
        long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(StorageConcurrentWritersTest.GUARD_MINUTES);
        while (!Files.exists(ready) && holder.isAlive() && System.nanoTime() < guard) {
            Thread.sleep(5);
        }
        assertTrue(Files.exists(ready), "the other process took the lock");
        ConcurrentLinkedQueue<String> notices = new ConcurrentLinkedQueue<>();
        try (Database db = Database.open(dir).waitForOtherWriters(false)) {
            db.onWaitForWriter(notices::add);
            // the other process holds the lock until told: a writer that waited would still be waiting
            StorageException e = assertThrows(StorageException.class, () -> db.append("t"));
            assertTrue(e.getMessage().contains("pid " + holder.pid()), e.getMessage());
            assertEquals(List.of(), List.copyOf(notices), "failed without waiting");
            db.waitForOtherWriters(true);
            CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> {
                try (TableWriter w = db.append("t")) { // waits for the other process
                    w.write(StorageTestProcess.rows(w.schema(), 100, 1));
                    return w.commit().rowCount();
                }
            });
            awaitNotice(notices);
            assertFalse(waiting.isDone(), "the writer waits while the other process holds the lock");
            Files.createFile(release);
            assertEquals(101L, waiting.get(StorageConcurrentWritersTest.GUARD_MINUTES, TimeUnit.MINUTES));
        }
        String held = StorageConcurrentWritersTest.finish(holder, out);
        assertTrue(held.startsWith("exit 0"), held);
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.peek().contains("(pid " + holder.pid() + ")"), notices.toString());
    }

    /** Waits until a waiting writer has said so, failing after the guard rather than hanging. */
    private static void awaitNotice(ConcurrentLinkedQueue<String> notices) throws InterruptedException {
        long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(StorageConcurrentWritersTest.GUARD_MINUTES);
        while (notices.isEmpty() && System.nanoTime() < guard) {
            Thread.sleep(5);
        }
        assertFalse(notices.isEmpty(), "no writer said it waits");
    }
}
