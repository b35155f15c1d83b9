package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB casts no number, boolean or date implicitly to VARCHAR for a function that takes text: {@code
 * starts_with(2, 2)}, {@code length(123)} and {@code 123 LIKE '1%'} are errors there ("No function matches the given
 * name and argument types"), where Calcite would cast the value to text and answer. Only the functions that take any
 * value as text (concatenation, {@code concat_ws}, {@code string_agg}) do.
 */
final class NoTextCasts {

    /** Functions that read any value as its text, as DuckDB's do (by their names in upper case). */
    private static final Set<String> ANY_AS_TEXT = Set.of("||", "CONCAT", "CONCAT_WS", "STRING_AGG", "LISTAGG",
            "GROUP_CONCAT", "ARRAY_TO_STRING", "LIST_TO_STRING");

    private NoTextCasts() {
    }

    /** Throws where an operand expected as text holds a value DuckDB would not cast to text. */
    static void check(SqlCallBinding binding, List<RelDataType> operandTypes, List<SqlTypeFamily> expected) {
        if (ANY_AS_TEXT.contains(binding.getOperator().getName().toUpperCase(Locale.ROOT))) {
            return;
        }
        for (int i = 0; i < operandTypes.size() && i < expected.size(); i++) {
            SqlTypeFamily family = expected.get(i);
            if ((family == SqlTypeFamily.CHARACTER || family == SqlTypeFamily.STRING)
                    && notText(operandTypes.get(i))) {
                throw new SqlError("No function matches the given name and argument types '" + signature(binding,
                        operandTypes) + "'" + SupportCheck.at(binding.getCall().getParserPosition())
                        + ": DuckDB casts no " + NestedCommonType.name(operandTypes.get(i)) + " to VARCHAR implicitly (an "
                        + "explicit cast, x::VARCHAR, does)");
            }
        }
    }

    private static boolean notText(RelDataType type) {
        SqlTypeName name = type.getSqlTypeName();
        return SqlTypeUtil.isNumeric(type) || name == SqlTypeName.BOOLEAN || SqlTypeUtil.isDatetime(type);
    }

    private static String signature(SqlCallBinding binding, List<RelDataType> types) {
        List<String> names = new ArrayList<>();
        for (RelDataType t : types) {
            names.add(NestedCommonType.name(t));
        }
        return binding.getOperator().getName().toLowerCase(Locale.ROOT) + "(" + String.join(", ", names) + ")";
    }
}
