package io.tessera.backend.jvm.run;

import io.tessera.api.QueryCancel;
import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.lib.NumericRuntime;
import io.tessera.backend.jvm.lib.SequenceRuntime;
import io.tessera.backend.host.HostWorkers;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a range of a pipeline's source rows on the workers: cut into morsels that the workers take in turn (as the
 * genome's access says), each worker filling its own sink state or all one shared state; checks the deadline and
 * the cancel before every morsel.
 */
public final class MorselRunner {

    /** The workers of every query whose options name no pool of their own. */
    public static final ExecutorService POOL = Executors.newFixedThreadPool(
            Math.max(1, java.lang.Runtime.getRuntime().availableProcessors()), r -> {
                Thread t = new Thread(r, "tessera-worker");
                t.setDaemon(true);
                return t;
            });

    private MorselRunner() {
    }

    /** The JVM options of a run ({@link JvmExecutor.Options#DEFAULT} when it set none). */
    static JvmExecutor.Options options(QueryState state) {
        JvmExecutor.Options o = state.option(JvmExecutor.Options.class);
        return o == null ? JvmExecutor.Options.DEFAULT : o;
    }

    /** The pool a run's workers run on. */
    static ExecutorService pool(QueryState state) {
        JvmExecutor.Options o = options(state);
        return o.pool() == null ? POOL : o.pool();
    }

    /**
     * Runs source rows {@code [from, to)} with the workers, morsel size and access of {@code g}; worker t fills
     * {@code states.get(t)} (made when missing), or all fill {@code states.get(0)} when the state is shared.
     * Returns the nanoseconds the rows took the workers, as a run without a barrier after them would spend on them
     * ({@link MorselScheduler#workersNanos}).
     */
    static long run(QueryState state, EmittedPipeline e, PipelineCode code, Genome g, long from, long to,
                    List<Object> states, boolean shared) {
        int workers = g.has(JvmDimensions.WORKERS) ? Math.max(1, g.getInt(JvmDimensions.WORKERS)) : 1;
        long morsel = Math.max(64, g.has(JvmDimensions.MORSEL) ? g.getInt(JvmDimensions.MORSEL) : 16384);
        long rows = to - from;
        int tasks = (int) Math.max(1, Math.min(workers, (rows + morsel - 1) / morsel));
        MorselScheduler.Access access = MorselScheduler.Access.of(g.has(JvmDimensions.ACCESS)
                ? g.get(JvmDimensions.ACCESS) : "dynamic");
        long expected = SinkStates.expectedRowsPerWorker(e, rows, tasks);
        int made = states.size();
        while (!shared && states.size() < tasks) {
            states.add(SinkStates.perWorker(e, expected));
        }
        long deadline = options(state).deadlineNanos();
        QueryCancel cancel = state.cancel();
        io.tessera.api.QueryProgress progress = cancel == null ? null : cancel.progress();
        AtomicLong cursor = new AtomicLong();
        long[] busy = new long[tasks];
        int[] morsels = new int[tasks];
        // EXPLAIN ANALYZE's code counts each operation's rows into its worker's own array, summed below
        boolean counting = e.countedOperations().length > 0;
        long[][] rowCounts = new long[tasks][counting ? e.pipeline().operations().size() : 0];
        List<Callable<Object>> jobs = new ArrayList<>();
        io.tessera.backend.RandomSeed seed = state.option(io.tessera.backend.RandomSeed.class);
        io.tessera.storage.SequenceCounters sequences = state.option(io.tessera.storage.SequenceCounters.class);
        int pipeline = e.pipeline().id();
        for (int t = 0; t < tasks; t++) {
            int worker = t;
            Object sinkState = states.get(shared ? 0 : t);
            jobs.add(() -> {
                long t0 = System.nanoTime();
                if (sequences != null) {
                    SequenceRuntime.use(sequences);
                }
                try {
                    MorselScheduler.morsels(access, rows, morsel, tasks, worker, cursor, (a, b) -> {
                        if (deadline != 0 && System.nanoTime() - deadline > 0) {
                            throw new JvmExecutor.DeadlineExceeded();
                        }
                        QueryCancel.check(cancel);
                        morsels[worker]++;
                        if (seed != null) {
                            NumericRuntime.seedMorsel(seed.value(), pipeline, from + a);
                        }
                        if (counting) {
                            code.run(from + a, from + b, sinkState, rowCounts[worker]);
                        } else {
                            code.run(from + a, from + b, sinkState);
                        }
                        if (progress != null) {
                            progress.advanced(b - a);
                        }
                    });
                } finally {
                    if (seed != null) {
                        NumericRuntime.unseed();
                    }
                    if (sequences != null) {
                        SequenceRuntime.done();
                    }
                }
                busy[worker] = System.nanoTime() - t0;
                return sinkState;
            });
        }
        if (tasks == 1) {
            try {
                jobs.get(0).call();
            } catch (RuntimeException ex) {
                throw ex;
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        } else {
            try {
                for (Future<Object> f : pool(state).invokeAll(jobs)) {
                    HostWorkers.join(f);
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", ex);
            }
        }
        // every job has written its entry: the futures were joined
        if (counting) {
            state.actuals().addRowsAfterOperations(e.pipeline(), e.countedOperations(), rowCounts);
        }
        if (!shared) {
            dropUnreached(states, made, morsels);
        }
        return MorselScheduler.workersNanos(access, busy);
    }

    /**
     * Leaves out the states made for this run ({@code states} from index {@code made} on, worker t's at t) whose
     * worker took no morsel (with dynamic access a worker that starts late may find none left): they are empty, and
     * the sink's end would copy or merge them with the others; one state always stays.
     */
    static void dropUnreached(List<Object> states, int made, int[] morsels) {
        for (int t = Math.min(states.size(), morsels.length) - 1; t >= made && states.size() > 1; t--) {
            if (morsels[t] == 0) {
                states.remove(t);
            }
        }
    }
}
