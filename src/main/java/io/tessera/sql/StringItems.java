package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * {@code s[i]} of a string, as DuckDB's {@code array_extract(VARCHAR, BIGINT)}: the character at 1-based position i
 * (negative from the end), an empty string outside the string, a VARCHAR. {@code plan.StringItemCalls} lowers it.
 */
final class StringItems {
    private StringItems() {
    }

    static boolean isText(RelDataType type) {
        return SqlTypeUtil.inCharFamily(type);
    }

    /** The index must be an integer (DuckDB refuses a DECIMAL one) or NULL. */
    static boolean checkIndex(SqlCallBinding b, boolean throwOnFailure) {
        RelDataType index = b.getOperandType(1);
        boolean ok = index.getSqlTypeName() == SqlTypeName.NULL
                || SqlTypeFamily.INTEGER.getTypeNames().contains(index.getSqlTypeName());
        if (!ok && throwOnFailure) {
            throw new SqlError("unsupported: a string's [index] of type " + index.getSqlTypeName()
                    + " (the index must be an integer)");
        }
        return ok;
    }

    /** VARCHAR, NULL where the string or the index may be. */
    static RelDataType returnType(SqlOperatorBinding b) {
        RelDataTypeFactory f = b.getTypeFactory();
        boolean nullable = b.getOperandType(0).isNullable() || b.getOperandType(1).isNullable();
        return f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), nullable);
    }
}
