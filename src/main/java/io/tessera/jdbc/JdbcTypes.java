package io.tessera.jdbc;

import io.tessera.storage.DataType;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;

/** Tessera's column types as JDBC describes them: {@link Types} codes, names, Java classes, sizes. */
final class JdbcTypes {

    /** DECIMAL at its largest precision: the type of getTypeInfo's row and of a NULL set as DECIMAL. */
    static final DataType DECIMAL = DataType.decimal(DataType.MAX_DECIMAL_PRECISION, 0);

    /** The types Tessera has, in the order {@code DatabaseMetaData.getTypeInfo} lists them (by JDBC code). */
    static final DataType[] ALL = {DataType.TINYINT, DataType.BIGINT, DECIMAL, DataType.INTEGER,
            DataType.SMALLINT, DataType.DOUBLE, DataType.VARCHAR, DataType.BOOLEAN, DataType.DATE,
            DataType.TIME, DataType.TIMESTAMP, DataType.UUID, DataType.BLOB, DataType.TIMESTAMP_TZ};

    private JdbcTypes() {
    }

    /** The {@link Types} code of a column type. */
    static int code(DataType t) {
        if (t.isMap()) {
            return Types.OTHER; // as DuckDB's driver reports a MAP
        }
        if (t.isList()) {
            return Types.ARRAY;
        }
        if (t.isStruct()) {
            return Types.STRUCT;
        }
        return switch (t.kind()) {
            case INTEGER -> t.equals(DataType.SMALLINT) ? Types.SMALLINT : t.equals(DataType.TINYINT) ? Types.TINYINT
                    : Types.INTEGER;
            case BIGINT -> Types.BIGINT;
            case DOUBLE -> t.isReal() ? Types.FLOAT : Types.DOUBLE; // REAL as DuckDB's driver reports FLOAT
            case DECIMAL -> Types.DECIMAL;
            case DATE -> Types.DATE;
            case TIMESTAMP -> Types.TIMESTAMP;
            case TIMESTAMP_TZ -> Types.TIMESTAMP_WITH_TIMEZONE;
            case TIME -> Types.TIME;
            case BOOLEAN -> Types.BOOLEAN;
            // as DuckDB's driver reports them
            case VARCHAR -> t.isBlob() ? Types.BLOB : t.isUuid() || t.isInterval() ? Types.OTHER : Types.VARCHAR;
        };
    }

    /** The SQL name of a type without precision and scale ({@code DECIMAL}, not {@code DECIMAL(12,2)}). */
    static String name(DataType t) {
        return t.kind() == io.tessera.storage.TypeKind.DECIMAL ? "DECIMAL" : t.toString();
    }

    /** The class of the values {@code ResultSet.getObject} returns for a type. */
    static String className(DataType t) {
        if (t.isMap()) {
            return java.util.LinkedHashMap.class.getName();
        }
        if (t.isList()) {
            return java.sql.Array.class.getName();
        }
        if (t.isStruct()) {
            return java.sql.Struct.class.getName();
        }
        return switch (t.kind()) {
            case INTEGER -> Integer.class.getName();
            case BIGINT -> Long.class.getName();
            case DOUBLE -> t.isReal() ? Float.class.getName() : Double.class.getName();
            case DECIMAL -> java.math.BigDecimal.class.getName();
            case DATE -> java.sql.Date.class.getName();
            case TIMESTAMP -> java.time.LocalDateTime.class.getName();
            case TIMESTAMP_TZ -> java.time.OffsetDateTime.class.getName();
            case TIME -> java.time.LocalTime.class.getName();
            case BOOLEAN -> Boolean.class.getName();
            case VARCHAR -> t.isBlob() ? byte[].class.getName() : t.isUuid() ? java.util.UUID.class.getName()
                    : String.class.getName();
        };
    }

    /** JDBC's precision: decimal digits of numbers, characters of a date's, time's or timestamp's text, the longest string. */
    static int precision(DataType t) {
        return switch (t.kind()) {
            case INTEGER -> t.equals(DataType.SMALLINT) ? 5 : t.equals(DataType.TINYINT) ? 3 : 10;
            case BIGINT -> 19;
            case DOUBLE -> t.isReal() ? 8 : 15;
            case DECIMAL -> t.precision();
            case DATE -> 10;
            case TIMESTAMP -> 26;
            case TIMESTAMP_TZ -> 35;
            case TIME -> 15;
            case BOOLEAN -> 1;
            case VARCHAR -> Integer.MAX_VALUE;
        };
    }

    static int scale(DataType t) {
        return t.scale();
    }

    /** The most characters a value's text takes (a sign and a decimal point included). */
    static int displaySize(DataType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT -> precision(t) + 1;
            case DOUBLE -> t.isReal() ? 15 : 24;
            case DECIMAL -> t.precision() + (t.scale() > 0 ? 2 : 1);
            case DATE -> 10;
            case TIMESTAMP -> 26;
            case TIMESTAMP_TZ -> 35;
            case TIME -> 15;
            case BOOLEAN -> 5;
            case VARCHAR -> Integer.MAX_VALUE;
        };
    }

    static boolean isSigned(DataType t) {
        return switch (t.kind()) {
            case INTEGER, BIGINT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    /** The column type a {@link Types} code stands for ({@code setNull(i, Types.DECIMAL)}); null for NULL/OTHER. */
    static DataType ofCode(int code) throws SQLException {
        return switch (code) {
            case Types.INTEGER -> DataType.INTEGER;
            case Types.SMALLINT -> DataType.SMALLINT;
            case Types.TINYINT -> DataType.TINYINT;
            case Types.BIGINT -> DataType.BIGINT;
            case Types.DOUBLE -> DataType.DOUBLE;
            case Types.FLOAT, Types.REAL -> DataType.REAL;
            case Types.DECIMAL, Types.NUMERIC -> DECIMAL;
            case Types.DATE -> DataType.DATE;
            case Types.TIMESTAMP -> DataType.TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> DataType.TIMESTAMP_TZ;
            case Types.TIME -> DataType.TIME;
            case Types.BOOLEAN, Types.BIT -> DataType.BOOLEAN;
            case Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR, Types.NVARCHAR, Types.NCHAR, Types.LONGNVARCHAR,
                 Types.CLOB -> DataType.VARCHAR;
            case Types.BLOB, Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> DataType.BLOB;
            case Types.NULL, Types.OTHER, Types.JAVA_OBJECT -> null;
            default -> throw new SQLFeatureNotSupportedException("SQL type " + codeName(code)
                    + ": Tessera's types are INTEGER, SMALLINT, TINYINT, BIGINT, DOUBLE, DECIMAL, DATE, TIMESTAMP, TIME,"
                    + " TIMESTAMP WITH TIME ZONE, BOOLEAN,"
                    + " VARCHAR, BLOB, UUID");
        };
    }

    /** The name of a {@link Types} code, for errors. */
    static String codeName(int code) {
        for (java.lang.reflect.Field f : Types.class.getFields()) {
            try {
                if (f.getType() == int.class && f.getInt(null) == code) {
                    return f.getName();
                }
            } catch (IllegalAccessException e) {
                break;
            }
        }
        return String.valueOf(code);
    }
}
