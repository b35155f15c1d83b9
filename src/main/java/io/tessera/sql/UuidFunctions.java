package io.tessera.sql;

import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.Collection;
import java.util.Map;

/**
 * DuckDB's functions of UUIDs: UUID_EXTRACT_VERSION (an INTEGER where DuckDB's is a UINTEGER, a type Tessera lacks),
 * UUID_EXTRACT_TIMESTAMP (a version 7 UUID's milliseconds as a TIMESTAMP WITH TIME ZONE) of a UUID or a string
 * literal, and
 * UUIDV7() (a new time-ordered UUID on every call). Lowered by {@code plan.UuidCalls}.
 */
final class UuidFunctions {

    private UuidFunctions() {
    }

    /** One UUID, or a string literal read as one (as DuckDB casts it). */
    private static final SqlOperandTypeChecker UUID_OR_TEXT = new SqlOperandTypeChecker() {
        @Override
        public boolean checkOperandTypes(SqlCallBinding b, boolean throwOnFailure) {
            var t = b.getOperandType(0);
            // text only as a literal, as DuckDB casts a string literal but no VARCHAR value to a UUID
            boolean ok = t.getSqlTypeName() == SqlTypeName.UUID || t.getSqlTypeName() == SqlTypeName.NULL
                    || SqlTypeUtil.isCharacter(t) && b.operand(0) instanceof org.apache.calcite.sql.SqlLiteral;
            if (!ok && throwOnFailure) {
                throw b.newValidationSignatureError();
            }
            return ok;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return opName + "(UUID)";
        }
    };

    private static SqlFunction fn(String name, SqlTypeName type) {
        return new SqlFunction(name, SqlKind.OTHER_FUNCTION,
                ReturnTypes.explicit(type).andThen(SqlTypeTransforms.TO_NULLABLE), null, UUID_OR_TEXT,
                SqlFunctionCategory.STRING);
    }

    /** A new UUID on every call: never folded, never taken for a constant. */
    private static final SqlFunction UUIDV7 = new SqlFunction("UUIDV7", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.UUID), null, OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    private static final Map<String, SqlOperator> FUNCTIONS = Map.of(
            "UUID_EXTRACT_VERSION", fn("UUID_EXTRACT_VERSION", SqlTypeName.INTEGER),
            "UUID_EXTRACT_TIMESTAMP", fn("UUID_EXTRACT_TIMESTAMP", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
            "UUIDV7", UUIDV7);

    /** The function of this upper-case name, or null. */
    static SqlOperator lookup(String name) {
        return FUNCTIONS.get(name);
    }

    static Collection<SqlOperator> all() {
        return FUNCTIONS.values();
    }
}
