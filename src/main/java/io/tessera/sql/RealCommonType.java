package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

/**
 * The common type of a REAL (DuckDB's FLOAT) and integers or DECIMALs, as DuckDB gives it: REAL ({@code x + 1.5},
 * {@code COALESCE(x, 2.5)}), where Calcite's is DOUBLE. A DOUBLE among them keeps DOUBLE.
 */
final class RealCommonType {
    private RealCommonType() {
    }

    /** The REAL common type of {@code types}, or null where it is not REAL (Calcite's then stands). */
    static RelDataType of(RelDataTypeFactory f, List<RelDataType> types) {
        boolean real = false;
        boolean nullable = false;
        for (RelDataType t : types) {
            SqlTypeName n = t.getSqlTypeName();
            nullable |= t.isNullable();
            if (n == SqlTypeName.REAL || n == SqlTypeName.FLOAT) {
                real = true;
            } else if (!SqlTypeName.EXACT_TYPES.contains(n) && n != SqlTypeName.NULL) {
                return null;
            }
        }
        return real ? f.createTypeWithNullability(f.createSqlType(SqlTypeName.REAL), nullable) : null;
    }
}
