package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * {@code x::type} as the parser reads it (Calcite's infix cast operator, for its precedence among the operators)
 * turned into the standard {@code CAST(x AS type)} that the validator, the checked casts and the planner know.
 */
final class InfixCasts {

    private InfixCasts() {
    }

    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && c.getOperator() == SqlLibraryOperators.INFIX_CAST) {
                    return SqlStdOperatorTable.CAST.createCall(c.getParserPosition(), c.getOperandList());
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }
}
