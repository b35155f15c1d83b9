package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaGraph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * CUDA graphs of a prepared query's pipelines (under {@link #PROPERTY}): a pipeline's device work ({@link
 * DeviceSteps}: its clears, fills and launches) issued as one graph launch instead of a driver call each. A graph
 * holds its arguments' values, so it is launched again only when a run's steps have the same keys as the captured
 * ones (the pool hands a run the buffers the last run had, in the same order); steps seen twice in a row are
 * captured, steps seen once are issued plainly, so that a pipeline whose arguments change on every run does not
 * pay a capture each time. Any failure of the graph calls issues the steps plainly and turns graphs off for the
 * process, the reason written once.
 */
final class PipelineGraphs {

    /** System property: {@code on} issues pipelines' device work as CUDA graphs; {@code off} (the default) does not. */
    static final String PROPERTY = "tessera.gpu.graphs";

    /** Why graphs were turned off for the process after a failure, or null. */
    private static volatile String failed;
    /** Graphs captured and graphs launched again, in this process. */
    private static final java.util.concurrent.atomic.AtomicLong CAPTURES = new java.util.concurrent.atomic.AtomicLong();
    private static final java.util.concurrent.atomic.AtomicLong REUSES = new java.util.concurrent.atomic.AtomicLong();
    /** Pipelines' steps issued one by one while graphs were on (new or changed steps, or a failure). */
    private static final java.util.concurrent.atomic.AtomicLong PLAIN = new java.util.concurrent.atomic.AtomicLong();

    /** What {@link #issue} did with a run's steps. */
    enum Issued {
        /** One by one: graphs are off, or the steps were new. */
        PLAIN,
        /** Captured into a new graph, which was launched. */
        CAPTURED,
        /** The graph captured from equal steps before, launched again. */
        REUSED
    }

    /** A captured graph: launched on the default stream, freed by close. */
    interface Graph {
        void launch();

        void close();
    }

    /** The capture of one pipeline's steps, or the last steps it saw that were not captured. */
    private static final class Entry {
        List<Object> capturedKeys;
        Graph graph;
        List<Object> lastKeys;
    }

    private final Map<Integer, Entry> byPipeline = new HashMap<>();

    /** Whether the switch asks for graphs: {@code on}/{@code true} or {@code off}/{@code false}/unset. */
    static boolean switchedOn(String value) {
        if (value == null) {
            return false;
        }
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false", "" -> false;
            default -> throw new IllegalArgumentException("-D" + PROPERTY + " must be on or off, not '" + value + "'");
        };
    }

    /** Whether pipelines' work goes through graphs now: switched on, and no graph call has failed. */
    static boolean enabled() {
        return failed == null && switchedOn(System.getProperty(PROPERTY));
    }

    /** Turns graphs off for the rest of the process; returns the line to write when this is the first failure. */
    static String fail(String reason) {
        synchronized (PipelineGraphs.class) {
            if (failed != null) {
                return null;
            }
            failed = reason;
        }
        return "tessera: CUDA graphs off from now on (" + reason + "); pipelines launch their kernels one by one";
    }

    /** Why graphs are off after a failure, or null. */
    static String failure() {
        return failed;
    }

    /** What graphs did in this process (captures, launches again, plain issues, a failure), or null: never on. */
    static String summary() {
        long captured = CAPTURES.get();
        long reused = REUSES.get();
        long plain = PLAIN.get();
        String why = failed;
        if (captured == 0 && reused == 0 && plain == 0 && why == null) {
            return null;
        }
        return "CUDA graphs: " + captured + " captured, " + reused + " launched again, " + plain
                + " pipeline runs issued one by one" + (why == null ? "" : "; off after a failure: " + why);
    }

    /** Clears the failure (tests). */
    static void resetFailure() {
        failed = null;
    }

    /**
     * Issues pipeline {@code pipeline}'s recorded steps: launches its graph when the steps equal the captured ones,
     * captures them (through {@code capture}) when they equal the last ones seen, else issues them one by one. A
     * failure of the graph path issues them one by one and turns graphs off ({@link #fail}).
     */
    Issued issue(int pipeline, DeviceSteps steps, Function<DeviceSteps, Graph> capture) {
        List<Object> keys = steps.keys();
        synchronized (this) {
            Entry e = byPipeline.computeIfAbsent(pipeline, id -> new Entry());
            try {
                if (e.graph != null && keys.equals(e.capturedKeys)) {
                    e.graph.launch();
                    REUSES.incrementAndGet();
                    return Issued.REUSED;
                }
                if (keys.equals(e.lastKeys)) {
                    Graph g = capture.apply(steps);
                    if (e.graph != null) {
                        e.graph.close();
                    }
                    e.graph = g;
                    e.capturedKeys = keys;
                    e.lastKeys = null;
                    g.launch();
                    CAPTURES.incrementAndGet();
                    return Issued.CAPTURED;
                }
                e.lastKeys = keys;
            } catch (RuntimeException failure) {
                String line = fail(failure.getMessage() == null ? failure.toString() : failure.getMessage());
                if (line != null) {
                    System.err.println(line);
                }
                e.lastKeys = null;
            }
        }
        steps.runOn(null);
        PLAIN.incrementAndGet();
        return Issued.PLAIN;
    }

    /** Issues the steps through graphs captured on {@code ctx}. */
    Issued issue(int pipeline, DeviceSteps steps, CudaContext ctx) {
        return issue(pipeline, steps, s -> {
            CudaGraph g = ctx.captureGraph(s::runOn);
            return new Graph() {
                @Override
                public void launch() {
                    g.launch(null);
                }

                @Override
                public void close() {
                    g.close();
                }
            };
        });
    }

    /** Frees the captured graphs. */
    synchronized void close() {
        for (Entry e : byPipeline.values()) {
            if (e.graph != null) {
                e.graph.close();
            }
        }
        byPipeline.clear();
    }
}
