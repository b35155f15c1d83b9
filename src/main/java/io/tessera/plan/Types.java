package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import org.apache.calcite.rel.type.RelDataType;

/** Calcite types to Tessera's column types. */
public final class Types {
    private Types() {
    }

    public static DataType of(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case TINYINT -> DataType.TINYINT;
            case SMALLINT -> DataType.SMALLINT;
            case INTEGER -> DataType.INTEGER;
            case BIGINT -> DataType.BIGINT;
            case DECIMAL -> DataType.decimal(Math.max(1, Math.min(t.getPrecision(), DataType.MAX_DECIMAL_PRECISION)),
                    Math.min(t.getScale(), Math.min(t.getPrecision(), DataType.MAX_DECIMAL_PRECISION)));
            case FLOAT, REAL -> DataType.REAL;
            case DOUBLE -> DataType.DOUBLE;
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            // Calcite's instant, shown in the session's zone: DuckDB's TIMESTAMP WITH TIME ZONE
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> DataType.TIMESTAMP_TZ;
            case TIME -> DataType.TIME;
            case BOOLEAN -> DataType.BOOLEAN;
            case CHAR, VARCHAR -> DataType.VARCHAR;
            case BINARY, VARBINARY -> DataType.BLOB;
            case UUID -> DataType.UUID;
            case NULL -> DataType.INTEGER;
            // DuckDB has one INTERVAL type (months, days, microseconds) for all of Calcite's
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH, INTERVAL_DAY, INTERVAL_DAY_HOUR,
                 INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR, INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND,
                 INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND, INTERVAL_SECOND -> DataType.INTERVAL;
            case ARRAY -> list(t.getComponentType());
            case ROW -> struct(t);
            // DuckDB's MAP: a list of key-value structs, marked as a map
            case MAP -> DataType.map(of(t.getKeyType()), of(t.getValueType()));
            default -> throw new SqlError("unsupported: values of type " + t.getSqlTypeName());
        };
    }

    /** A STRUCT of a row type's fields (a field may itself be a list or a struct). */
    private static DataType struct(RelDataType row) {
        java.util.List<io.tessera.storage.StructField> fields = new java.util.ArrayList<>();
        boolean unnamed = unnamed(row);
        for (org.apache.calcite.rel.type.RelDataTypeField f : row.getFieldList()) {
            fields.add(new io.tessera.storage.StructField(unnamed ? "" : f.getName(), of(f.getType())));
        }
        return DataType.struct(fields);
    }

    /** A row type's field names as a STRUCT's: empty for an unnamed struct's. */
    static java.util.List<String> fieldNames(RelDataType row) {
        return unnamed(row) ? java.util.Collections.nCopies(row.getFieldCount(), "") : row.getFieldNames();
    }

    /**
     * Whether a row type is an unnamed struct: Calcite names the fields of {@code row(1, 'a')} and {@code (1, 'a')}
     * EXPR$0, EXPR$1, ..., as the catalog names an unnamed struct column's ({@code sql.CatalogTable}).
     */
    private static boolean unnamed(RelDataType row) {
        for (int i = 0; i < row.getFieldCount(); i++) {
            if (!row.getFieldList().get(i).getName().equals("EXPR$" + i)) {
                return false;
            }
        }
        return true;
    }

    /** A LIST of this element type (a scalar, a struct or another list). */
    private static DataType list(RelDataType element) {
        return DataType.list(of(element));
    }
}
