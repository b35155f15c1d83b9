package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.Locale;

/**
 * The window functions the engine runs, and a rewrite of LAG's and LEAD's default so that Calcite types their result as it is.
 */
final class WindowSupport {

    /** The window functions the engine runs (the aggregates it runs are allowed as aggregates). */
    static final java.util.Set<String> FUNCTIONS = java.util.Set.of("ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK",
            "CUME_DIST", "NTILE", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE");

    private WindowSupport() {
    }

    /**
     * LAG(x, n, d) and LEAD(x, n, d) with d as {@code CASE WHEN d IS NULL THEN NULL ELSE d END}: the same value, typed
     * nullable. Calcite types the result NOT NULL when d is NOT NULL, though the row reached may hold a NULL x, and
     * would then fold {@code LAG(x, 1, 0) OVER (...) IS NULL} to FALSE.
     */
    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && c.operandCount() == 3 && c.operand(2) != null) {
                    String name = c.getOperator().getName().toUpperCase(Locale.ROOT);
                    if (name.equals("LAG") || name.equals("LEAD")) {
                        SqlNode d = c.operand(2);
                        SqlParserPos pos = d.getParserPosition();
                        SqlNode isNull = SqlStdOperatorTable.IS_NULL.createCall(pos, d);
                        c.setOperand(2, new SqlCase(pos, null, SqlNodeList.of(isNull),
                                SqlNodeList.of(SqlLiteral.createNull(pos)), d));
                    }
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }
}
