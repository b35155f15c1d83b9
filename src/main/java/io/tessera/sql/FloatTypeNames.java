package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlUserDefinedTypeNameSpec;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Locale;

/**
 * DuckDB's FLOAT4 and FLOAT8 in a CAST or {@code ::} as Calcite's REAL and DOUBLE, which Calcite's grammar reads as
 * names of user types it does not have.
 */
final class FloatTypeNames {

    private FloatTypeNames() {
    }

    /** The type Calcite is to see for {@code type}: itself where it is no FLOAT4 or FLOAT8. */
    static SqlDataTypeSpec rewrite(SqlDataTypeSpec type) {
        if (!(type.getTypeNameSpec() instanceof SqlUserDefinedTypeNameSpec u) || !u.getTypeName().isSimple()) {
            return type;
        }
        SqlTypeName to = switch (u.getTypeName().getSimple().toUpperCase(Locale.ROOT)) {
            case "FLOAT4" -> SqlTypeName.REAL;
            case "FLOAT8" -> SqlTypeName.DOUBLE;
            default -> null;
        };
        return to == null ? type : new SqlDataTypeSpec(new SqlBasicTypeNameSpec(to, type.getParserPosition()), null,
                type.getNullable(), type.getParserPosition());
    }
}
