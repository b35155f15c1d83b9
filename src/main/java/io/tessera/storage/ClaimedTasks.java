package io.tessera.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Runs tasks on the calling thread and the common pool's threads, each thread claiming the next task in a given
 * order until none is left. Unlike a parallel stream, whose pieces are split in halves up front and taken from each
 * other's queues, no thread waits while a task is unclaimed, a thread that arrives late (still finishing another
 * column of the commit) takes what is left, and the largest tasks, listed first, never run last.
 */
final class ClaimedTasks {

    private ClaimedTasks() {
    }

    /** Runs {@code task} for every index of {@code order}, in that order of claiming; rethrows the first failure. */
    static void run(int[] order, IntConsumer task) {
        AtomicInteger next = new AtomicInteger();
        Runnable claim = () -> {
            for (int i = next.getAndIncrement(); i < order.length; i = next.getAndIncrement()) {
                try {
                    task.accept(order[i]);
                } catch (RuntimeException | Error e) {
                    next.set(order.length); // the others stop claiming
                    throw e;
                }
            }
        };
        int helpers = Math.min(order.length, ForkJoinPool.getCommonPoolParallelism() + 1) - 1;
        List<ForkJoinTask<?>> forked = new ArrayList<>(helpers);
        for (int h = 0; h < helpers; h++) {
            forked.add(ForkJoinTask.adapt(claim).fork());
        }
        Throwable failure = null;
        try {
            claim.run();
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        for (int h = helpers - 1; h >= 0; h--) {
            ForkJoinTask<?> f = forked.get(h);
            if (f.tryUnfork()) {
                continue; // no thread took it: every task was claimed without it
            }
            try {
                f.join();
            } catch (RuntimeException | Error e) {
                if (failure == null) {
                    failure = e;
                } else if (failure != e) {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure instanceof RuntimeException re) {
            throw re;
        }
        if (failure instanceof Error er) {
            throw er;
        }
    }

    /** Indexes {@code 0 .. size.length - 1}, the largest size first (ties in index order). */
    static int[] largestFirst(long[] size) {
        return java.util.stream.IntStream.range(0, size.length).boxed()
                .sorted((a, b) -> size[a] != size[b] ? Long.compare(size[b], size[a]) : Integer.compare(a, b))
                .mapToInt(Integer::intValue).toArray();
    }
}
