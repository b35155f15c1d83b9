package io.tessera.data;

import io.tessera.storage.RowBatch;
import io.tessera.storage.Table;
import io.tessera.storage.TableWriter;

import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Generates a table as a fixed sequence of chunks on a pool of threads and writes them, in chunk order, through
 * one {@link TableWriter}. At most {@code window} chunks are generated ahead of the writer, so memory stays
 * bounded however large the table is. What a chunk holds depends only on its index (each chunk draws from its
 * own seeded random stream), so the table is the same for any number of threads.
 */
public final class ChunkPipeline {

    /** Builds the rows of one chunk; called concurrently for different chunks. */
    @FunctionalInterface
    public interface ChunkSource {
        RowBatch generate(int chunk);
    }

    private ChunkPipeline() {
    }

    /**
     * Writes chunks {@code 0 .. chunks-1} and commits. On failure the writer is closed without a commit, which
     * leaves any previous version of the table in place.
     */
    public static Table run(TableWriter writer, int chunks, ChunkSource source, ExecutorService pool, int window,
                            Progress progress) {
        long t0 = System.nanoTime();
        ArrayDeque<Future<RowBatch>> inFlight = new ArrayDeque<>();
        int submitted = 0;
        try (writer) {
            for (int next = 0; next < chunks; next++) {
                while (submitted < chunks && inFlight.size() < Math.max(1, window)) {
                    final int c = submitted++;
                    inFlight.add(pool.submit(() -> source.generate(c)));
                }
                RowBatch batch = await(inFlight.poll());
                writer.write(batch);
                progress.update(writer.rowCount(), (next + 1) / (double) chunks);
            }
            Table t = writer.commit();
            progress.done(t.rowCount(), System.nanoTime() - t0);
            return t;
        } finally {
            for (Future<RowBatch> f : inFlight) {
                f.cancel(true);
            }
        }
    }

    private static RowBatch await(Future<RowBatch> f) {
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
