package io.tessera.api;

import io.tessera.Tessera;
import io.tessera.storage.Database;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A nested-loop join (no equality between its sides) cancelled while it runs: each probing row meets every one of
 * 2,000,000 build rows, so one morsel of probing rows is billions of pairs; the loop over the build rows checks
 * the cancel every few thousand pairs, and the query ends with "query cancelled". How soon is never asserted.
 */
class NestedLoopCancelTest {

    static final String NESTED = "select count(*), sum(a.v - b.v) from pairs a join pairs b on a.v < b.v";

    @TempDir
    static Path dir;

    @BeforeAll
    static void table() {
        try (Database d = Database.openOrCreate(dir.resolve("db"))) {
            LongJoin.write(d, "pairs");
        }
    }

    @Test
    void aCancelledNestedLoopJoinEndsWithACancellation() throws Exception {
        try (Tessera t = Tessera.open(dir.resolve("db"))) {
            QueryCancel cancel = new QueryCancel();
            CompletableFuture<QueryResult> running = CompletableFuture.supplyAsync(() -> t.query(NESTED, cancel));
            Thread.sleep(3000); // the tables built and the loop under way; earlier, the cancel stops it all the same
            long cancelledAt = System.nanoTime();
            cancel.cancel();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> running.get(LongJoin.GUARD_MINUTES, TimeUnit.MINUTES),
                    "the nested loop ran to its end (or on past the guard) after cancel()");
            System.out.printf("nested loop: stopped %.3f s after cancel()%n", (System.nanoTime() - cancelledAt) / 1e9);
            assertInstanceOf(QueryCancelledException.class, e.getCause());
            assertEquals("query cancelled", e.getCause().getMessage());
            assertEquals(0, t.cancelRunning(), "nothing of the cancelled query runs any more");
        }
    }

    @Test
    void theLoopOverTheBuildRowsChecksTheCancel() {
        try (Tessera t = Tessera.open(dir.resolve("db"))) {
            StringBuilder code = new StringBuilder();
            QueryResult r = t.query("EXPLAIN CODE " + NESTED);
            for (int i = 0; i < r.rowCount(); i++) {
                code.append(r.get(i, 0)).append('\n');
            }
            String s = code.toString();
            int loop = s.indexOf("do { // every build row with this key");
            assertTrue(loop >= 0, s);
            String body = s.substring(loop, s.indexOf('\n', s.indexOf('\n', loop) + 1));
            assertTrue(body.contains("io.tessera.api.QueryCancel.check("), body);
        }
    }
}
