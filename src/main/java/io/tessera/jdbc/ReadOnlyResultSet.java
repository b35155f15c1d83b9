package io.tessera.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * What a read-only result set refuses: every {@code update...} method and row change, each with
 * SQLFeatureNotSupportedException naming updatable result sets. Tessera's result sets are
 * {@link ResultSet#CONCUR_READ_ONLY}: rows change through UPDATE, INSERT and DELETE statements.
 */
abstract class ReadOnlyResultSet implements ResultSet {

    static SQLException readOnly() {
        return JdbcErrors.unsupported("updatable result sets (the result set is CONCUR_READ_ONLY; change rows with "
                + "UPDATE, INSERT or DELETE)");
    }

    @Override
    public final void updateArray(int a0, Array a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateArray(String a0, Array a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int a0, InputStream a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int a0, InputStream a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(int a0, InputStream a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String a0, InputStream a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String a0, InputStream a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateAsciiStream(String a0, InputStream a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBigDecimal(int a0, BigDecimal a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBigDecimal(String a0, BigDecimal a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int a0, InputStream a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int a0, InputStream a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(int a0, InputStream a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String a0, InputStream a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String a0, InputStream a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBinaryStream(String a0, InputStream a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int a0, InputStream a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int a0, InputStream a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(int a0, Blob a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String a0, InputStream a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String a0, InputStream a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBlob(String a0, Blob a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBoolean(int a0, boolean a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBoolean(String a0, boolean a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateByte(int a0, byte a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateByte(String a0, byte a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBytes(int a0, byte[] a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateBytes(String a0, byte[] a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int a0, Reader a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(int a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String a0, Reader a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateCharacterStream(String a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(int a0, Clob a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateClob(String a0, Clob a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDate(int a0, Date a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDate(String a0, Date a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDouble(int a0, double a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateDouble(String a0, double a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateFloat(int a0, float a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateFloat(String a0, float a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateInt(int a0, int a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateInt(String a0, int a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateLong(int a0, long a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateLong(String a0, long a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(int a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(int a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(String a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNCharacterStream(String a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(int a0, NClob a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String a0, Reader a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String a0, Reader a1, long a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNClob(String a0, NClob a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNString(int a0, String a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNString(String a0, String a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNull(int a0) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateNull(String a0) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int a0, Object a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int a0, Object a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String a0, Object a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String a0, Object a1, int a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRef(int a0, Ref a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRef(String a0, Ref a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRowId(int a0, RowId a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateRowId(String a0, RowId a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateSQLXML(int a0, SQLXML a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateSQLXML(String a0, SQLXML a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateShort(int a0, short a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateShort(String a0, short a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateString(int a0, String a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateString(String a0, String a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTime(int a0, Time a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTime(String a0, Time a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTimestamp(int a0, Timestamp a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateTimestamp(String a0, Timestamp a1) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int a0, Object a1, SQLType a2, int a3) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String a0, Object a1, SQLType a2, int a3) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(int a0, Object a1, SQLType a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final void updateObject(String a0, Object a1, SQLType a2) throws SQLException {
        throw readOnly();
    }

    @Override
    public final boolean rowUpdated() throws SQLException {
        return false;
    }

    @Override
    public final boolean rowInserted() throws SQLException {
        return false;
    }

    @Override
    public final boolean rowDeleted() throws SQLException {
        return false;
    }

    @Override
    public final void insertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void deleteRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void refreshRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void cancelRowUpdates() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void moveToInsertRow() throws SQLException {
        throw readOnly();
    }

    @Override
    public final void moveToCurrentRow() throws SQLException {
        throw readOnly();
    }
}
