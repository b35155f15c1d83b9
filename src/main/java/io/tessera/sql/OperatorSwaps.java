package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.function.Predicate;

/**
 * A parsed statement with the calls that {@code which} picks made calls of another operator with the same operands,
 * each after its operands: how Calcite's operators are traded for Tessera's before validation ({@code ::} for CAST,
 * ITEM into a MAP, {@code %}, CASTs to text or STRUCT types).
 */
final class OperatorSwaps {
    private OperatorSwaps() {
    }

    static SqlNode replace(SqlNode parsed, Predicate<SqlCall> which, SqlOperator to) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && which.test(c)) {
                    return to.createCall(c.getParserPosition(), c.getOperandList());
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }
}
