package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * A result column's name where it holds a lambda, as DuckDB names it ({@link ColumnNames} writes the rest):
 * {@code (x -> (x + 1))}, with several parameters {@code ("row"(a, b) -> (a + b))}, the keyword form as written
 * {@code (lambda x, i: (x + i))}; a list comprehension with a condition as the calls DuckDB makes of it,
 * {@code list_apply(list_filter(list_apply(l, (lambda x: struct_pack("filter" := (x > 1), result := x))), (lambda
 * elem: struct_extract(elem, 'filter'))), (lambda elem: struct_extract(elem, 'result')))}.
 */
final class LambdaNames {

    private LambdaNames() {
    }

    /** Writes {@code call} where it is a lambda or a list comprehension; false (nothing written) where it is neither. */
    static boolean writes(SqlCall call, StringBuilder sb, BiConsumer<SqlNode, StringBuilder> write) {
        if (call.getKind() == SqlKind.LAMBDA) {
            lambda(call, sb, write);
            return true;
        }
        if (call.getOperator() == LambdaFunctions.COMPREHENSION) {
            List<SqlNode> ops = call.getOperandList();
            SqlCall result = (SqlCall) ops.get(1);
            SqlCall condition = (SqlCall) ops.get(2);
            sb.append("list_apply(list_filter(list_apply(");
            write.accept(ops.get(0), sb);
            sb.append(", (lambda ");
            parameters(result, sb, write);
            sb.append(": struct_pack(\"filter\" := ");
            write.accept(condition.getOperandList().get(1), sb);
            sb.append(", result := ");
            write.accept(result.getOperandList().get(1), sb);
            sb.append("))), (lambda elem: struct_extract(elem, 'filter'))), (lambda elem: struct_extract(elem, "
                    + "'result')))");
            return true;
        }
        return false;
    }

    private static void lambda(SqlCall lambda, StringBuilder sb, BiConsumer<SqlNode, StringBuilder> write) {
        SqlNodeList parameters = (SqlNodeList) lambda.getOperandList().get(0);
        if (lambda instanceof KeywordLambda) {
            sb.append("(lambda ");
            parameters(lambda, sb, write);
            sb.append(": ");
        } else if (parameters.size() == 1) {
            sb.append('(');
            write.accept(parameters.get(0), sb);
            sb.append(" -> ");
        } else {
            sb.append("(\"row\"(");
            parameters(lambda, sb, write);
            sb.append(") -> ");
        }
        write.accept(lambda.getOperandList().get(1), sb);
        sb.append(')');
    }

    private static void parameters(SqlCall lambda, StringBuilder sb, BiConsumer<SqlNode, StringBuilder> write) {
        SqlNodeList parameters = (SqlNodeList) lambda.getOperandList().get(0);
        for (int i = 0; i < parameters.size(); i++) {
            sb.append(i > 0 ? ", " : "");
            write.accept(parameters.get(i), sb);
        }
    }
}
