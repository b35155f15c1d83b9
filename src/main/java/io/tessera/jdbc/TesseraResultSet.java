package io.tessera.jdbc;

import io.tessera.api.ResultColumn;

import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows of one statement, read as they come from its {@link RowSource}, forward only and read only, with JDBC's typed getters over Tessera's values (Integer,
 * Long, Double, BigDecimal, LocalDate, Boolean, String; null for NULL). Columns are found by index (from 1) or by
 * label, ignoring case; {@link #wasNull()} tells whether the last value read was NULL.
 */
final class TesseraResultSet extends ReadOnlyResultSet {

    private final TesseraStatement statement;
    private final List<ResultColumn> columns;
    private final RowSource rows;
    private final Map<String, Integer> byLabel = new HashMap<>();
    private Object[] current;
    private Object[] ahead; // the row after the current one, once a question about it made the source give it
    private boolean aheadRead;
    private int row; // the current row's number from 1; 0 before the first
    private boolean afterLast;
    private boolean wasNull;
    private boolean closed;
    private int fetchSize;

    TesseraResultSet(TesseraStatement statement, List<ResultColumn> columns, RowSource rows) {
        this.statement = statement;
        this.columns = columns;
        this.rows = rows;
        for (int i = columns.size() - 1; i >= 0; i--) {
            // the first column of a label wins, as JDBC asks
            byLabel.put(columns.get(i).name().toLowerCase(Locale.ROOT), i + 1);
        }
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.closed("result set");
        }
    }

    /** The value of a column in the current row; sets {@link #wasNull()}. */
    private Object value(int column) throws SQLException {
        checkOpen();
        if (current == null) {
            throw new SQLException(afterLast ? "no current row: past the last" : "no current row: call next() first",
                    "24000");
        }
        if (column < 1 || column > columns.size()) {
            throw new SQLException("column index " + column + " is out of range (1.." + columns.size() + ")",
                    "07009");
        }
        Object v = current[column - 1];
        wasNull = v == null;
        return v;
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (afterLast) {
            return false;
        }
        current = peek();
        aheadRead = false;
        ahead = null;
        if (current == null) {
            afterLast = true;
            return false;
        }
        row++;
        return true;
    }

    /** The row after the current one, without moving to it. */
    private Object[] peek() throws SQLException {
        if (!aheadRead) {
            ahead = rows.next();
            aheadRead = true;
        }
        return ahead;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            rows.close();
            if (statement != null) {
                statement.resultClosed(this);
            }
        }
    }

    /** Closed because its statement ran again or closed. */
    void closeFromStatement() {
        closed = true;
        rows.close();
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        Integer i = columnLabel == null ? null : byLabel.get(columnLabel.toLowerCase(Locale.ROOT));
        if (i == null) {
            throw new SQLException("no column labelled '" + columnLabel + "' (the columns: "
                    + String.join(", ", columns.stream().map(ResultColumn::name).toList()) + ")", "42703");
        }
        return i;
    }

    // ---- getters by index

    @Override
    public String getString(int columnIndex) throws SQLException {
        return ValueConversions.toText(value(columnIndex));
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v != null && ValueConversions.toBoolean(v);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (byte) ValueConversions.toLong(v, "TINYINT", Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (short) ValueConversions.toLong(v, "SMALLINT", Short.MIN_VALUE, Short.MAX_VALUE);
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (int) ValueConversions.toLong(v, "INTEGER", Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : ValueConversions.toLong(v, "BIGINT", Long.MIN_VALUE, Long.MAX_VALUE);
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (float) ValueConversions.toDouble(v);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : ValueConversions.toDouble(v);
    }

    @Override
    @SuppressWarnings("deprecation")
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(columnIndex);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toBigDecimal(v);
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : Date.valueOf(ValueConversions.toDate(v));
    }

    /** Midnight of the date in {@code cal}'s time zone. */
    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        if (v == null) {
            return null;
        }
        LocalDate d = ValueConversions.toDate(v);
        return cal == null ? Date.valueOf(d)
                : new Date(d.atStartOfDay(cal.getTimeZone().toZoneId()).toInstant().toEpochMilli());
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.sqlTimestamp(v);
    }

    /** The date and time read in {@code cal}'s time zone; a TIMESTAMP WITH TIME ZONE is its instant in any zone. */
    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        if (v == null || v instanceof java.time.OffsetDateTime) {
            return v == null ? null : ValueConversions.sqlTimestamp(v);
        }
        java.time.LocalDateTime t = ValueConversions.toTimestamp(v);
        if (cal == null) {
            return Timestamp.valueOf(t);
        }
        Timestamp ts = Timestamp.from(t.atZone(cal.getTimeZone().toZoneId()).toInstant());
        return ts;
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.sqlTime(ValueConversions.toTime(v));
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return getTime(columnIndex);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        return ValueConversions.standard(value(columnIndex));
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("getObject: no type given", "22023");
        }
        return ValueConversions.as(value(columnIndex), type);
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        return getObject(columnIndex); // Tessera has no user-defined types for a map to name
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        return ValueConversions.toBytes(value(columnIndex));
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("byte streams (getAsciiStream): use getString or getCharacterStream");
    }

    @Override
    @SuppressWarnings("deprecation")
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("byte streams (getUnicodeStream): use getString or getCharacterStream");
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("binary values (getBinaryStream)");
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("REF values");
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("BLOB values");
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("CLOB values: use getString");
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        if (v == null || v instanceof io.tessera.storage.ListValue) {
            return (Array) ValueConversions.standard(v);
        }
        throw new java.sql.SQLDataException("a " + v.getClass().getSimpleName() + " value cannot be read as an ARRAY",
                "22018");
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("DATALINK values (getURL)");
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("ROWID values");
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("NCLOB values: use getString");
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw JdbcErrors.unsupported("SQLXML values");
    }

    // ---- getters by label: the column the label finds, read as by index

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    @SuppressWarnings("deprecation")
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), scale);
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return getDate(findColumn(columnLabel), cal);
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return getTime(findColumn(columnLabel), cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(columnLabel), cal);
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Override
    @SuppressWarnings("deprecation")
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return getUnicodeStream(findColumn(columnLabel));
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return getObject(findColumn(columnLabel), type);
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(columnLabel), map);
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getNCharacterStream(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        return getRef(findColumn(columnLabel));
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return getBlob(findColumn(columnLabel));
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return getClob(findColumn(columnLabel));
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        return getURL(findColumn(columnLabel));
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        return getRowId(findColumn(columnLabel));
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return getNClob(findColumn(columnLabel));
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        return getSQLXML(findColumn(columnLabel));
    }

    // ---- the cursor and the result set's own properties

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new TesseraResultSetMetaData(columns);
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
    public String getCursorName() throws SQLException {
        throw JdbcErrors.unsupported("named cursors");
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return row == 0 && !afterLast && peek() != null;
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return afterLast && row > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return current != null && row == 1;
    }

    @Override
    public boolean isLast() throws SQLException {
        checkOpen();
        return current != null && peek() == null;
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return current != null ? row : 0;
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw forwardOnly("beforeFirst");
    }

    @Override
    public void afterLast() throws SQLException {
        throw forwardOnly("afterLast");
    }

    @Override
    public boolean first() throws SQLException {
        throw forwardOnly("first");
    }

    @Override
    public boolean last() throws SQLException {
        throw forwardOnly("last");
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        throw forwardOnly("absolute");
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        throw forwardOnly("relative");
    }

    @Override
    public boolean previous() throws SQLException {
        throw forwardOnly("previous");
    }

    private static SQLException forwardOnly(String method) {
        return JdbcErrors.unsupported("scrollable result sets (" + method + "): the result set is TYPE_FORWARD_ONLY");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw forwardOnly("setFetchDirection");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** A hint only: rows arrive in the engine's batches (RowStream) whatever the fetch size. */
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
    public int getType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean isClosed() {
        return closed;
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
