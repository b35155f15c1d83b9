package io.tessera.api;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How far a running query has come, as its executor reports it: the pipelines it runs, the one it has reached, and
 * the rows of that pipeline's input done so far. Any thread may read a {@link #snapshot()} while the query runs
 * (the shell draws a progress line from it); only the query's own run writes.
 */
public final class QueryProgress {

    /** The state at one moment: pipeline {@code pipeline} (1-based; 0 before the first) of {@code pipelines}. */
    public record Snapshot(int pipeline, int pipelines, long rowsDone, long rowsTotal) {
    }

    private volatile int pipelines;
    private volatile int started;
    private volatile long rowsTotal;
    private final AtomicLong rowsDone = new AtomicLong();

    /** The query's run starts with {@code pipelineCount} pipelines. */
    public void begin(int pipelineCount) {
        pipelines = pipelineCount;
        started = 0;
        rowsTotal = 0;
        rowsDone.set(0);
    }

    /** The next pipeline starts, over {@code inputRows} rows. */
    public synchronized void pipelineStarted(long inputRows) {
        rowsDone.set(0);
        rowsTotal = inputRows;
        started++;
    }

    /** {@code rows} more rows of the current pipeline's input are done. */
    public void advanced(long rows) {
        rowsDone.addAndGet(rows);
    }

    public Snapshot snapshot() {
        int p = started;
        long total = rowsTotal;
        return new Snapshot(p, Math.max(pipelines, p), Math.min(rowsDone.get(), total), total);
    }
}
