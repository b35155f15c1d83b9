package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaEvent;

import java.util.ArrayList;
import java.util.List;

/**
 * A query run's kernel time, from CUDA events around its launches, recorded only when the run times its kernels
 * ({@link io.tessera.backend.KernelTiming}); a tuner's blocks are always timed, each alone.
 */
final class KernelTimes {
    private final CudaContext ctx;
    private final boolean on;
    private long nanos;
    /**
     * Each launch's start and stop events, not read yet: a launch does not wait for its kernel (the read of its
     * error word does), and the times are read once the device has passed them.
     */
    private final List<CudaEvent[]> unread = new ArrayList<>();

    KernelTimes(CudaContext ctx, boolean on) {
        this.ctx = ctx;
        this.on = on;
    }

    /** Whether launches are timed. */
    boolean on() {
        return on;
    }

    /** The kernels' time on the device so far (waits for the timed ones); 0 when nothing was timed. */
    long nanos() {
        for (CudaEvent[] e : unread) {
            e[1].synchronize();
            nanos += (long) (e[1].elapsedMillisSince(e[0]) * 1e6);
            e[0].close();
            e[1].close();
        }
        unread.clear();
        return nanos;
    }

    /** Queues device work, between two events when launches are timed; its time is read by {@link #nanos}. */
    void later(Runnable work) {
        if (!on) {
            work.run();
            return;
        }
        CudaEvent start = ctx.createEvent();
        CudaEvent stop = ctx.createEvent();
        unread.add(new CudaEvent[] {start, stop});
        start.record();
        work.run();
        stop.record();
    }

    /** Runs device work between two events whatever the run asked, waits for it, and returns its time (added). */
    long now(Runnable work) {
        try (CudaEvent start = ctx.createEvent(); CudaEvent stop = ctx.createEvent()) {
            start.record();
            work.run();
            stop.record();
            stop.synchronize();
            long t = (long) (stop.elapsedMillisSince(start) * 1e6);
            nanos += t;
            return t;
        }
    }

    /** Frees the events not read. */
    void close() {
        for (CudaEvent[] e : unread) {
            e[0].close();
            e[1].close();
        }
        unread.clear();
    }
}
