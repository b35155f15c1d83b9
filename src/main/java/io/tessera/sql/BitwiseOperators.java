package io.tessera.sql;

import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlPrefixOperator;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeTransforms;

/**
 * The bitwise operators of integers, as DuckDB and PostgreSQL write them: {@code a & b}, {@code a | b}, {@code a <<
 * b}, {@code a >> b}, of the operands' common integer type, and {@code ~a}, of its operand's. The binary ones share
 * one precedence between + (40) and LIKE (32), left associative ({@code 2 | 4 & 1} is 0, {@code 1 + 2 << 1} is 6,
 * {@code 6 & 3 = 2} is true); {@code ~} binds between them and + ({@code ~5 + 1} is -7). A shift left that overflows its type, or by a negative count, or by the type's width
 * or more (of anything but 0) is an error, as in DuckDB; a shift right by a negative count or by the width or more
 * gives 0. The planner reads them by name as numeric functions ({@code plan.NumericCalls}).
 */
public final class BitwiseOperators {

    private BitwiseOperators() {
    }

    /** Between + (40) and LIKE (32), as the pattern operators. */
    private static final int PRECEDENCE = 36;

    public static final SqlBinaryOperator AND = binary("&");
    public static final SqlBinaryOperator OR = binary("|");
    public static final SqlBinaryOperator SHIFT_LEFT = binary("<<");
    public static final SqlBinaryOperator SHIFT_RIGHT = binary(">>");
    /** Between the binary ones and +: {@code ~5 + 1} is {@code ~(5 + 1)}, {@code ~5 & 3} is {@code (~5) & 3}. */
    public static final SqlPrefixOperator NOT = new SqlPrefixOperator("~", SqlKind.OTHER, 38,
            ReturnTypes.ARG0, InferTypes.RETURN_TYPE, OperandTypes.family(SqlTypeFamily.INTEGER));

    private static SqlBinaryOperator binary(String name) {
        return new SqlBinaryOperator(name, SqlKind.OTHER, PRECEDENCE, true,
                ReturnTypes.LEAST_RESTRICTIVE.andThen(SqlTypeTransforms.TO_NULLABLE), InferTypes.FIRST_KNOWN,
                OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER));
    }

    /** The operator of that name and syntax, or null (the validator looks an operator up again by name). */
    static SqlOperator named(String name, org.apache.calcite.sql.SqlSyntax syntax) {
        if (syntax == org.apache.calcite.sql.SqlSyntax.PREFIX) {
            return name.equals("~") ? NOT : null;
        }
        if (syntax != org.apache.calcite.sql.SqlSyntax.BINARY) {
            return null;
        }
        return switch (name) {
            case "&" -> AND;
            case "|" -> OR;
            case "<<" -> SHIFT_LEFT;
            case ">>" -> SHIFT_RIGHT;
            default -> null;
        };
    }

    /** Whether {@code call} is one of these operators. */
    static boolean applies(SqlCall call) {
        SqlOperator op = call.getOperator();
        return op == AND || op == OR || op == SHIFT_LEFT || op == SHIFT_RIGHT || op == NOT;
    }
}
