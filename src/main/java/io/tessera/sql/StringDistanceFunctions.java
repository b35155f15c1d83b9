package io.tessera.sql;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;

import java.util.Collection;
import java.util.Map;

/**
 * DuckDB's string comparisons, digests and TRANSLATE, typed as DuckDB types them: LEVENSHTEIN (EDITDIST3),
 * DAMERAU_LEVENSHTEIN and HAMMING BIGINT counts of edits of the UTF-8 bytes, JARO_SIMILARITY and
 * JARO_WINKLER_SIMILARITY and JACCARD DOUBLEs, BIT_LENGTH a BIGINT, SHA1, SHA256 and TRANSLATE VARCHARs. Lowered by
 * {@code plan.StringDistanceCalls}.
 */
final class StringDistanceFunctions {

    private StringDistanceFunctions() {
    }

    private static SqlFunction fn(String name, SqlTypeName type, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(type).andThen(SqlTypeTransforms.TO_NULLABLE), null, operands,
                SqlFunctionCategory.STRING);
    }

    private static final Map<String, SqlOperator> FUNCTIONS = Map.ofEntries(
            Map.entry("LEVENSHTEIN", fn("LEVENSHTEIN", SqlTypeName.BIGINT, OperandTypes.STRING_STRING)),
            Map.entry("EDITDIST3", fn("EDITDIST3", SqlTypeName.BIGINT, OperandTypes.STRING_STRING)),
            Map.entry("DAMERAU_LEVENSHTEIN", fn("DAMERAU_LEVENSHTEIN", SqlTypeName.BIGINT, OperandTypes.STRING_STRING)),
            Map.entry("HAMMING", fn("HAMMING", SqlTypeName.BIGINT, OperandTypes.STRING_STRING)),
            Map.entry("MISMATCHES", fn("MISMATCHES", SqlTypeName.BIGINT, OperandTypes.STRING_STRING)),
            Map.entry("JARO_SIMILARITY", fn("JARO_SIMILARITY", SqlTypeName.DOUBLE, OperandTypes.STRING_STRING)),
            Map.entry("JARO_WINKLER_SIMILARITY", fn("JARO_WINKLER_SIMILARITY", SqlTypeName.DOUBLE,
                    OperandTypes.STRING_STRING)),
            Map.entry("JACCARD", fn("JACCARD", SqlTypeName.DOUBLE, OperandTypes.STRING_STRING)),
            Map.entry("BIT_LENGTH", fn("BIT_LENGTH", SqlTypeName.BIGINT, OperandTypes.STRING)),
            Map.entry("SHA1", fn("SHA1", SqlTypeName.VARCHAR, OperandTypes.STRING)),
            Map.entry("SHA256", fn("SHA256", SqlTypeName.VARCHAR, OperandTypes.STRING)),
            Map.entry("TRANSLATE", fn("TRANSLATE", SqlTypeName.VARCHAR, OperandTypes.STRING_STRING_STRING)));

    /**
     * Whether the engine runs the function of this upper-case name: one of these, or TRANSLATE as the parser reads
     * it (Calcite's TRANSLATE3, typed as its first argument).
     */
    static boolean has(String name) {
        return FUNCTIONS.containsKey(name) || name.equals("TRANSLATE3");
    }

    /** The function of this upper-case name, or null (TRANSLATE3, as the validator looks the parser's call up again). */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name.equals("TRANSLATE3") ? "TRANSLATE" : name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}
