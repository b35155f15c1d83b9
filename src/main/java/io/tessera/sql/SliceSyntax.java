package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's slice {@code x[begin:end[:step]]}: the parser reads the brackets' content as a {@link #BOUNDS} call (an
 * omitted bound an {@link Omitted} symbol, which {@link ColumnNames} writes as nothing), and {@link #rewrite} makes
 * {@code x[bounds]} the call {@code array_slice(x, begin, end[, step])}, an omitted begin 1 and an omitted end -1
 * (the last). With a negative step they swap, as in DuckDB: {@code x[::-1]} runs from the last element to the first;
 * where the step's sign is not written, a CASE on it picks the bound.
 */
public final class SliceSyntax {
    private SliceSyntax() {
    }

    /** A bound left out of a slice. */
    enum Omitted { BOUND }

    static final String NAME = "TESSERA_SLICE_BOUNDS";

    /** The brackets' begin, end and step; never validated ({@link #rewrite} replaces it). */
    static final SqlFunction BOUNDS = new SqlFunction(NAME, SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, null,
            OperandTypes.VARIADIC, SqlFunctionCategory.SYSTEM);

    /** The parser's slice: begin and end null where left out, step null where there is none. */
    public static SqlNode bounds(SqlParserPos pos, SqlNode begin, SqlNode end, SqlNode step) {
        List<SqlNode> ops = new ArrayList<>();
        ops.add(begin != null ? begin : SqlLiteral.createSymbol(Omitted.BOUND, pos));
        ops.add(end != null ? end : SqlLiteral.createSymbol(Omitted.BOUND, pos));
        if (step != null) {
            ops.add(step);
        }
        return BOUNDS.createCall(pos, ops);
    }

    static boolean isBounds(SqlNode n) {
        return n instanceof SqlCall c && c.getOperator().getName().equals(NAME);
    }

    static boolean isOmitted(SqlNode n) {
        return n instanceof SqlLiteral l && l.getValue() instanceof Omitted;
    }

    /**
     * A left-out begin ({@code first}) or end: 1 and -1 (the last), swapped where {@code step} is negative; a CASE
     * on the step where its sign is not a written constant.
     */
    private static SqlNode omitted(boolean first, SqlNode step, SqlParserPos pos) {
        SqlNode forward = SqlLiteral.createExactNumeric(first ? "1" : "-1", pos);
        SqlNode backward = SqlLiteral.createExactNumeric(first ? "-1" : "1", pos);
        if (step == null) {
            return forward;
        }
        if (step instanceof SqlNumericLiteral n && n.bigDecimalValue() != null) {
            return n.bigDecimalValue().signum() < 0 ? backward : forward;
        }
        if (step.getKind() == SqlKind.MINUS_PREFIX && ((SqlCall) step).operand(0) instanceof SqlNumericLiteral n
                && n.bigDecimalValue() != null) {
            return n.bigDecimalValue().signum() > 0 ? backward : forward;
        }
        SqlNode negative = SqlStdOperatorTable.LESS_THAN.createCall(pos, step.clone(pos),
                SqlLiteral.createExactNumeric("0", pos));
        return new SqlCase(pos, null, new SqlNodeList(List.of(negative), pos), new SqlNodeList(List.of(backward), pos),
                forward);
    }

    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && c.getKind() == SqlKind.ITEM && isBounds(c.operand(1))) {
                    SqlCall bounds = c.operand(1);
                    List<SqlNode> ops = new ArrayList<>();
                    ops.add(c.operand(0));
                    SqlNode step = bounds.operandCount() > 2 ? bounds.operand(2) : null;
                    for (int i = 0; i < bounds.operandCount(); i++) {
                        SqlNode b = bounds.operand(i);
                        ops.add(isOmitted(b) ? omitted(i == 0, step, b.getParserPosition()) : b);
                    }
                    return SliceFunctions.lookup("ARRAY_SLICE").createCall(c.getParserPosition(), ops);
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }
}
