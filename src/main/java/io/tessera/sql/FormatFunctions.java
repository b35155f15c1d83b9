package io.tessera.sql;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Collection;
import java.util.Map;

/**
 * DuckDB's FORMAT(fmt, args...) ({@code {}} placeholders) and PRINTF(fmt, args...) (C's conversions): VARCHARs, NULL
 * where any argument is. Lowered by {@code plan.FormatCalls}; the format is a value, parsed at run time.
 */
final class FormatFunctions {

    private FormatFunctions() {
    }

    private static SqlFunction fn(String name) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                b -> DateConstructors.nullableIfAny(b, b.getTypeFactory().createSqlType(SqlTypeName.VARCHAR)), null,
                OperandTypes.variadic(SqlOperandCountRanges.from(1)), SqlFunctionCategory.STRING);
    }

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of("FORMAT", fn("FORMAT"), "PRINTF", fn("PRINTF"));

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}
