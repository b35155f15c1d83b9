package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Collection;
import java.util.Map;

/**
 * DuckDB's functions of a file path: PARSE_PATH (its parts, a VARCHAR[]), PARSE_DIRNAME (the top directory),
 * PARSE_DIRPATH (everything before the last separator) and PARSE_FILENAME (the last part, without its extension
 * where asked), each with an optional separator option ('both_slash', the default, 'forward_slash', 'backslash',
 * 'system'). NULL only where the path is: a NULL option is the default, as in DuckDB. Lowered by
 * {@code plan.PathCalls}.
 */
final class PathFunctions {

    private PathFunctions() {
    }

    /** A VARCHAR, or a VARCHAR[] for PARSE_PATH; nullable where the path is. */
    private static SqlReturnTypeInference type(boolean list) {
        return b -> {
            var f = b.getTypeFactory();
            RelDataType t = f.createSqlType(SqlTypeName.VARCHAR);
            if (list) {
                t = f.createArrayType(f.createTypeWithNullability(t, true), -1);
            }
            return f.createTypeWithNullability(t, pathNullable(b));
        };
    }

    private static boolean pathNullable(SqlOperatorBinding b) {
        return b.getOperandType(0).isNullable();
    }

    private static final SqlOperandTypeChecker PATH_OPT_SEPARATOR = OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.STRING), OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.STRING));

    /** PARSE_FILENAME's: (path), (path, trim_extension), (path, separator), (path, trim_extension, separator). */
    private static final SqlOperandTypeChecker FILENAME = OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.STRING),
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.BOOLEAN),
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.STRING),
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.BOOLEAN, SqlTypeFamily.STRING));

    private static SqlFunction fn(String name, boolean list, SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type(list), null, operands, SqlFunctionCategory.STRING);
    }

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of(
            "PARSE_PATH", fn("PARSE_PATH", true, PATH_OPT_SEPARATOR),
            "PARSE_DIRNAME", fn("PARSE_DIRNAME", false, PATH_OPT_SEPARATOR),
            "PARSE_DIRPATH", fn("PARSE_DIRPATH", false, PATH_OPT_SEPARATOR),
            "PARSE_FILENAME", fn("PARSE_FILENAME", false, FILENAME));

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}
