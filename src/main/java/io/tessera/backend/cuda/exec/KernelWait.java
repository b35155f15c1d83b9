package io.tessera.backend.cuda.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;

import java.util.function.BooleanSupplier;

/**
 * Waits for the kernels a query queued without blocking inside the driver: a synchronous copy or
 * {@code cuEventSynchronize} cannot be interrupted, so a query whose kernel runs long would ignore Ctrl-C, a JDBC
 * timeout and {@link QueryCancel}. Instead an event recorded after the work is polled ({@code cuEventQuery}),
 * spinning for a short while (most kernels end within it) and then sleeping between polls, the cancel checked at
 * every poll. Once cancelled, the kernel is given {@link #graceNanos} to end, so that its buffers can go back to
 * the pool; a kernel still running then throws {@link Stuck}, and the caller gives up on the GPU.
 */
final class KernelWait {

    /** Where the wait reads the time and sleeps (a test gives its own). */
    interface Clock {
        long nanoTime();

        void pause(long nanos);
    }

    static final Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void pause(long nanos) {
            java.util.concurrent.locks.LockSupport.parkNanos(nanos);
        }
    };

    /** How long the wait spins before it sleeps: the end-to-end time of a short query would suffer from a sleep. */
    static final long SPIN_NANOS = 200_000;
    /** The first sleep between polls, doubled after each poll up to {@link #MAX_PAUSE_NANOS}. */
    static final long FIRST_PAUSE_NANOS = 20_000;
    static final long MAX_PAUSE_NANOS = 2_000_000;
    /** System property: milliseconds a cancelled query's kernel may take to end (default 500). */
    static final String GRACE_PROPERTY = "tessera.gpu.cancelGraceMillis";

    /** A cancelled query's kernel that did not end within the grace: the device is busy for an unknown time. */
    static final class Stuck extends RuntimeException {
        Stuck(String message) {
            super(message, null, false, false);
        }
    }

    private final Clock clock;
    private final long graceNanos;

    KernelWait(Clock clock, long graceNanos) {
        this.clock = clock;
        this.graceNanos = graceNanos;
    }

    static KernelWait system() {
        return new KernelWait(SYSTEM, Long.getLong(GRACE_PROPERTY, 500) * 1_000_000L);
    }

    long graceNanos() {
        return graceNanos;
    }

    /**
     * Returns once {@code done} says the work has completed. Throws {@link QueryCancelledException} when
     * {@code cancel} (null: none) was cancelled before or during the wait and the work then completed within the
     * grace, {@link Stuck} when it did not.
     */
    void await(BooleanSupplier done, QueryCancel cancel) {
        long start = clock.nanoTime();
        long pause = FIRST_PAUSE_NANOS;
        long cancelledAt = -1;
        while (!done.getAsBoolean()) {
            long now = clock.nanoTime();
            if (cancelledAt < 0 && cancel != null && cancel.isCancelled()) {
                cancelledAt = now;
            }
            if (cancelledAt >= 0 && now - cancelledAt >= graceNanos) {
                throw new Stuck("a cancelled query's kernel was still running " + graceNanos / 1_000_000
                        + " ms after the cancel");
            }
            if (now - start < SPIN_NANOS && cancelledAt < 0) {
                Thread.onSpinWait();
            } else {
                clock.pause(pause);
                pause = Math.min(MAX_PAUSE_NANOS, pause * 2);
            }
        }
        QueryCancel.check(cancel);
    }
}
