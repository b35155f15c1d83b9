package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
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
 * (the last). With a step an omitted bound is refused: a negative step would start from the other end.
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
        if (step != null && (begin == null || end == null)) {
            throw new SqlError("unsupported: a slice with a step and an omitted bound" + SupportCheck.at(pos)
                    + " (write both bounds)");
        }
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

    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && c.getKind() == SqlKind.ITEM && isBounds(c.operand(1))) {
                    SqlCall bounds = c.operand(1);
                    List<SqlNode> ops = new ArrayList<>();
                    ops.add(c.operand(0));
                    for (int i = 0; i < bounds.operandCount(); i++) {
                        SqlNode b = bounds.operand(i);
                        ops.add(isOmitted(b) ? SqlLiteral.createExactNumeric(i == 0 ? "1" : "-1", b.getParserPosition()) : b);
                    }
                    return SliceFunctions.lookup("ARRAY_SLICE").createCall(c.getParserPosition(), ops);
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }
}
