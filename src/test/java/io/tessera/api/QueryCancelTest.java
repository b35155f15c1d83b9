package io.tessera.api;

import io.tessera.Tessera;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancelling a running query from another thread through the embedded API: the query stops with "query cancelled"
 * instead of running to its end, nothing of it runs any more, and the same {@link Tessera} runs the next query. The
 * long query is {@link LongJoin}'s, minutes of work; how soon it stops is printed, never asserted (the time of a
 * morsel depends on the machine and its load).
 */
class QueryCancelTest {

    static final int ROWS = 200_000;
    static final String LONG = LongJoin.sql("pairs");

    @TempDir
    static Path dir;

    @BeforeAll
    static void table() {
        try (Database d = Database.openOrCreate(dir.resolve("db"))) {
            TableSchema schema = TableSchema.parse("t", "k INTEGER NOT NULL, v INTEGER NOT NULL");
            RowBatch b = new RowBatch(schema, ROWS);
            for (int i = 0; i < ROWS; i++) {
                b.column(0).appendInt(i % 5);
                b.column(1).appendInt(i);
            }
            try (TableWriter w = d.replace(schema)) {
                w.write(b);
                w.commit();
            }
            LongJoin.write(d, "pairs");
        }
    }

    @Test
    void aLongQueryCancelledFromAnotherThreadStopsAndTheNextQueryRuns() throws Exception {
        try (Tessera t = Tessera.open(dir.resolve("db"))) {
            t.query("select count(*) from t"); // compiled classes and mapped columns warm
            QueryCancel cancel = new QueryCancel();
            long start = System.nanoTime();
            CompletableFuture<QueryResult> running = CompletableFuture.supplyAsync(() -> t.query(LONG, cancel));
            Thread.sleep(1500); // the join under way; had it not started yet, the cancel stops it at its first morsel
            long cancelledAt = System.nanoTime();
            cancel.cancel();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> running.get(LongJoin.GUARD_MINUTES, TimeUnit.MINUTES),
                    "the join ran to its end (or on past the guard) after cancel()");
            long stoppedAt = System.nanoTime();
            assertInstanceOf(QueryCancelledException.class, e.getCause());
            assertEquals("query cancelled", e.getCause().getMessage());
            assertEquals(0, t.cancelRunning(), "nothing of the cancelled query runs any more");
            System.out.printf("cancel: ran %.2f s, stopped %.3f s after cancel()%n", (cancelledAt - start) / 1e9,
                    (stoppedAt - cancelledAt) / 1e9);

            assertEquals(ROWS, ((Number) t.query("select count(*) from t").get(0, 0)).intValue());
        }
    }

    @Test
    void cancelRunningStopsWhatRunsThroughTheObject() throws Exception {
        try (Tessera t = Tessera.open(dir.resolve("db"))) {
            CompletableFuture<QueryResult> running = CompletableFuture.supplyAsync(() -> t.query(LONG));
            long guard = System.nanoTime() + TimeUnit.MINUTES.toNanos(LongJoin.GUARD_MINUTES);
            int cancelled = 0;
            while (cancelled == 0 && System.nanoTime() < guard && !running.isDone()) {
                Thread.sleep(50);
                cancelled = t.cancelRunning();
            }
            assertEquals(1, cancelled, "the join was running when cancelRunning() was called");
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> running.get(LongJoin.GUARD_MINUTES, TimeUnit.MINUTES));
            assertInstanceOf(QueryCancelledException.class, e.getCause());
            assertEquals(0, t.cancelRunning(), "nothing runs any more");
            assertEquals(4, t.query("select count(*), min(k), max(k), 1 from t where v < 4").columns().size());
        }
    }

    @Test
    void aStreamedResultStopsBetweenBatches() {
        try (Tessera t = Tessera.open(dir.resolve("db"))) {
            QueryCancel cancel = new QueryCancel();
            AtomicInteger batches = new AtomicInteger();
            AtomicInteger rows = new AtomicInteger();
            assertThrows(QueryCancelledException.class, () -> t.query("select k, v from t", cancel, new RowSink() {
                @Override
                public void start(List<ResultColumn> columns) {
                    assertEquals(2, columns.size());
                }

                @Override
                public void rows(List<Object[]> batch) {
                    rows.addAndGet(batch.size());
                    if (batches.incrementAndGet() == 3) {
                        cancel.cancel();
                    }
                }
            }));
            assertEquals(3, batches.get());
            assertTrue(rows.get() < ROWS, rows + " rows were handed over");
            QueryCancel fresh = new QueryCancel();
            AtomicInteger all = new AtomicInteger();
            QueryResult r = t.query("select k, v from t", fresh, new RowSink() {
                @Override
                public void start(List<ResultColumn> columns) {
                }

                @Override
                public void rows(List<Object[]> batch) {
                    all.addAndGet(batch.size());
                }
            });
            assertEquals(ROWS, all.get());
            assertEquals(0, r.rowCount(), "a streamed result keeps no rows");
        }
    }
}
