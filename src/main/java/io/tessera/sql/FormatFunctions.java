package io.tessera.sql;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Collection;
import java.util.Map;

/**
 * DuckDB's FORMAT(fmt, args...) ({@code {}} placeholders) and PRINTF(fmt, args...) (C's conversions), and the texts
 * of integers FORMAT_BYTES (formatReadableSize), formatReadableDecimalSize and TO_BASE(n, radix [, min_length]):
 * VARCHARs, NULL where any argument is. Lowered by {@code plan.FormatCalls}; the format is a value, parsed at run time.
 */
final class FormatFunctions {

    private FormatFunctions() {
    }

    private static SqlFunction fn(String name) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                b -> DateConstructors.nullableIfAny(b, b.getTypeFactory().createSqlType(SqlTypeName.VARCHAR)), null,
                OperandTypes.variadic(SqlOperandCountRanges.from(1)), SqlFunctionCategory.STRING);
    }

    private static SqlFunction ofIntegers(String name, org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                b -> DateConstructors.nullableIfAny(b, b.getTypeFactory().createSqlType(SqlTypeName.VARCHAR)), null,
                operands, SqlFunctionCategory.STRING);
    }

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of("FORMAT", fn("FORMAT"), "PRINTF", fn("PRINTF"),
            "FORMAT_BYTES", ofIntegers("FORMAT_BYTES", OperandTypes.family(SqlTypeFamily.INTEGER)),
            // DuckDB's names as ClickHouse spells them, looked up in upper case as every name is
            "FORMATREADABLESIZE", ofIntegers("FORMATREADABLESIZE", OperandTypes.family(SqlTypeFamily.INTEGER)),
            "FORMATREADABLEDECIMALSIZE", ofIntegers("FORMATREADABLEDECIMALSIZE",
                    OperandTypes.family(SqlTypeFamily.INTEGER)),
            "TO_BASE", ofIntegers("TO_BASE", OperandTypes.or(
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER))));

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}
