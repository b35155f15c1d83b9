package io.tessera.jdbc;

import io.tessera.Tessera;
import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;
import io.tessera.api.QueryResult;
import io.tessera.sql.Parameters;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/**
 * A statement: runs one SQL statement at a time through the connection's {@link Tessera}, as the command line does
 * (queries and EXPLAIN give a result set; CREATE, DROP, INSERT, UPDATE, DELETE, CREATE TABLE AS and COPY an update
 * count: the rows a data change wrote, 0 for the others). {@link #cancel()}, from any thread, and the query timeout
 * stop a running statement through its {@link QueryCancel} at its next check (between morsels or kernel launches).
 */
class TesseraStatement implements Statement {

    /** What a call of the execute family allows the statement to be. */
    enum Expect { ANY, ROWS, COUNT }

    final TesseraConnection connection;
    private volatile QueryCancel running;
    private volatile boolean closed;
    private long maxRows;
    private int queryTimeout;
    private int fetchSize;
    private TesseraResultSet resultSet;
    private long updateCount = -1;
    private SQLWarning warnings;
    private boolean closeOnCompletion;
    private boolean poolable;
    private final List<String> batch = new ArrayList<>();
    /** The results after the current one of several statements run at once: result sets and update counts. */
    private final java.util.ArrayDeque<Object> moreResults = new java.util.ArrayDeque<>();

    TesseraStatement(TesseraConnection connection) {
        this.connection = connection;
    }

    /** Runs {@code sql} with {@code parameters}; returns whether it gave a result set. */
    final boolean run(String sql, Parameters parameters, Expect expect) throws SQLException {
        checkOpen();
        connection.checkOpen();
        closeResult();
        boolean rows;
        boolean readsOnly;
        try {
            rows = Tessera.returnsRows(sql);
            readsOnly = Tessera.readsOnly(sql);
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
        if (expect == Expect.ROWS && !rows) {
            throw new SQLException("executeQuery: the statement returns no rows (executeUpdate or execute run it)",
                    "07000");
        }
        if (expect == Expect.COUNT && rows) {
            throw new SQLException("executeUpdate: the statement returns rows (executeQuery or execute run it)",
                    "07000");
        }
        if (!readsOnly && connection.readOnlyNow()) {
            throw new SQLException("the connection is read-only: it runs queries only", "25006");
        }
        if (rows) {
            resultSet = stream(sql, parameters);
        } else {
            RowCollector collector = new RowCollector();
            QueryResult result = collect(sql, parameters, collector);
            notice(result);
            updateCount = collector.updateCount();
        }
        return rows;
    }

    /** One run of a statement: its cancel handle, whether its timeout fired, and the timer that fires it. */
    private final class Run {
        final QueryCancel cancel = new QueryCancel();
        final int timeout = queryTimeout;
        volatile boolean timedOut;
        final ScheduledFuture<?> timer = timeout <= 0 ? null : QueryTimer.after(timeout, () -> {
            timedOut = true;
            cancel.cancel();
        });

        Run() {
            running = cancel;
            connection.statementStarts();
        }

        void finish() {
            if (timer != null) {
                timer.cancel(false);
            }
            if (running == cancel) {
                running = null;
            }
            connection.statementEnds();
        }

        /** A failure of the statement as the SQLException the caller gets. */
        SQLException failure(Throwable t) {
            return switch (t) {
                case QueryCancelledException e when timedOut -> new SQLTimeoutException("query timed out after "
                        + timeout + " s (setQueryTimeout)", JdbcErrors.CANCELLED, e);
                case RuntimeException e -> JdbcErrors.of(e);
                case OutOfMemoryError e -> new SQLException("out of memory running this statement: " + e.getMessage(),
                        "53200", e);
                case StackOverflowError e -> new SQLException("the statement is nested too deeply to plan", "54001", e);
                case Error e -> throw e;
                default -> new SQLException(JdbcErrors.message(t), "XX000", t);
            };
        }
    }

    /** Runs a statement that changes the database, its count row kept by {@code collector}. */
    private QueryResult collect(String sql, Parameters parameters, RowCollector collector) throws SQLException {
        Run run = new Run();
        try {
            return connection.tessera().query(sql, parameters, run.cancel, collector);
        } catch (RuntimeException | Error e) {
            throw run.failure(e);
        } finally {
            run.finish();
        }
    }

    /**
     * Runs a query on a thread of its own that hands its rows to the result set as they are read out; returns once
     * the query has run (its columns known) or failed.
     */
    private TesseraResultSet stream(String sql, Parameters parameters) throws SQLException {
        Run run = new Run();
        RowStream rows = new RowStream(run.cancel, maxRows, run::failure);
        try {
            Thread.ofVirtual().name("tessera-jdbc-statement").start(() -> {
                try {
                    QueryResult r = connection.tessera().query(sql, parameters, run.cancel, rows);
                    notice(r); // before the last row is handed over: a reader at the end sees it
                    rows.end();
                } catch (Throwable t) {
                    rows.fail(t);
                } finally {
                    run.finish();
                }
            });
        } catch (RuntimeException | Error e) {
            run.finish();
            throw run.failure(e);
        }
        return new TesseraResultSet(this, rows.columns(), rows);
    }

    private void notice(QueryResult result) {
        if (result != null && result.execution().notice() != null) {
            addWarning(new SQLWarning(result.execution().notice()));
        }
    }

    private synchronized void addWarning(SQLWarning w) {
        if (warnings == null) {
            warnings = w;
        } else {
            warnings.setNextWarning(w);
        }
    }

    /** Closes the current result and those of several statements not reached yet. */
    private void closeResult() {
        closeCurrent();
        for (Object r : moreResults) {
            if (r instanceof TesseraResultSet rs) {
                rs.closeFromStatement();
            }
        }
        moreResults.clear();
    }

    private void closeCurrent() {
        if (resultSet != null) {
            resultSet.closeFromStatement();
            resultSet = null;
        }
        updateCount = -1;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.closed("statement");
        }
    }

