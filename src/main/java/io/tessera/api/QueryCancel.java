package io.tessera.api;

/**
 * A cancellation handle for running queries: any thread may call {@link #cancel()}, and the query that runs under
 * the handle stops at its next check (between morsels on the JVM, between kernel launches on a GPU, between
 * batches of result rows) with a {@link QueryCancelledException}. A handle stays cancelled; use a new one for the
 * next query. A JDBC {@code Statement.cancel()} maps to {@link #cancel()} of the statement's handle. The handle
 * also carries the query's {@link QueryProgress}, which its executor reports into as it runs.
 */
public final class QueryCancel {

    private volatile boolean cancelled;
    private final QueryProgress progress = new QueryProgress();

    /** How far the query under this handle has come. */
    public QueryProgress progress() {
        return progress;
    }

    /** Asks the query to stop; returns at once (the query stops at its next check). */
    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** Throws {@link QueryCancelledException} when {@link #cancel()} was called. */
    public void check() {
        if (cancelled) {
            throw new QueryCancelledException();
        }
    }

    /** Checks {@code cancel}, which may be null (a query that cannot be cancelled). */
    public static void check(QueryCancel cancel) {
        if (cancel != null && cancel.cancelled) {
            throw new QueryCancelledException();
        }
    }
}
