package io.tessera.jdbc;

import io.tessera.sql.Parameters;
import io.tessera.storage.DataType;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * The parameters of a prepared statement: their count, and the type of each as its value set so far makes it, or
 * while unset the type planning gives its place ({@code a = ?}: a's type; {@link Types#OTHER} where nothing gives
 * one: a parameter then takes the type of the value bound to it).
 */
final class TesseraParameterMetaData implements ParameterMetaData {

    private final Object[] values;
    private final Object unset;
    private final List<DataType> planned; // each parameter's type from planning; null entries: unknown

    TesseraParameterMetaData(Object[] values, Object unset, List<DataType> planned) {
        this.values = values;
        this.unset = unset;
        this.planned = planned;
    }

    private DataType type(int param) throws SQLException {
        if (param < 1 || param > values.length) {
            throw new SQLException("parameter index " + param + " is out of range (1.." + values.length + ")", "07009");
        }
        Object v = values[param - 1];
        if (v == unset || v == null) {
            return param <= planned.size() ? planned.get(param - 1) : null;
        }
        return v instanceof Parameters.Null n ? n.type() : ValueConversions.typeOf(v);
    }

    @Override
    public int getParameterCount() {
        return values.length;
    }

    @Override
    public int isNullable(int param) throws SQLException {
        type(param);
        return parameterNullable;
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        DataType t = type(param);
        return t != null && JdbcTypes.isSigned(t);
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        DataType t = type(param);
        return t == null ? 0 : JdbcTypes.precision(t);
    }

    @Override
    public int getScale(int param) throws SQLException {
        DataType t = type(param);
        return t == null ? 0 : JdbcTypes.scale(t);
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        DataType t = type(param);
        return t == null ? Types.OTHER : JdbcTypes.code(t);
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        DataType t = type(param);
        return t == null ? "ANY" : JdbcTypes.name(t);
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        DataType t = type(param);
        return t == null ? Object.class.getName() : JdbcTypes.className(t);
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        type(param);
        return parameterModeIn;
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
