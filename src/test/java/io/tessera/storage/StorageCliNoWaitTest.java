package io.tessera.storage;

import io.tessera.cli.Main;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writing commands ({@code import}, {@code create}, {@code gen}, {@code sql} with CREATE or DROP) fail at
 * once with {@code --no-wait} while another writer holds the database, and otherwise wait for it, saying so.
 * "At once": the test holds the lock throughout, so a command that waited would not return; each returns, failed,
 * without saying it waits.
 */
class StorageCliNoWaitTest {

    /** How long the test waits for a command before it fails instead of hanging: a guard, no limit. */
    private static final long GUARD_MINUTES = StorageConcurrentWritersTest.GUARD_MINUTES;

    @TempDir
    Path work;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream oldOut;
    private PrintStream oldErr;

    @BeforeEach
    void capture() {
        oldOut = System.out;
        oldErr = System.err;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(oldOut);
        System.setErr(oldErr);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void writingCommandsFailAtOnceWithNoWaitAndWaitWithout() throws Exception {
        String db = work.resolve("db").toString();
        assertEquals(0, Main.run("create", "--db", db, "--table", "t", "--columns", "a INTEGER NOT NULL"), err());
        Path rows = Files.writeString(work.resolve("rows.csv"), "1\n2\n");
        CompletableFuture<Integer> waiting;
        try (Database holder = Database.open(Path.of(db)); Database.WriteLock l = holder.lockForWriting()) {
            String[][] commands = {
                    {"import", "--db", db, "--table", "t", "--no-wait", rows.toString()},
                    {"create", "--db", db, "--table", "u", "--columns", "a INTEGER", "--no-wait"},
                    {"gen", "ssb", "--sf", "0.01", "--db", db, "--no-wait"},
                    {"sql", "--db", db, "--device", "cpu", "--no-wait", "-c", "create table v (a integer)"},
                    {"sql", "--db", db, "--device", "cpu", "--no-wait", "-c", "drop table t"},
            };
            for (String[] c : commands) {
                err.reset();
                CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Main.run(c));
                assertEquals(1, run.get(GUARD_MINUTES, TimeUnit.MINUTES), String.join(" ", c));
                assertTrue(err().contains("another writer (pid " + ProcessHandle.current().pid() + ") is writing database"),
                        err());
                assertFalse(err().contains("waiting for another writer"), err());
            }
            err.reset();
            waiting = CompletableFuture.supplyAsync(() -> Main.run("import", "--db", db, "--table", "t",
                    rows.toString()));
            long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(GUARD_MINUTES);
            while (!err().contains("waiting for another writer") && System.nanoTime() < guard) {
                Thread.sleep(5);
            }
            assertTrue(err().contains("tessera: waiting for another writer of " + db), err());
            assertFalse(waiting.isDone());
        }
        assertEquals(0, waiting.get(GUARD_MINUTES, TimeUnit.MINUTES), err());
        try (Database d = Database.open(Path.of(db))) {
            assertEquals(2, d.table("t").rowCount());
            assertFalse(d.hasTable("u") || d.hasTable("v") || d.hasTable("lineorder"));
        }
    }
}
