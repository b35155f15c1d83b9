package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

/**
 * DuckDB's common type of TIMESTAMP and TIMESTAMP WITH TIME ZONE (in a UNION, a CASE, a COALESCE, an IN list): the
 * instant, a TIMESTAMP read on the session's clock, as its CAST reads it. Calcite would take one of them as it is.
 */
final class ZonedCommonType {
    private ZonedCommonType() {
    }

    /** The instant type where {@code types} mix TIMESTAMP, instants and NULL, at least one instant; else null. */
    static RelDataType of(RelDataTypeFactory f, List<RelDataType> types) {
        boolean zoned = false;
        boolean nullable = false;
        for (RelDataType t : types) {
            SqlTypeName n = t.getSqlTypeName();
            if (n == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE || n == SqlTypeName.TIMESTAMP_TZ) {
                zoned = true;
            } else if (n != SqlTypeName.TIMESTAMP && n != SqlTypeName.NULL) {
                return null;
            }
            nullable |= t.isNullable();
        }
        if (!zoned) {
            return null;
        }
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                TesseraTypeSystem.TIMESTAMP_PRECISION), nullable);
    }
}