    /** Called by a result set of this statement when it closes. */
    void resultClosed(TesseraResultSet rs) {
        if (rs == resultSet && closeOnCompletion) {
            close();
        }
    }

    void cancelQuietly() {
        QueryCancel c = running;
        if (c != null) {
            c.cancel();
        }
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        run(sql, Parameters.NONE, Expect.ROWS);
        return resultSet;
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return toInt(executeLargeUpdate(sql));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        run(sql, Parameters.NONE, Expect.COUNT);
        return updateCount;
    }

    static int toInt(long count) {
        return count > Integer.MAX_VALUE ? Statement.SUCCESS_NO_INFO : (int) count;
    }

    /**
     * Runs the statement, or each of several separated by semicolons ({@code select 1; select 2}) in order: the
     * first one's result is current, {@link #getMoreResults()} moves to the next. All run before this returns (a
     * query has run when its result set is handed out, its rows read as they are asked for); one that fails stops
     * the rest, and what the ones before it changed stays changed, as each commits on its own.
     */
    @Override
    public boolean execute(String sql) throws SQLException {
        List<String> statements;
        try {
            statements = Tessera.statements(sql);
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
        if (statements.size() <= 1) {
            return run(sql, Parameters.NONE, Expect.ANY);
        }
        closeResult();
        List<Object> results = new ArrayList<>();
        try {
            for (String one : statements) {
                boolean rows = run(one, Parameters.NONE, Expect.ANY);
                results.add(rows ? resultSet : (Object) updateCount);
                resultSet = null; // kept in results: the next run must not close it
                updateCount = -1;
            }
        } catch (SQLException e) {
            for (Object r : results) {
                if (r instanceof TesseraResultSet rs) {
                    rs.closeFromStatement();
                }
            }
            throw e;
        }
        moreResults.addAll(results);
        return nextResult();
    }

    /** Makes the next of several statements' results current; whether it is a result set. */
    private boolean nextResult() {
        Object next = moreResults.pollFirst();
        if (next instanceof TesseraResultSet rs) {
            resultSet = rs;
            return true;
        }
        updateCount = next == null ? -1 : (Long) next;
        return false;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        cancelQuietly();
        closeResult();
        closed = true;
        connection.forget(this);
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max != 0) {
            throw JdbcErrors.unsupported("a maximum field size (values are returned whole)");
        }
    }

    @Override
    public int getMaxRows() throws SQLException {
        return toInt(getLargeMaxRows());
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw new SQLException("setMaxRows: " + max + " is negative", "22023");
        }
        maxRows = max;
    }

    /** JDBC escape syntax ({@code {d '...'}}) is not translated either way: SQL is read as Tessera's. */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw new SQLException("setQueryTimeout: " + seconds + " is negative", "22023");
        }
        queryTimeout = seconds;
    }

    /** Stops the statement running now, from any thread; it fails with SQLSTATE 57014, "query cancelled". */
    @Override
    public void cancel() throws SQLException {
        checkOpen();
        cancelQuietly();
    }

    @Override
    public synchronized SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public synchronized void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw JdbcErrors.unsupported("named cursors (positioned UPDATE and DELETE)");
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return resultSet;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return toInt(getLargeUpdateCount());
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    /** The next result of several statements run by one {@link #execute(String)}; none after the last. */
    @Override
    public boolean getMoreResults() throws SQLException {
        checkOpen();
        closeCurrent();
        return nextResult();
    }

    /**
     * The next result; KEEP_CURRENT_RESULT leaves the current result set open (CLOSE_ALL_RESULTS closes it too: the
     * others a statement kept open were closed as it moved on, or are still to come).
     */
    @Override
    public boolean getMoreResults(int current) throws SQLException {
        if (current != KEEP_CURRENT_RESULT) {
            return getMoreResults();
        }
        checkOpen();
        resultSet = null;
        updateCount = -1;
        return nextResult();
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw JdbcErrors.unsupported("fetch directions other than FETCH_FORWARD");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** A hint only: a result set holds all its rows (at most the maximum row count) once the statement ran. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw new SQLException("setFetchSize: " + rows + " is negative", "22023");
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] out = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = toInt(counts[i]);
        }
        return out;
    }

    /** Runs the batch's statements in order, each atomic on its own; stops at the first that fails. */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> statements = List.copyOf(batch);
        batch.clear();
        long[] counts = new long[statements.size()];
        for (int i = 0; i < statements.size(); i++) {
            try {
                run(statements.get(i), Parameters.NONE, Expect.COUNT);
            } catch (SQLException e) {
                throw batchFailure(counts, i, e);
            }
            counts[i] = updateCount;
        }
        return counts;
    }

    static BatchUpdateException batchFailure(long[] counts, int done, SQLException e) {
        return new BatchUpdateException("statement " + (done + 1) + " of the batch failed: " + e.getMessage(),
                e.getSQLState(), e.getErrorCode(), java.util.Arrays.copyOf(counts, done), e);
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    /** Tessera generates no keys: always an empty result set. */
    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        return new TesseraResultSet(this, List.of(), RowSource.of(List.of()));
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        noKeys(autoGeneratedKeys);
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        noKeys(autoGeneratedKeys);
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
    }

    private static void noKeys(int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != Statement.NO_GENERATED_KEYS) {
            throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
        }
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
