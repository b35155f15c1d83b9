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
 * numbered pieces of work that the calling thread and up to {@code workers - 1} threads of the pool take in turn.
 * A piece that fails stops the others from taking more, and its failure is rethrown as it was.
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
        withCaller(pool, jobs, true);
    }

    /**
     * Runs {@code jobs}: the first on the calling thread, the others on {@code pool}, and returns when every one that
     * started is done. Where the jobs take their work from one shared counter ({@code shared}: any of them can do all
     * of it), a job the pool has not started by the time the calling thread's is done is cancelled: its work was
     * taken, and nobody waits for a busy core to start a job that would find none left. The first failure is
     * rethrown as it was (an Error before a RuntimeException) once the others are done.
     */
    public static void withCaller(ExecutorService pool, List<? extends Callable<?>> jobs, boolean shared) {
        // a helper runs its job only if it claims it first; the caller claims those not started when it is done
        List<AtomicBoolean> claims = new ArrayList<>();
        List<Future<?>> helpers = new ArrayList<>();
        for (int i = 1; i < jobs.size(); i++) {
            AtomicBoolean claim = new AtomicBoolean();
            Callable<?> job = jobs.get(i);
            claims.add(claim);
            helpers.add(pool.submit(() -> claim.compareAndSet(false, true) ? job.call() : null));
        }
        Throwable failure = null;
        try {
            jobs.get(0).call();
        } catch (Throwable e) {
            failure = e;
        }
        for (int i = 0; i < helpers.size(); i++) {
            Future<?> f = helpers.get(i);
            if ((shared || failure != null) && claims.get(i).compareAndSet(false, true)) {
                f.cancel(false); // never started, and now never will
                continue;
            }
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = first(failure, new IllegalStateException("interrupted", e));
            } catch (ExecutionException e) {
                failure = first(failure, e.getCause());
            }
        }
        if (failure instanceof Error err) {
            throw err;
        }
        if (failure instanceof RuntimeException re) {
            throw re;
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /** The failure to rethrow of two: an Error before anything else, else the earlier. */
    private static Throwable first(Throwable earlier, Throwable later) {
        return earlier == null || later instanceof Error && !(earlier instanceof Error) ? later : earlier;
    }

    /** Pieces of about {@code total / (workers * perWorker)} items, at least {@code min}, rounded up to a multiple of 64. */
    public static int pieceSize(long total, int workers, int perWorker, int min) {
        long size = Math.max(min, (total + (long) Math.max(1, workers) * perWorker - 1) / ((long) Math.max(1, workers) * perWorker));
        return (int) Math.min(Integer.MAX_VALUE - 64, (size + 63) & ~63L);
    }
}
