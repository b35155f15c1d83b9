package io.tessera.jdbc;

import io.tessera.api.QueryCancel;
import io.tessera.api.ResultColumn;
import io.tessera.api.RowSink;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A query's rows handed from the thread that runs it to the result set that reads them, a few batches at a time
 * (the engine's batches of 4,096 rows; at most {@value #BATCHES_AHEAD} wait), so a result need not be held whole as
 * Java objects. The reader's {@link #close()} cancels the query and releases the thread; reaching the maximum row
 * count does the same. A failure of the query reaches the reader at the row where it happened.
 */
final class RowStream implements RowSink, RowSource {

    static final int BATCHES_AHEAD = 2;

    /** Thrown into the query's thread when the reader wants no more rows. */
    static final class Stopped extends RuntimeException {
        Stopped() {
            super("the result set was closed", null, false, false);
        }
    }

    private record Failure(Throwable cause) {
    }

    private static final Object END = new Object();

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(BATCHES_AHEAD);
    private final CompletableFuture<List<ResultColumn>> columns = new CompletableFuture<>();
    private final QueryCancel cancel;
    private final long maxRows;
    private final Function<Throwable, SQLException> failures;
    private volatile boolean closed;
    private List<Object[]> batch = List.of();
    private int inBatch;
    private long read;
    private boolean ended;

    /**
     * {@code maxRows}: 0 for all; {@code failures} turns a failure of the query into the SQLException the reader
     * gets.
     */
    RowStream(QueryCancel cancel, long maxRows, Function<Throwable, SQLException> failures) {
        this.cancel = cancel;
        this.maxRows = maxRows;
        this.failures = failures;
    }

    // ---- the query's side

    @Override
    public void start(List<ResultColumn> columns) {
        this.columns.complete(List.copyOf(columns));
    }

    @Override
    public void rows(List<Object[]> rows) {
        put(rows);
    }

    /** The query ended with every row handed over. */
    void end() {
        try {
            put(END);
        } catch (Stopped ignored) {
            // the reader is gone
        }
    }

    /** The query failed (before or after its columns). */
    void fail(Throwable t) {
        if (!columns.completeExceptionally(t)) {
            try {
                put(new Failure(t));
            } catch (Stopped ignored) {
                // the reader is gone and wants nothing more
            }
        }
    }

    private void put(Object item) {
        while (!closed) {
            try {
                if (queue.offer(item, 50, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Stopped();
            }
        }
        throw new Stopped();
    }

    // ---- the reader's side

    /** The result's columns, once the query ran; its failure, if it failed before. */
    List<ResultColumn> columns() throws SQLException {
        try {
            return columns.get();
        } catch (ExecutionException e) {
            throw failures.apply(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel.cancel();
            throw new SQLException("interrupted while the statement ran", JdbcErrors.CANCELLED, e);
        }
    }

    @Override
    public Object[] next() throws SQLException {
        while (!ended && inBatch == batch.size()) {
            if (maxRows > 0 && read >= maxRows) {
                close();
                ended = true;
                break;
            }
            Object item;
            try {
                item = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new SQLException("interrupted while reading rows", JdbcErrors.CANCELLED, e);
            }
            if (item == END) {
                ended = true;
            } else if (item instanceof Failure f) {
                ended = true;
                throw failures.apply(f.cause());
            } else {
                @SuppressWarnings("unchecked")
                List<Object[]> rows = (List<Object[]>) item;
                batch = rows;
                inBatch = 0;
            }
        }
        if (ended && inBatch == batch.size()) {
            return null;
        }
        if (maxRows > 0 && read >= maxRows) {
            close();
            ended = true;
            return null;
        }
        read++;
        return batch.get(inBatch++);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cancel.cancel();
            queue.clear();
        }
    }
}
