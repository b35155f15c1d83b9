package io.tessera.sql;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * {@code x::type} as the parser reads it (Calcite's infix cast operator, for its precedence among the operators)
 * turned into the standard {@code CAST(x AS type)} that the validator, the checked casts and the planner know.
 */
final class InfixCasts {

    private InfixCasts() {
    }

    static SqlNode rewrite(SqlNode parsed) {
        return OperatorSwaps.replace(parsed, c -> c.getOperator() == SqlLibraryOperators.INFIX_CAST,
                SqlStdOperatorTable.CAST);
    }
}
