package io.tessera.sql;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

import java.util.Collection;
import java.util.Map;

/**
 * DuckDB's functions of a string's grapheme clusters (what a reader takes for one character: a letter and its
 * combining accents, an emoji sequence) and of its Unicode normal form: LENGTH_GRAPHEME (BIGINT), LEFT_GRAPHEME,
 * RIGHT_GRAPHEME and SUBSTRING_GRAPHEME (LEFT's, RIGHT's and SUBSTRING's rules counted in clusters) and
 * NFC_NORMALIZE (VARCHARs); NULL where an argument is. Lowered by {@code plan.UnicodeCalls}.
 */
final class UnicodeFunctions {

    private UnicodeFunctions() {
    }

    private static SqlFunction fn(String name, SqlTypeName type, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(type).andThen(SqlTypeTransforms.TO_NULLABLE), null, operands,
                SqlFunctionCategory.STRING);
    }

    private static final SqlOperandTypeChecker TEXT_COUNT =
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER);

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of(
            "LENGTH_GRAPHEME", fn("LENGTH_GRAPHEME", SqlTypeName.BIGINT, OperandTypes.STRING),
            "LEFT_GRAPHEME", fn("LEFT_GRAPHEME", SqlTypeName.VARCHAR, TEXT_COUNT),
            "RIGHT_GRAPHEME", fn("RIGHT_GRAPHEME", SqlTypeName.VARCHAR, TEXT_COUNT),
            "SUBSTRING_GRAPHEME", fn("SUBSTRING_GRAPHEME", SqlTypeName.VARCHAR, OperandTypes.or(TEXT_COUNT,
                    OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER))),
            "NFC_NORMALIZE", fn("NFC_NORMALIZE", SqlTypeName.VARCHAR, OperandTypes.STRING));

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}
