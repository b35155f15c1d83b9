package io.tessera.sql;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * {@code a ** b} and {@code a ^ b}, DuckDB's power operator: {@code pow(a, b)}, a DOUBLE, typed and converted as
 * POWER is. Its precedence lies between {@code *} (60) and a sign (80), left associative, as DuckDB binds it:
 * {@code 2 * 3 ** 2} is 18, {@code -2 ** 2} is 4, {@code 2 ** 3 ** 2} is 64. Two operators of one meaning, so that
 * the column is named as written ({@code (2 ** 3)}, {@code (2 ^ 3)}).
 */
public final class PowerOperator {

    private PowerOperator() {
    }

    /** Between MULTIPLY's 60 and the prefix minus's 80. */
    private static final int PRECEDENCE = 70;

    /** The operator the parser makes of {@code **}. */
    public static final SqlBinaryOperator STARS = of("**");

    /** The operator the parser makes of {@code ^}. */
    public static final SqlBinaryOperator CARET = of("^");

    private static SqlBinaryOperator of(String name) {
        return new SqlBinaryOperator(name, SqlKind.OTHER, PRECEDENCE, true,
                SqlStdOperatorTable.POWER.getReturnTypeInference(), InferTypes.FIRST_KNOWN,
                SqlStdOperatorTable.POWER.getOperandTypeChecker());
    }

    /** The operator of that name, or null. */
    static SqlBinaryOperator named(String name) {
        return switch (name) {
            case "**" -> STARS;
            case "^" -> CARET;
            default -> null;
        };
    }

    /** Whether {@code call} is a power written with an operator. */
    static boolean applies(SqlCall call) {
        return call.getOperator() == STARS || call.getOperator() == CARET;
    }

    /** Converts {@code a ** b} as {@code power(a, b)} (after validation, which typed the operands as POWER's). */
    static final SqlRexConvertlet CONVERTLET = (cx, call) -> {
        SqlCall power = SqlStdOperatorTable.POWER.createCall(call.getParserPosition(), call.getOperandList());
        return StandardConvertletTable.INSTANCE.convertCall(cx, power);
    };
}
