package io.tessera.jdbc;

import io.tessera.Tessera;
import io.tessera.api.StatementShape;
import io.tessera.sql.Parameters;
import io.tessera.storage.DataType;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

/**
 * A statement with {@code ?} parameters. The values set are handed to Tessera as values ({@link Parameters}), which
 * binds each as a typed literal node of the parsed statement: a value is never pasted into SQL text, so a string
 * such as {@code '); DROP TABLE t; --} is only ever a string.
 */
final class TesseraPreparedStatement extends TesseraStatement implements PreparedStatement {

    /** A parameter not set yet (null is a value: SQL NULL). */
    private static final Object UNSET = new Object();

    private final String sql;
    private final Object[] values;
    private final List<Object[]> batch = new ArrayList<>();
    private ResultSetMetaData lastMetaData;
    private StatementShape shape;

    TesseraPreparedStatement(TesseraConnection connection, String sql) throws SQLException {
        super(connection);
        this.sql = sql;
        int n;
        try {
            n = Tessera.parameterCount(sql);
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
        this.values = new Object[n];
        Arrays.fill(values, UNSET);
    }

    private Parameters parameters(Object[] set) throws SQLException {
        for (int i = 0; i < set.length; i++) {
            if (set[i] == UNSET) {
                throw new SQLException("parameter " + (i + 1) + " is not set", "07001");
            }
        }
        try {
            return Parameters.of(Arrays.asList(set));
        } catch (RuntimeException e) {
            throw JdbcErrors.of(e);
        }
    }

    private boolean runWith(Object[] set, Expect expect) throws SQLException {
        boolean rows = run(sql, parameters(set), expect);
        if (rows) {
            lastMetaData = getResultSet().getMetaData();
        }
        return rows;
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        runWith(values, Expect.ROWS);
        return getResultSet();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return toInt(executeLargeUpdate());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        runWith(values, Expect.COUNT);
        return getLargeUpdateCount();
    }

    @Override
    public boolean execute() throws SQLException {
        return runWith(values, Expect.ANY);
    }

    private void set(int index, Object value) throws SQLException {
        checkOpen();
        if (index < 1 || index > values.length) {
            throw new SQLException("parameter index " + index + " is out of range: the statement has "
                    + values.length + " parameter" + (values.length == 1 ? "" : "s"), "07009");
        }
        values[index - 1] = value;
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        DataType type = JdbcTypes.ofCode(sqlType);
        set(parameterIndex, type == null ? null : new Parameters.Null(type));
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        setNull(parameterIndex, sqlType);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        set(parameterIndex, x == null ? new Parameters.Null(JdbcTypes.DECIMAL) : x);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        set(parameterIndex, x == null ? new Parameters.Null(DataType.VARCHAR) : x);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        setString(parameterIndex, value);
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        set(parameterIndex, x == null ? new Parameters.Null(DataType.DATE) : x.toLocalDate());
    }

    /** The date as {@code cal}'s time zone has it at the instant {@code x} holds. */
    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        if (x == null || cal == null) {
            setDate(parameterIndex, x);
            return;
        }
        set(parameterIndex, java.time.Instant.ofEpochMilli(x.getTime()).atZone(cal.getTimeZone().toZoneId())
                .toLocalDate());
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        set(parameterIndex, ValueConversions.parameter(x, parameterIndex));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        DataType type = JdbcTypes.ofCode(targetSqlType);
        if (x == null) {
            set(parameterIndex, type == null ? null : new Parameters.Null(type));
            return;
        }
        set(parameterIndex, type == null ? ValueConversions.parameter(x, parameterIndex)
                : ValueConversions.parameterAs(x, type, parameterIndex));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        setObject(parameterIndex, x, targetSqlType);
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        if (targetSqlType == null || targetSqlType.getVendorTypeNumber() == null) {
            setObject(parameterIndex, x);
            return;
        }
        setObject(parameterIndex, x, targetSqlType.getVendorTypeNumber());
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength)
            throws SQLException {
        setObject(parameterIndex, x, targetSqlType);
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(values, UNSET);
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        parameters(values); // every parameter set now, not found out when the batch runs
        batch.add(values.clone());
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw new SQLException("addBatch(String) on a prepared statement: its SQL is fixed (addBatch())", "07000");
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    /** Runs the statement once per parameter set added, in order; stops at the first that fails. */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<Object[]> sets = List.copyOf(batch);
        batch.clear();
        long[] counts = new long[sets.size()];
        for (int i = 0; i < sets.size(); i++) {
            try {
                runWith(sets.get(i), Expect.COUNT);
            } catch (SQLException e) {
                throw batchFailure(counts, i, e);
            }
            counts[i] = getLargeUpdateCount();
        }
        return counts;
    }

