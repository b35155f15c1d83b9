package io.tessera.sql;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * {@code a // b}, DuckDB's integer division, of the precedence of {@code *} and {@code /}: truncated toward zero,
 * typed as the wider of the two integers, an error on dividing by zero or past the type's range; validated as an
 * operator of its own so that only integers are taken (DuckDB divides DECIMAL and DOUBLE values with {@code //} as
 * {@code /} divides them into a DOUBLE; here those are refused by name) and the column is named {@code (a // b)};
 * converted to Calcite's integer division. {@code /} of two integers is a DOUBLE, as in DuckDB
 * ({@link TesseraTypeSystem#deriveDecimalDivideType}).
 */
public final class IntegerDivision {

    private IntegerDivision() {
    }

    /** The operator the parser makes of {@code //}. */
    public static final SqlBinaryOperator OPERATOR = new SqlBinaryOperator("//", SqlKind.OTHER, 60, true,
            SqlStdOperatorTable.DIVIDE_INTEGER.getReturnTypeInference(), InferTypes.FIRST_KNOWN,
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER));

    /** Whether {@code call} is an integer division. */
    static boolean applies(SqlCall call) {
        return call.getOperator() == OPERATOR;
    }

    /**
     * Converts {@code a // b} as Calcite's integer division (after validation, which checked that both are integers):
     * a division of its kind typed as the integers, which the planner computes as such.
     */
    static final SqlRexConvertlet CONVERTLET = (cx, call) -> {
        SqlCall divide = SqlStdOperatorTable.DIVIDE_INTEGER.createCall(call.getParserPosition(),
                call.getOperandList());
        return StandardConvertletTable.INSTANCE.convertCall(cx, divide);
    };
}
