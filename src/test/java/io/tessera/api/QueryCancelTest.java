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
 * Cancelling a running query from another thread through the embedded API: the query stops within a bounded
 * time with "query cancelled", and the same {@link Tessera} runs the next query. The long query is a join whose
 * keys repeat (every probe row meets 40,000 build rows: 8 billion matches), seconds of work on any machine (800 million
 * took under 1.5 s on a quiet 2-core machine).
 */
class QueryCancelTest {

    static final int ROWS = 200_000;
    static final String LONG = "select count(*), sum(a.v + b.v) from t a join t b on a.k = b.k";

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
        }
    }

    @Test
    void aLongQueryCancelledFromAnotherThreadStopsSoonAndTheNextQueryRuns() throws Exception {
        try (Tessera t = Tessera.open(dir.resolve("db"))) {
            t.query("select count(*) from t"); // compiled classes and mapped columns warm
            QueryCancel cancel = new QueryCancel();
            long start = System.nanoTime();
            CompletableFuture<QueryResult> running = CompletableFuture.supplyAsync(() -> t.query(LONG, cancel));
            Thread.sleep(1500);
            assertTrue(!running.isDone(), () -> "the long query finished before it could be cancelled: make it longer ("
                    + running.handle((r, x) -> x != null ? x.toString() : "rows " + r.rows().size()).join() + ")");
            long cancelledAt = System.nanoTime();
            cancel.cancel();
            ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(30, TimeUnit.SECONDS));
            double stopSeconds = (System.nanoTime() - cancelledAt) / 1e9;
            assertInstanceOf(QueryCancelledException.class, e.getCause());
            assertEquals("query cancelled", e.getCause().getMessage());
            assertTrue(stopSeconds < 5, "stopped " + stopSeconds + " s after the cancel");
            System.out.printf("cancel: ran %.2f s, stopped %.3f s after cancel()%n", (cancelledAt - start) / 1e9,
                    stopSeconds);

            assertEquals(ROWS, ((Number) t.query("select count(*) from t").get(0, 0)).intValue());
        }
    }

    @Test
    void cancelRunningStopsWhatRunsThroughTheObject() throws Exception {
        try (Tessera t = Tessera.open(dir.resolve("db"))) {
            CompletableFuture<QueryResult> running = CompletableFuture.supplyAsync(() -> t.query(LONG));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int cancelled = 0;
            while (cancelled == 0 && System.nanoTime() < deadline && !running.isDone()) {
                Thread.sleep(50);
                cancelled = t.cancelRunning();
            }
            assertEquals(1, cancelled);
            ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(30, TimeUnit.SECONDS));
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
