package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

import java.util.Map;

/**
 * DuckDB's everyday string functions that {@link TextDateFunctions} lacks (splitting into a VARCHAR[] and by part,
 * prefix and suffix tests, CONTAINS of a string or a list, REVERSE, ASCII, CHR, MD5, REGEXP_EXTRACT) and the list
 * functions that reorder a list (LIST_SORT, LIST_REVERSE_SORT, LIST_DISTINCT, LIST_REVERSE and their ARRAY_ names).
 * What they compute is decided in {@code plan.SplitSortCalls}; none is folded by Calcite.
 */
final class SplitSortFunctions {
    private SplitSortFunctions() {
    }

    private static SqlReturnTypeInference nullable(SqlTypeName t) {
        return ReturnTypes.explicit(t).andThen(SqlTypeTransforms.TO_NULLABLE);
    }

    /** A VARCHAR[] (NULL where an argument is). */
    private static RelDataType textList(SqlOperatorBinding b) {
        var f = b.getTypeFactory();
        RelDataType list = f.createArrayType(f.createTypeWithNullability(f.createSqlType(SqlTypeName.VARCHAR), true), -1);
        return f.createTypeWithNullability(list, true);
    }

    /** HEX's and BIN's argument: an integer, text or a BLOB (DuckDB has no HEX of a DECIMAL or DOUBLE). */
    private static final SqlOperandTypeChecker BITS_OF = new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(org.apache.calcite.sql.SqlCallBinding b, boolean throwOnFailure) {
            RelDataType t = b.getOperandType(0);
            // checked as written, so that no implicit cast makes text of a DECIMAL, DOUBLE or BOOLEAN
            boolean ok = org.apache.calcite.sql.type.SqlTypeUtil.isIntType(t)
                    || org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(t)
                    || org.apache.calcite.sql.type.SqlTypeUtil.isBinary(t) || t.getSqlTypeName() == SqlTypeName.NULL;
            if (!ok && throwOnFailure) {
                throw b.newValidationSignatureError();
            }
            return ok;
        }

