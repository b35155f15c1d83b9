package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * DuckDB's JSON functions over JSON held as VARCHAR text (there is no JSON type: what DuckDB types JSON is a VARCHAR
 * here): JSON_VALID, JSON_TYPE, JSON_EXTRACT (JSON_EXTRACT_PATH), JSON_EXTRACT_STRING (JSON_EXTRACT_PATH_TEXT),
 * JSON_ARRAY_LENGTH (a BIGINT where DuckDB's is a UBIGINT) and JSON_KEYS (a VARCHAR[]). The path is text (a key,
 * DuckDB's JSONPath subset or a JSON pointer) or an integer index; a path that leads nowhere gives NULL, so the
 * functions of a path are nullable. Lowered by {@code plan.JsonCalls}, run by {@code backend.jvm.lib.JsonRuntime}.
 */
final class JsonFunctions {

    private JsonFunctions() {
    }

    /** (json, path): the path text or an integer index. */
    private static final SqlOperandTypeChecker PATH = OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.STRING),
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.INTEGER));

    /** (json) or (json, path). */
    private static final SqlOperandTypeChecker OPTIONAL_PATH = OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.STRING), PATH);

    /**
     * The type {@code of} makes, nullable where the JSON text is or where there is a path (which may lead
     * nowhere).
     */
    private static SqlReturnTypeInference type(Function<RelDataTypeFactory, RelDataType> of) {
        return b -> b.getTypeFactory().createTypeWithNullability(of.apply(b.getTypeFactory()),
                b.getOperandCount() > 1 || b.getOperandType(0).isNullable());
    }

    private static RelDataType varchar(RelDataTypeFactory f) {
        return f.createSqlType(SqlTypeName.VARCHAR);
    }

    private static SqlFunction fn(String name, Function<RelDataTypeFactory, RelDataType> type,
            SqlOperandTypeChecker operands) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION, type(type), null, operands, SqlFunctionCategory.STRING);
    }

    private static final Map<String, SqlOperator> FUNCTIONS = new LinkedHashMap<>();

    static {
        for (SqlFunction f : new SqlFunction[] {
                fn("JSON_VALID", t -> t.createSqlType(SqlTypeName.BOOLEAN), OperandTypes.family(SqlTypeFamily.STRING)),
                fn("JSON_TYPE", JsonFunctions::varchar, OPTIONAL_PATH),
                fn("JSON_EXTRACT", JsonFunctions::varchar, PATH),
                fn("JSON_EXTRACT_PATH", JsonFunctions::varchar, PATH),
                fn("JSON_EXTRACT_STRING", JsonFunctions::varchar, PATH),
                fn("JSON_EXTRACT_PATH_TEXT", JsonFunctions::varchar, PATH),
                fn("JSON_ARRAY_LENGTH", t -> t.createSqlType(SqlTypeName.BIGINT), OPTIONAL_PATH),
                fn("JSON_KEYS", t -> t.createArrayType(t.createTypeWithNullability(varchar(t), true), -1),
                        OPTIONAL_PATH)}) {
            FUNCTIONS.put(f.getName(), f);
        }
    }

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}
