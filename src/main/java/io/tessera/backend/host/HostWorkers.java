package io.tessera.backend.host;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The threads the end of a sink may use on the host (a parallel sort, merge, gather or window evaluation): a pool,
 * how many of its threads, and the query's cancel check, run between tasks. With one thread, or one task, the tasks
 * run on the calling thread.
 */
public record HostWorkers(ExecutorService pool, int threads, Runnable checkCancel) {

    /** The calling thread alone. */
    public static final HostWorkers ONE = new HostWorkers(null, 1, () -> { });

    public HostWorkers {
        if (threads < 1 || threads > 1 && pool == null) {
            throw new IllegalArgumentException("threads " + threads + " need a pool");
        }
    }

    /** A range of indices {@code [from, to)}, one task's share of a loop. */
    public interface RangeTask {
        void run(int from, int to);
    }

    /** Runs every task (in parallel where there is more than one thread) and returns when all are done. */
    public void run(List<Runnable> tasks) {
        checkCancel.run();
        if (threads == 1 || tasks.size() <= 1) {
            for (Runnable t : tasks) {
                t.run();
                checkCancel.run();
            }
            return;
        }
        List<Callable<Object>> calls = new ArrayList<>(tasks.size());
        for (Runnable t : tasks) {
            calls.add(() -> {
                checkCancel.run();
                t.run();
                return null;
            });
        }
        try {
            for (Future<Object> f : pool.invokeAll(calls)) {
                join(f);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Runs {@code task} over {@code [0, n)} cut into chunks of at least {@code minChunk} indices (a few per thread,
     * so that a slow one is evened out), each starting at a multiple of 64: chunks of a loop that sets bits of a
     * bitmap by index touch disjoint words.
     */
    public void chunks(int n, int minChunk, RangeTask task) {
        eachChunk(n, chunkSize(n, minChunk), task);
    }

    /** Runs {@code task} over {@code [0, n)} in chunks {@code [k * chunk, (k + 1) * chunk)}, one task each. */
    public void eachChunk(int n, int chunk, RangeTask task) {
        List<Runnable> tasks = new ArrayList<>();
        for (int from = 0; from < n; from += chunk) {
            int a = from;
            int b = (int) Math.min(n, (long) from + chunk);
            tasks.add(() -> task.run(a, b));
        }
        run(tasks);
    }

    /** The chunk size {@link #chunks} uses: a multiple of 64, at least {@code minChunk}, about 4 chunks a thread. */
    public int chunkSize(int n, int minChunk) {
        long perChunk = Math.max(Math.max(1, minChunk), (long) n / (threads == 1 ? 1 : 4L * threads) + 1);
        return (int) Math.min(Integer.MAX_VALUE - 64, (perChunk + 63) & ~63L);
    }

    /** A future's value, its failure rethrown as it was (a worker's RuntimeException or Error itself). */
    public static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        }
    }
}
