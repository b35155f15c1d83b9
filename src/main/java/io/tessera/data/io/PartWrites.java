package io.tessera.data.io;

import io.tessera.storage.RowBatch;
import io.tessera.storage.TableWriter;

import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * An import's batches placed in a table in the order they are handed over (the file's order) and written on the
 * import's pool: placing a batch only reserves its rows ({@link TableWriter#reserve}); encoding and writing it, its
 * strings sorted into a run of their own, happen on a pool thread ({@link TableWriter#writePart}), so that no column
 * is encoded on one thread and the commit merges sorted runs instead of sorting a whole column's strings. At most
 * {@code limit} writes are pending, which bounds the batches held. Closing without {@link #finish} waits until no
 * write runs, so that the writer can then be closed without a thread still writing into it.
 */
public final class PartWrites implements AutoCloseable {

    private final TableWriter writer;
    private final ExecutorService pool;
    private final int limit;
    private final String file;
    private final ArrayDeque<Future<?>> writes = new ArrayDeque<>();

    /** @param file names the input in messages */
    public PartWrites(TableWriter writer, ExecutorService pool, int limit, String file) {
        this.writer = writer;
        this.pool = pool;
        this.limit = Math.max(1, limit);
        this.file = file;
    }

    /** Places {@code batch} after every batch placed before and hands its write to the pool. */
    public void place(RowBatch batch) {
        place(batch, b -> { });
    }

    /**
     * As {@link #place(RowBatch)}, handing the batch to {@code written} on the pool thread once it is written (the
     * writer keeps none of its arrays), so that the caller can fill it again.
     */
    public void place(RowBatch batch, java.util.function.Consumer<RowBatch> written) {
        long first = writer.reserve(batch.rowCount());
        writes.add(pool.submit(() -> {
            writer.writePart(first, batch);
            written.accept(batch);
        }));
        while (writes.size() > limit) {
            await(writes.poll());
        }
    }

    /** Waits for every pending write; rethrows the first failure. */
    public void finish() {
        while (!writes.isEmpty()) {
            await(writes.poll());
        }
    }

    private void await(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportException(file, file + ": interrupted", e);
        } catch (ExecutionException | CancellationException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new ImportException(file, file + ": " + c, c);
        }
    }

    /**
     * Waits until no pending write runs (their failures are dropped: the import fails anyway). They are not
     * cancelled: a cancelled task may still be running, and an interrupt would close the column's file under it.
     */
    @Override
    public void close() {
        while (!writes.isEmpty()) {
            try {
                writes.poll().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | CancellationException e) {
                // the import is failing already
            }
        }
    }

    /** A pool of {@code threads} daemon threads named {@code name-N}. */
    public static ExecutorService pool(int threads, String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Shuts {@code pool} down and waits a while for its threads to end (after a failure, interrupted). */
    public static void shutdown(ExecutorService pool) {
        pool.shutdownNow();
        try {
            pool.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
