package io.tessera.backend.jvm.run;

import io.tessera.backend.jvm.gen.PipelineCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * How the workers of a pipeline are given its morsels (the access dimension):
 * <ul>
 * <li>dynamic: each worker takes the next morsel from a shared cursor when it is done with its last, so fast
 * workers take more (morsel-driven scheduling);</li>
 * <li>blocked: worker t owns the t-th contiguous block of rows, rows/workers long, and walks it morsel by morsel
 * (each worker reads one sequential stretch; no shared cursor);</li>
 * <li>strided: worker t takes morsels t, t + workers, t + 2 workers, ... (the workers advance through the
 * rows side by side, interleaved at morsel granularity; no shared cursor).</li>
 * </ul>
 */
final class MorselScheduler {

    enum Access {
        DYNAMIC, BLOCKED, STRIDED;

        static Access of(String label) {
            return valueOf(label.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * The nanoseconds a range of rows took its workers, given each one's busy time, as a run that goes on past the
     * range would spend on it: with dynamic access their mean (a worker that found no morsel left while another
     * finished its last would have taken the next rows), with a fixed share per worker the slowest one's.
     */
    static long workersNanos(Access access, long[] busy) {
        long sum = 0;
        long max = 0;
        for (long b : busy) {
            sum += b;
            max = Math.max(max, b);
        }
        return access == Access.DYNAMIC ? sum / busy.length : max;
    }

    /** Receives one morsel {@code [from, to)}. */
    interface MorselConsumer {
        void run(long from, long to);
    }

    private MorselScheduler() {
    }

    /**
     * The morsels of worker {@code t} of {@code tasks} over {@code rows} rows, in the order it processes them;
     * {@code cursor} is the workers' shared cursor (used by dynamic access only).
     */
    static void morsels(Access access, long rows, long morsel, int tasks, int t, AtomicLong cursor, MorselConsumer c) {
        switch (access) {
            case DYNAMIC -> {
                long from;
                while ((from = cursor.getAndAdd(morsel)) < rows) {
                    c.run(from, Math.min(rows, from + morsel));
                }
            }
            case BLOCKED -> {
                long start = blockStart(rows, tasks, t);
                long end = blockStart(rows, tasks, t + 1);
                for (long from = start; from < end; from += morsel) {
                    c.run(from, Math.min(end, from + morsel));
                }
            }
            case STRIDED -> {
                for (long from = t * morsel; from < rows; from += tasks * morsel) {
                    c.run(from, Math.min(rows, from + morsel));
                }
            }
        }
    }

    private static long blockStart(long rows, int tasks, int t) {
        return rows * t / tasks;
    }

    /** One job per worker: runs the worker's morsels through {@code code} into the state {@code state} gives it. */
    static List<Callable<Object>> jobs(PipelineCode code, long rows, long morsel, int tasks, Access access,
                                       Supplier<Object> state) {
        AtomicLong cursor = new AtomicLong();
        List<Callable<Object>> jobs = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            int worker = t;
            jobs.add(() -> {
                Object s = state.get();
                morsels(access, rows, morsel, tasks, worker, cursor, (from, to) -> code.run(from, to, s));
                return s;
            });
        }
        return jobs;
    }
}
