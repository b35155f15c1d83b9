package io.tessera.backend.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Work on the calling thread and the pool: the caller does its share itself; with shared work a job the pool has
 * not started when the caller is done is dropped (one that started is waited for), with fixed shares every job is
 * waited for; failures reach the caller.
 */
@Timeout(120) // a job waited for that never runs would hang: the pool's one thread is held in these tests
class WorkerTasksTest {

    /** A pool of one thread, held by a task until {@code release} counts down. */
    private static ExecutorService held(CountDownLatch release) {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        pool.submit(() -> {
            release.await();
            return null;
        });
        return pool;
    }

    @Test
    void everyPieceRunsOnceAndTheCallerAloneDoesAllWhenThePoolIsBusy() {
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = held(release);
        try {
            Thread caller = Thread.currentThread();
            AtomicIntegerArray seen = new AtomicIntegerArray(1000);
            AtomicBoolean elsewhere = new AtomicBoolean();
            WorkerTasks.run(pool, 4, 1000, i -> {
                seen.incrementAndGet(i);
                elsewhere.compareAndSet(false, Thread.currentThread() != caller);
            });
            for (int i = 0; i < 1000; i++) {
                assertEquals(1, seen.get(i), "piece " + i);
            }
            assertFalse(elsewhere.get(), "the pool's thread was busy: every piece ran on the caller");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aJobOfAFixedShareIsWaitedFor() {
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = held(release);
        try {
            AtomicBoolean second = new AtomicBoolean();
            // the caller's job frees the pool, whose thread then runs the second job: it must not be dropped
            List<Callable<Object>> jobs = List.of(() -> {
                release.countDown();
                return null;
            }, () -> {
                second.set(true);
                return null;
            });
            WorkerTasks.withCaller(pool, jobs, false);
            assertTrue(second.get(), "the second job ran before withCaller returned");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSharedJobThatStartedIsWaitedFor() {
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch callerDone = new CountDownLatch(1);
            AtomicBoolean finished = new AtomicBoolean();
            WorkerTasks.withCaller(pool, List.<Callable<Object>>of(() -> {
                started.await();
                callerDone.countDown();
                return null;
            }, () -> {
                started.countDown();
                callerDone.await(); // still running when the caller's job ends
                finished.set(true);
                return null;
            }), true);
            assertTrue(finished.get(), "withCaller returned before a job that had started was done");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailureReachesTheCallerAsItWas() {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            IllegalStateException boom = new IllegalStateException("boom");
            assertSame(boom, assertThrows(IllegalStateException.class, () -> WorkerTasks.run(pool, 3, 50, i -> {
                if (i == 17) {
                    throw boom;
                }
            })));
            // the helper has started (it let the caller's job go on), so its Error is waited for and wins
            AssertionError error = new AssertionError("error");
            CountDownLatch helperStarted = new CountDownLatch(1);
            assertSame(error, assertThrows(AssertionError.class, () -> WorkerTasks.withCaller(pool,
                    List.<Callable<Object>>of(() -> {
                        helperStarted.await();
                        throw new IllegalArgumentException("runtime");
                    }, () -> {
                        helperStarted.countDown();
                        throw error;
                    }), true)));
        } finally {
            pool.shutdownNow();
        }
    }
}
