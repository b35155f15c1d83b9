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
 */
class StorageCliNoWaitTest {

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
                long t0 = System.nanoTime();
                assertEquals(1, Main.run(c), String.join(" ", c));
                assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "at once: " + String.join(" ", c));
                assertTrue(err().contains("another writer (pid " + ProcessHandle.current().pid() + ") is writing database"),
                        err());
            }
            err.reset();
            waiting = CompletableFuture.supplyAsync(() -> Main.run("import", "--db", db, "--table", "t",
                    rows.toString()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!err().contains("waiting for another writer") && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(err().contains("tessera: waiting for another writer of " + db), err());
            assertFalse(waiting.isDone());
        }
        assertEquals(0, waiting.get(30, TimeUnit.SECONDS), err());
        try (Database d = Database.open(Path.of(db))) {
            assertEquals(2, d.table("t").rowCount());
            assertFalse(d.hasTable("u") || d.hasTable("v") || d.hasTable("lineorder"));
        }
    }
}
