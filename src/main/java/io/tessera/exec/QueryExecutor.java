package io.tessera.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.backend.Backend;
import io.tessera.backend.PipelineActuals;
import io.tessera.backend.QueryState;
import io.tessera.backend.DeviceException;
import io.tessera.backend.Devices;
import io.tessera.backend.KernelTiming;
import io.tessera.backend.host.PipelineLoop;
import io.tessera.backend.host.ResultRelation;
import io.tessera.plan.ColumnInfo;
import io.tessera.storage.Database;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a prepared query's pipeline graph: each pipeline on the device its {@link Placement} gave it, in
 * dependency order (the plan's), the cancel checked between pipelines, each pipeline timed; relations whose
 * writers ran on several devices or need the host's sort or LIMIT completed on the host; the result moved to the
 * host. A GPU result only the JVM can give or a failing GPU (a {@link DeviceException}) runs the whole query
 * again on the JVM, compiling what it needs then.
 */
final class QueryExecutor {

    private final Database db;
    /** Whether every run times its kernels ({@link KernelTiming}), as a run option asks for one run. */
    private volatile boolean timeKernels;
    /** The seed setseed gave (null: none), and the runs since. */
    private Long randomSeed;
    private long seededRuns;
    /** The devices of the engine that runs this executor's queries: the host runs and completes, the GPU too. */
    private final Devices devices;

    QueryExecutor(Database db, Devices devices) {
        this.db = db;
        this.devices = devices;
    }

    /** A query's result relation, its columns, where it ran, and each pipeline's time and counted rows. */
    record Ran(ResultRelation rel, List<ResultColumn> columns, QueryResult.Execution execution, PipelineActuals actuals) {
    }

    /**
     * Runs {@code p}; {@code option} (null: none) is handed to the devices' backends through the run's
     * {@link QueryState#option} (a GPU tuner's block kernels); {@code sequences} (null: none) are the counters its
     * sequence functions draw from.
     */
    Ran run(QueryEngine.Prepared p, RunOption<?> option, QueryCancel cancel,
            io.tessera.storage.SequenceCounters sequences) {
        io.tessera.backend.RandomSeed seed = nextSeed();
        List<ResultColumn> cols = new ArrayList<>();
        for (ColumnInfo c : p.plan().resultColumns()) {
            cols.add(new ResultColumn(c.name(), c.type(), c.nullable()));
        }
        int all = p.plan().pipelines().size();
        if (p.gpu() == null || p.placement().offHost() == 0) {
            try (QueryState state = new QueryState(db, p.plan(), cancel)) {
                seed(state, seed);
                counters(state, sequences);
                ResultRelation rel = runPlaced(state, p.placement(), p, null);
                String device = "cpu";
                QueryResult.Execution e = new QueryResult.Execution(device, p.notice(), 0, 0, 0, 0, 0,
                        p.notice() == null ? 0 : all, state.moves(), state.moveNanos(), state.steps());
                return new Ran(rel, cols, e, state.actuals());
            }
        }
        try (QueryState state = new QueryState(db, p.plan(), cancel)) {
            seed(state, seed);
            counters(state, sequences);
            if (timeKernels) {
                state.setOption(KernelTiming.class, KernelTiming.ON);
            }
            if (option != null) {
                option.setIn(state);
            }
            ResultRelation rel = runPlaced(state, p.placement(), p, p.gpu());
            int onGpu = p.placement().offHost();
            QueryResult.Execution e = new QueryResult.Execution(onGpu == all ? "gpu" : "gpu+cpu", p.notice(),
                    p.gpu().kernelNanos(state), p.gpu().uploadNanos(state), p.gpu().bytesRead(),
                    p.gpu().modelBytes(), onGpu, all, state.moves(), state.moveNanos(), state.steps());
            return new Ran(rel, cols, e, state.actuals());
        } catch (DeviceException e) {
            // the JVM gives every answer: the whole query again there, its missing code compiled now
            Placement jvm = Placement.jvm(p.plan(), "the GPU run fell back");
            p.jvm().prepare(p.plan().pipelines());
            try (QueryState state = new QueryState(db, p.plan(), cancel)) {
                seed(state, seed); // the same values as the run that fell back would have drawn
                counters(state, sequences);
                ResultRelation rel = runPlaced(state, jvm, p, null);
                QueryResult.Execution ex = new QueryResult.Execution("cpu", "ran on the JVM: " + DeviceException.describe(e),
                        0, 0, 0, 0, 0, all, state.moves(), state.moveNanos(), state.steps());
                return new Ran(rel, cols, ex, state.actuals());
            }
        }
    }

    /**
     * Seeds the random() values of the runs from now on ({@code setseed}): the n-th run after it draws from a seed
     * made of {@code seed} and n, so that the same queries after the same setseed draw the same values.
     */
    synchronized void seedRandom(long seed) {
        randomSeed = seed;
        seededRuns = 0;
    }

    /** The next run's seed, or null where no setseed was run. */
    private synchronized io.tessera.backend.RandomSeed nextSeed() {
        if (randomSeed == null) {
            return null;
        }
        return new io.tessera.backend.RandomSeed(
                new java.util.SplittableRandom(randomSeed + 0x9E3779B97F4A7C15L * ++seededRuns).nextLong());
    }

    private static void seed(QueryState state, io.tessera.backend.RandomSeed seed) {
        if (seed != null) {
            state.setOption(io.tessera.backend.RandomSeed.class, seed);
        }
    }

    private static void counters(QueryState state, io.tessera.storage.SequenceCounters sequences) {
        if (sequences != null) {
            state.setOption(io.tessera.storage.SequenceCounters.class, sequences);
        }
    }

    /** Whether every run from now on times its kernels (else only runs given {@link KernelTiming} as an option). */
    void timeKernels(boolean on) {
        timeKernels = on;
    }

    /**
     * Runs every pipeline on its device, in plan order ({@link PipelineLoop}), and returns the result on the host;
     * {@code p}'s JVM side is asked for only by a pipeline placed on the host (a query wholly on the GPU makes none).
     */
    private ResultRelation runPlaced(QueryState state, Placement placement, QueryEngine.Prepared p,
                                     Backend.Query gpu) {
        return PipelineLoop.run(state, devices.host(), id -> new PipelineLoop.Placed(placement.device(id),
                placement.onHost(id) ? p.jvm() : gpu));
    }
}