        @Override
        public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
            return org.apache.calcite.sql.type.SqlOperandCountRanges.of(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(<INTEGER>)\n" + opName + "(<STRING>)\n" + opName + "(<BINARY>)";
        }
    };

    /** TO_BASE64's: a VARCHAR, of a BLOB or a string constant (DuckDB reads no VARCHAR column as a BLOB there). */
    private static RelDataType base64Type(SqlOperatorBinding b) {
        if (org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(b.getOperandType(0)) && !b.isOperandLiteral(0, true)) {
            throw new SqlError("unsupported: " + b.getOperator().getName().toLowerCase(java.util.Locale.ROOT)
                    + " of a VARCHAR that is not a constant (of a BLOB: CAST it, as in DuckDB)");
        }
        return nullable(SqlTypeName.VARCHAR).inferReturnType(b);
    }

    private static SqlFunction fn(String name, SqlReturnTypeInference type, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type, null, operands, SqlFunctionCategory.STRING);
    }

    private static final SqlOperandTypeChecker STRING_STRING_OPT_INT = OperandTypes.family(
            java.util.List.of(SqlTypeFamily.STRING, SqlTypeFamily.STRING, SqlTypeFamily.INTEGER), i -> i == 2);

    /** A list, then the constant sort order ('ASC', 'DESC') and NULL order ('NULLS FIRST', 'NULLS LAST'). */
    private static final SqlOperandTypeChecker LIST_OPT_ORDER_OPT_NULLS = OperandTypes.family(
            java.util.List.of(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), i -> i > 0);
    private static final SqlOperandTypeChecker LIST_OPT_NULLS = OperandTypes.family(
            java.util.List.of(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER), i -> i > 0);

    /** Functions by upper-case name. */
    private static final Map<String, SqlOperator> FUNCTIONS = Map.ofEntries(
            Map.entry("STRING_SPLIT", fn("STRING_SPLIT", SplitSortFunctions::textList, OperandTypes.STRING_STRING)),
            Map.entry("STR_SPLIT", fn("STR_SPLIT", SplitSortFunctions::textList, OperandTypes.STRING_STRING)),
            Map.entry("STRING_TO_ARRAY", fn("STRING_TO_ARRAY", SplitSortFunctions::textList, OperandTypes.STRING_STRING)),
            Map.entry("SPLIT_PART", fn("SPLIT_PART", nullable(SqlTypeName.VARCHAR), OperandTypes.family(
                    SqlTypeFamily.STRING, SqlTypeFamily.STRING, SqlTypeFamily.INTEGER))),
            Map.entry("STARTS_WITH", fn("STARTS_WITH", nullable(SqlTypeName.BOOLEAN), OperandTypes.STRING_STRING)),
            // GLOB and ~~~ (PatternOperators)
            Map.entry(PatternOperators.GLOB_FUNCTION, fn(PatternOperators.GLOB_FUNCTION, nullable(SqlTypeName.BOOLEAN),
                    OperandTypes.STRING_STRING)),
            Map.entry("ENDS_WITH", fn("ENDS_WITH", nullable(SqlTypeName.BOOLEAN), OperandTypes.STRING_STRING)),
            Map.entry("CONTAINS", fn("CONTAINS", nullable(SqlTypeName.BOOLEAN), OperandTypes.or(
                    OperandTypes.STRING_STRING, OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.ANY)))),
            Map.entry("REVERSE", fn("REVERSE", nullable(SqlTypeName.VARCHAR), OperandTypes.STRING)),
            Map.entry("ASCII", fn("ASCII", nullable(SqlTypeName.INTEGER), OperandTypes.STRING)),
            Map.entry("CHR", fn("CHR", nullable(SqlTypeName.VARCHAR), OperandTypes.INTEGER)),
            Map.entry("MD5", fn("MD5", nullable(SqlTypeName.VARCHAR), OperandTypes.STRING)),
            Map.entry("REGEXP_EXTRACT", fn("REGEXP_EXTRACT", nullable(SqlTypeName.VARCHAR), STRING_STRING_OPT_INT)),
            Map.entry("REGEXP_EXTRACT_ALL", fn("REGEXP_EXTRACT_ALL", SplitSortFunctions::textList,
                    STRING_STRING_OPT_INT)),
            Map.entry("STRING_SPLIT_REGEX", fn("STRING_SPLIT_REGEX", SplitSortFunctions::textList,
                    OperandTypes.STRING_STRING)),
            Map.entry("STR_SPLIT_REGEX", fn("STR_SPLIT_REGEX", SplitSortFunctions::textList,
                    OperandTypes.STRING_STRING)),
            Map.entry("REGEXP_SPLIT_TO_ARRAY", fn("REGEXP_SPLIT_TO_ARRAY", SplitSortFunctions::textList,
                    OperandTypes.STRING_STRING)),
            // the first character's code point, -1 of ''
            Map.entry("UNICODE", fn("UNICODE", nullable(SqlTypeName.INTEGER), OperandTypes.STRING)),
            Map.entry("ORD", fn("ORD", nullable(SqlTypeName.INTEGER), OperandTypes.STRING)),
            Map.entry("REGEXP_ESCAPE", fn("REGEXP_ESCAPE", nullable(SqlTypeName.VARCHAR), OperandTypes.STRING)),
            Map.entry("STRIP_ACCENTS", fn("STRIP_ACCENTS", nullable(SqlTypeName.VARCHAR), OperandTypes.STRING)),
            Map.entry("URL_ENCODE", fn("URL_ENCODE", nullable(SqlTypeName.VARCHAR), OperandTypes.STRING)),
            Map.entry("URL_DECODE", fn("URL_DECODE", nullable(SqlTypeName.VARCHAR), OperandTypes.STRING)),
            // of a BLOB, or of text read as a BLOB (its \xAB escapes), as DuckDB casts it
            Map.entry("TO_BASE64", fn("TO_BASE64", SplitSortFunctions::base64Type,
                    OperandTypes.or(OperandTypes.BINARY, OperandTypes.CHARACTER))),
            Map.entry("BASE64", fn("BASE64", SplitSortFunctions::base64Type,
                    OperandTypes.or(OperandTypes.BINARY, OperandTypes.CHARACTER))),
            Map.entry("FROM_BASE64", fn("FROM_BASE64", nullable(SqlTypeName.VARBINARY), OperandTypes.CHARACTER)),
            // of an integer its 64-bit two's complement, of text its UTF-8 bytes, of a BLOB its bytes
            Map.entry("HEX", fn("HEX", nullable(SqlTypeName.VARCHAR), BITS_OF)),
            Map.entry("TO_HEX", fn("TO_HEX", nullable(SqlTypeName.VARCHAR), BITS_OF)),
            Map.entry("BIN", fn("BIN", nullable(SqlTypeName.VARCHAR), BITS_OF)),
            Map.entry("TO_BINARY", fn("TO_BINARY", nullable(SqlTypeName.VARCHAR), BITS_OF)),
            Map.entry("UNHEX", fn("UNHEX", nullable(SqlTypeName.VARBINARY), OperandTypes.CHARACTER)),
            Map.entry("FROM_HEX", fn("FROM_HEX", nullable(SqlTypeName.VARBINARY), OperandTypes.CHARACTER)),
            Map.entry("UNBIN", fn("UNBIN", nullable(SqlTypeName.VARBINARY), OperandTypes.CHARACTER)),
            Map.entry("FROM_BINARY", fn("FROM_BINARY", nullable(SqlTypeName.VARBINARY), OperandTypes.CHARACTER)),
            Map.entry("LIST_SORT", fn("LIST_SORT", ReturnTypes.ARG0_NULLABLE, LIST_OPT_ORDER_OPT_NULLS)),
            Map.entry("ARRAY_SORT", fn("ARRAY_SORT", ReturnTypes.ARG0_NULLABLE, LIST_OPT_ORDER_OPT_NULLS)),
            Map.entry("LIST_REVERSE_SORT", fn("LIST_REVERSE_SORT", ReturnTypes.ARG0_NULLABLE, LIST_OPT_NULLS)),
            Map.entry("ARRAY_REVERSE_SORT", fn("ARRAY_REVERSE_SORT", ReturnTypes.ARG0_NULLABLE, LIST_OPT_NULLS)),
            Map.entry("LIST_DISTINCT", fn("LIST_DISTINCT", ReturnTypes.ARG0, OperandTypes.ARRAY)),
            Map.entry("ARRAY_DISTINCT", fn("ARRAY_DISTINCT", ReturnTypes.ARG0, OperandTypes.ARRAY)),
            Map.entry("LIST_REVERSE", fn("LIST_REVERSE", ReturnTypes.ARG0, OperandTypes.ARRAY)),
            Map.entry("ARRAY_REVERSE", fn("ARRAY_REVERSE", ReturnTypes.ARG0, OperandTypes.ARRAY)));

    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static java.util.Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }

    /** Whether this upper-case name is one of these functions (for {@link SupportCheck}, and never folded). */
    static boolean has(String name) {
        return FUNCTIONS.containsKey(name);
    }
}
