package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One writer at a time per database: a second writer, of this JVM or of another process, waits and says so, or
 * with {@code waitForOtherWriters(false)} fails at once naming the writer's process.
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
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (notices.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertFalse(later.isDone(), "the second writer waits");
            assertEquals(1, notices.size());
            String n = notices.peek();
            assertTrue(n.startsWith("tessera: waiting for another writer of " + dir)
                    && n.contains("pid " + ProcessHandle.current().pid()), n);
            w.commit();
            assertEquals(300L, later.get(10, TimeUnit.SECONDS), "the second write starts from the first's rows");
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
        Path out = work.resolve("holder.out");
        Process holder = StorageConcurrentWritersTest.start(out, StorageLockHolderProcess.class.getName(),
                dir.toString(), "1500", ready.toString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(ready) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        ConcurrentLinkedQueue<String> notices = new ConcurrentLinkedQueue<>();
        try (Database db = Database.open(dir).waitForOtherWriters(false)) {
            long t0 = System.nanoTime();
            StorageException e = assertThrows(StorageException.class, () -> db.append("t"));
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(1), "at once");
            assertTrue(e.getMessage().contains("pid " + holder.pid()), e.getMessage());
            db.waitForOtherWriters(true).onWaitForWriter(notices::add);
            try (TableWriter w = db.append("t")) { // waits for the other process
                w.write(StorageTestProcess.rows(w.schema(), 100, 1));
                assertEquals(101, w.commit().rowCount());
            }
        }
        String held = StorageConcurrentWritersTest.finish(holder, out);
        assertTrue(held.startsWith("exit 0"), held);
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.peek().contains("(pid " + holder.pid() + ")"), notices.toString());
    }
}