    /** The columns of the last result set this statement gave; null before it ran (they are known by running). */
    /**
     * The result's columns: those of the last run, else those planning gives before any run (null where planning
     * cannot tell them: a statement that is not a query, or a query with a {@code ?} whose type nothing gives).
     */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        if (lastMetaData == null) {
            StatementShape s = shape();
            return s.columns() == null ? null : new TesseraResultSetMetaData(s.columns());
        }
        return lastMetaData;
    }

    /** Each parameter's type: the value set's, else the type planning gives its place ({@code a = ?}: a's). */
    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new TesseraParameterMetaData(values.clone(), UNSET, shape().parameters());
    }

    /** The statement's shape from planning it, planned once per statement (planning runs nothing). */
    private StatementShape shape() throws SQLException {
        if (shape == null) {
            try {
                connection.latest();
                shape = connection.tessera().describe(sql);
            } catch (RuntimeException e) {
                throw JdbcErrors.of(e);
            }
        }
        return shape;
    }

    // the SQL of a prepared statement is fixed: JDBC's rule for the forms that take SQL text

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw fixedSql();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw fixedSql();
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        throw fixedSql();
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw fixedSql();
    }

    private static SQLException fixedSql() {
        return new SQLException("a prepared statement runs its own SQL: call execute(), executeQuery() or "
                + "executeUpdate() without SQL text", "07000");
    }

    // values Tessera has no type for

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        set(parameterIndex, x == null ? new Parameters.Null(DataType.BLOB) : x.clone());
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        set(parameterIndex, x == null ? new Parameters.Null(DataType.TIME) : ValueConversions.localTime(x));
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        setTime(parameterIndex, x);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        set(parameterIndex, x == null ? new Parameters.Null(DataType.TIMESTAMP) : x.toLocalDateTime());
    }

    /** The date and time as {@code cal}'s time zone has them at the instant {@code x} holds. */
    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        if (x == null || cal == null) {
            setTimestamp(parameterIndex, x);
            return;
        }
        set(parameterIndex, x.toInstant().atZone(cal.getTimeZone().toZoneId()).toLocalDateTime());
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setAsciiStream)");
    }

    @Override
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setUnicodeStream)");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        throw JdbcErrors.unsupported("binary values (setBinaryStream)");
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setCharacterStream): use setString");
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        throw JdbcErrors.unsupported("REF values");
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        throw JdbcErrors.unsupported("BLOB values");
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        throw JdbcErrors.unsupported("CLOB values");
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        throw JdbcErrors.unsupported("ARRAY values");
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        throw JdbcErrors.unsupported("DATALINK values (setURL)");
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        throw JdbcErrors.unsupported("ROWID values");
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setNCharacterStream): use setString");
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        throw JdbcErrors.unsupported("NCLOB values");
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        throw JdbcErrors.unsupported("CLOB values");
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        throw JdbcErrors.unsupported("BLOB values");
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        throw JdbcErrors.unsupported("NCLOB values");
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        throw JdbcErrors.unsupported("SQLXML values");
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setAsciiStream)");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        throw JdbcErrors.unsupported("binary values (setBinaryStream)");
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setCharacterStream): use setString");
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setAsciiStream)");
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        throw JdbcErrors.unsupported("binary values (setBinaryStream)");
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setCharacterStream): use setString");
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        throw JdbcErrors.unsupported("stream parameters (setNCharacterStream): use setString");
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        throw JdbcErrors.unsupported("CLOB values");
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        throw JdbcErrors.unsupported("BLOB values");
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        throw JdbcErrors.unsupported("NCLOB values");
    }
}
