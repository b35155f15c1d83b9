package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * The empty list literal {@code []}, which Calcite's ARRAY constructor refuses (it needs an element to type the
 * array), as {@code list_value()}: an empty INTEGER[] (DuckDB's is a list of its NULL type), which a cast or a
 * comparison with another list makes a list of that list's element type.
 */
final class EmptyLists {
    private EmptyLists() {
    }

    static SqlNode rewrite(SqlNode node) {
        SqlNode r = node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR && call.operandCount() == 0) {
                    return ListOperators.lookup("LIST_VALUE").createCall(call.getParserPosition());
                }
                return super.visit(call);
            }
        });
        return r == null ? node : r;
    }
}
