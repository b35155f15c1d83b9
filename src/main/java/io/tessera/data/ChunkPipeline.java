package io.tessera.data;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Generates tables, each as a fixed sequence of chunks, on a pool of threads. A chunk is generated, encoded and
 * written on a pool thread: only taking its place in the table (the rows after the chunks before it) happens in chunk
 * order, on the calling thread, which then hands the chunk to {@link TableWriter#writePart}. A table is committed on
 * a thread of its own once its last chunk is written, while the next table's chunks are generated; tables are
 * committed in order. At most {@code window} chunks are in flight (generated, or being written), so memory stays
 * bounded however large a table is. What a chunk holds depends only on its index, so the tables are the same for
 * any number of threads.
 */
public final class ChunkPipeline {

    /** Builds the rows of one chunk; called concurrently for different chunks. */
    @FunctionalInterface
    public interface ChunkSource {
        RowBatch generate(int chunk);
    }

    /** A table to generate: its schema, its chunks, about how many rows they hold (for progress), and the source. */
    public record TableJob(TableSchema schema, int chunks, long expectedRows, ChunkSource source) {
        public TableJob {
            if (chunks < 1) {
                throw new IllegalArgumentException("table " + schema.name() + " needs at least one chunk");
            }
        }
    }

    /** A table being written. */
    private static final class TableRun {
        final TableJob job;
        TableWriter writer;
        final List<Future<?>> writes = new ArrayList<>();

        TableRun(TableJob job) {
            this.job = job;
        }
    }

    /** A chunk being generated. */
    private record Pending(TableRun table, int chunk, Future<RowBatch> batch) {
    }

    private final Database db;
    private final Progress progress;
    private final ExecutorService pool;
    private final ExecutorService committer;
    private final Semaphore slots;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final long startNanos = System.nanoTime();

    private ChunkPipeline(Database db, int threads, int window, Progress progress) {
        this.db = db;
        this.progress = progress;
        this.pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> daemon(r, "gen"));
        this.committer = Executors.newSingleThreadExecutor(r -> daemon(r, "gen-commit"));
        this.slots = new Semaphore(Math.max(1, window));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * Generates and commits {@code jobs} in order on {@code threads} threads with at most {@code window} chunks in
     * flight; returns each table's row count. On failure every table not yet committed is left as it was.
     */
    public static Map<String, Long> run(Database db, List<TableJob> jobs, int threads, int window, Progress progress) {
        ChunkPipeline p = new ChunkPipeline(db, threads, window, progress);
        long expected = 0;
        for (TableJob j : jobs) {
            expected += j.expectedRows();
        }
        progress.start(expected);
        try {
            return p.generate(jobs);
        } finally {
            progress.finish();
        }
    }

    private Map<String, Long> generate(List<TableJob> jobs) {
        List<TableRun> tables = new ArrayList<>();
        List<Future<Table>> commits = new ArrayList<>();
        ArrayDeque<Pending> pending = new ArrayDeque<>();
        boolean ok = false;
        try {
            int job = 0;
            int chunk = 0;
            TableRun current = null;
            while (true) {
                // keep the pool fed: a chunk for every free slot, and at least one to wait for
                while (job < jobs.size() && (pending.isEmpty() ? acquire() : slots.tryAcquire())) {
                    if (chunk == 0) {
                        current = new TableRun(jobs.get(job));
                        tables.add(current);
                    }
                    TableRun t = current;
                    int c = chunk;
                    pending.add(new Pending(t, c, pool.submit(() -> t.job.source().generate(c))));
                    if (++chunk >= t.job.chunks()) {
                        job++;
                        chunk = 0;
                    }
                }
                Pending head = pending.poll();
                if (head == null) {
                    break;
                }
                place(head, await(head.batch()), commits);
                rethrowFailure();
            }
            Map<String, Long> rows = new LinkedHashMap<>();
            for (Future<Table> f : commits) {
                Table t = await(f);
                rows.put(t.name(), t.rowCount());
            }
            ok = true;
            return rows;
        } finally {
            if (ok) {
                pool.shutdown();
                committer.shutdown();
            } else {
                // stop everything, and wait until no thread still writes into a table abandoned below
                for (Pending p : pending) {
                    p.batch().cancel(true);
                }
                for (TableRun t : tables) {
                    t.writes.forEach(w -> w.cancel(true));
                }
                for (Future<Table> c : commits) {
                    c.cancel(true);
                }
                pool.shutdownNow();
                committer.shutdownNow();
                awaitTermination();
                for (TableRun t : tables) {
                    if (t.writer != null) {
                        t.writer.close();
                    }
                }
            }
        }
    }

    /** Takes the chunk's place in its table and hands it to a pool thread to write; commits after a last chunk. */
    private void place(Pending p, RowBatch batch, List<Future<Table>> commits) {
        TableRun t = p.table();
        if (t.writer == null) {
            t.writer = db.replace(t.job.schema());
            progress.table(t.job.schema().name());
        }
        long first = t.writer.reserve(batch.rowCount());
        t.writes.add(pool.submit(() -> {
            try {
                t.writer.writePart(first, batch);
            } catch (RuntimeException | Error e) {
                failure.compareAndSet(null, e);
                throw e;
            } finally {
                slots.release();
            }
        }));
        progress.made(batch.rowCount());
        if (p.chunk() == t.job.chunks() - 1) {
            commits.add(committer.submit(() -> {
                for (Future<?> w : t.writes) {
                    await(w);
                }
                try {
                    Table done = t.writer.commit();
                    progress.committed(done.name(), done.rowCount(), System.nanoTime() - startNanos);
                    return done;
                } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                    throw e;
                }
            }));
        }
    }

    private boolean acquire() {
        try {
            while (!slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                rethrowFailure();
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while generating data", e);
        }
    }

    private void rethrowFailure() {
        Throwable f = failure.get();
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error err) {
            throw err;
        }
    }

    private void awaitTermination() {
        try {
            pool.awaitTermination(1, TimeUnit.MINUTES);
            committer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static <T> T await(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while generating data", e);
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("data generation failed: " + cause.getMessage(), cause);
        }
    }
}
