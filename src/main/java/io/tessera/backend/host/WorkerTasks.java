package io.tessera.backend.host;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The end of a sink on the workers (a join table's build, a merge of group tables, rows copied into one buffer):
 * numbered pieces of work that up to {@code workers} threads of the pool take in turn, the calling thread waiting
 * for all of them. A piece that fails stops the others from taking more, and its failure is rethrown as it was.
 */
public final class WorkerTasks {

    private WorkerTasks() {
    }

    /**
     * Runs {@code piece.accept(i)} for every i in {@code [0, count)}; with one worker, one piece or no pool, on the
     * calling thread, in order.
     */
    public static void run(ExecutorService pool, int workers, int count, IntConsumer piece) {
        int threads = Math.min(Math.max(1, workers), count);
        if (threads <= 1 || pool == null) {
            for (int i = 0; i < count; i++) {
                piece.accept(i);
            }
            return;
        }
        AtomicInteger next = new AtomicInteger();
        AtomicBoolean failed = new AtomicBoolean();
        Callable<Void> job = () -> {
            int i;
            while (!failed.get() && (i = next.getAndIncrement()) < count) {
                try {
                    piece.accept(i);
                } catch (RuntimeException | Error e) {
                    failed.set(true);
                    throw e;
                }
            }
            return null;
        };
        List<Callable<Void>> jobs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            jobs.add(job);
        }
        try {
            RuntimeException firstRuntime = null;
            for (Future<Void> f : pool.invokeAll(jobs)) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof Error err) {
                        throw err;
                    }
                    if (firstRuntime == null) {
                        firstRuntime = c instanceof RuntimeException re ? re : new IllegalStateException(c);
                    }
                }
            }
            if (firstRuntime != null) {
                throw firstRuntime;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Pieces of about {@code total / (workers * perWorker)} items, at least {@code min}, rounded up to a multiple of 64. */
    public static int pieceSize(long total, int workers, int perWorker, int min) {
        long size = Math.max(min, (total + (long) Math.max(1, workers) * perWorker - 1) / ((long) Math.max(1, workers) * perWorker));
        return (int) Math.min(Integer.MAX_VALUE - 64, (size + 63) & ~63L);
    }
}
