package io.tessera.jdbc;

import io.tessera.Tessera;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * A connection: one open {@link Tessera} database, released by {@link #close()}.
 *
 * <p>Transactions: every Tessera statement is atomic and commits when it ends (a data change writes a new
 * generation of its table, or nothing when it fails), and a query reads the state committed when it starts. So the
 * connection is always in auto-commit mode: {@code setAutoCommit(false)} is refused, {@link #commit()} has nothing
 * left to do and returns, and {@link #rollback()} fails, since nothing can be undone. A read-only connection refuses
 * every statement that changes the database.
 */
final class TesseraConnection implements Connection {

    private final Tessera tessera;
    private final String url;
    private final Set<TesseraStatement> statements = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private volatile boolean readOnly;
    private int runningStatements;

    TesseraConnection(Tessera tessera, String url) {
        this.tessera = tessera;
        this.url = url;
    }

    Tessera tessera() {
        return tessera;
    }

    String url() {
        return url;
    }

    /**
     * Called as a statement starts: when no other statement of this connection is running, the database moves to
     * the latest committed state first (another connection or process may have written), as the command line does
     * before each statement. A statement running on another thread keeps reading the state it started with.
     */
    synchronized void statementStarts() {
        if (runningStatements == 0) {
            tessera.database().refresh();
        }
        runningStatements++;
    }

    synchronized void statementEnds() {
        runningStatements--;
        notifyAll();
    }

    /**
     * Waits for the statements still running (cancelled already) to stop, at most {@code millis}: the database they
     * read must stay open until they do.
     */
    private synchronized void awaitStatements(long millis) {
        long end = System.currentTimeMillis() + millis;
        while (runningStatements > 0 && System.currentTimeMillis() < end) {
            try {
                wait(Math.max(1, end - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The latest committed state for a metadata call, when no statement is running. */
    synchronized void latest() {
        if (runningStatements == 0) {
            tessera.database().refresh();
        }
    }

    boolean readOnlyNow() {
        return readOnly;
    }

    void forget(TesseraStatement s) {
        statements.remove(s);
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.closed("connection");
        }
    }

    private <T extends TesseraStatement> T track(T s) {
        statements.add(s);
        return s;
    }

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return track(new TesseraStatement(this));
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkOpen();
        return track(new TesseraPreparedStatement(this, sql));
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw JdbcErrors.unsupported("stored procedures (prepareCall)");
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql; // no JDBC escape syntax is translated
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (!autoCommit) {
            throw JdbcErrors.unsupported("transactions of several statements (setAutoCommit(false)): each Tessera "
                    + "statement is atomic and commits when it ends");
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return true;
    }

    /** Returns: every statement committed when it ended. */
    @Override
    public void commit() throws SQLException {
        checkOpen();
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        throw new SQLException("nothing to roll back: each statement committed when it ended (auto-commit)", "25000");
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (TesseraStatement s : statements.toArray(new TesseraStatement[0])) {
            s.close(); // cancels what it runs
        }
        // a cancelled query stops at its next morsel or kernel launch; one waiting for another process's writer
        // lock may take longer, and then fails on the closed database
        awaitStatements(10_000);
        tessera.close();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return new TesseraDatabaseMetaData(this);
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        this.readOnly = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return readOnly;
    }

    /** A database is one catalog: there is no other to change to, so this is ignored, as JDBC allows. */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
    }

    /** The database's one catalog: the name of its directory (as DuckDB names a database after its file). */
    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return catalogName();
    }

    /** The name of the database's one catalog: its directory's name. */
    String catalogName() {
        java.nio.file.Path name = tessera.database().directory().toAbsolutePath().normalize().getFileName();
        return name == null ? "tessera" : name.toString();
    }

    /**
     * Serializable for what a transaction can hold here, one statement: writers take turns, each reading what it
     * changes under the writer lock, and a query reads one committed state. Any level asked for is served by it.
     */
    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        if (level == TRANSACTION_NONE) {
            throw JdbcErrors.unsupported("TRANSACTION_NONE: statements are always atomic");
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return TRANSACTION_SERIALIZABLE;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency);
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return prepareCall(sql);
    }

    static void checkResultSetKind(int type, int concurrency) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            throw JdbcErrors.unsupported("scrollable result sets (only TYPE_FORWARD_ONLY)");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw JdbcErrors.unsupported("updatable result sets (only CONCUR_READ_ONLY)");
        }
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return new java.util.HashMap<>();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw JdbcErrors.unsupported("type maps (user-defined types)");
        }
    }

    /** Result sets hold their rows and stay open after a commit. */
    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw JdbcErrors.unsupported("CLOSE_CURSORS_AT_COMMIT (every statement commits; result sets stay open)");
        }
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        setHoldability(resultSetHoldability);
        return createStatement(resultSetType, resultSetConcurrency);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        setHoldability(resultSetHoldability);
        return prepareStatement(sql, resultSetType, resultSetConcurrency);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
                                         int resultSetHoldability) throws SQLException {
        return prepareCall(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != Statement.NO_GENERATED_KEYS) {
            throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
        }
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        throw JdbcErrors.unsupported("generated keys (Tessera generates no keys)");
    }

    @Override
    public Clob createClob() throws SQLException {
        throw JdbcErrors.unsupported("CLOB values");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw JdbcErrors.unsupported("BLOB values");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw JdbcErrors.unsupported("NCLOB values");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw JdbcErrors.unsupported("SQLXML values");
    }

    /** Whether the connection is open; the database is in this process, so there is nothing further to ask. */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw new SQLException("isValid: the timeout is negative", "22023");
        }
        return !closed;
    }

    /** No client information is kept; a property set is reported as not set. */
    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        throw new SQLClientInfoException("the Tessera driver keeps no client information (" + name + ")",
                Map.of(name, java.sql.ClientInfoStatus.REASON_UNKNOWN_PROPERTY));
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        Map<String, java.sql.ClientInfoStatus> failed = new java.util.HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            failed.put(name, java.sql.ClientInfoStatus.REASON_UNKNOWN_PROPERTY);
        }
        if (!failed.isEmpty()) {
            throw new SQLClientInfoException("the Tessera driver keeps no client information", failed);
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        return new Properties();
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw JdbcErrors.unsupported("ARRAY values");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw JdbcErrors.unsupported("STRUCT values");
    }

    /** The catalog has one schema, main: there is no other to change to, so this is ignored, as JDBC allows. */
    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
    }

    /** The one schema, {@code main}, which holds every table and view. */
    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return CatalogMetaData.SCHEMA;
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw new SQLException("abort: no executor", "22023");
        }
        for (TesseraStatement s : statements) {
            s.cancelQuietly();
        }
        executor.execute(this::close);
    }

    /** The database is in this process: there is no network to time out. */
    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        if (iface == Tessera.class) {
            return iface.cast(tessera);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || iface == Tessera.class;
    }
}
