package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed tree copied node by node, so that a second query made of the same parts (the values query of a PIVOT
 * statement) can be rewritten and validated without changing the first: the rewrites before validation change nodes
 * in place, and the validator keeps state per node. A call whose operator cannot make a copy of it stays shared.
 */
final class SqlCopies {
    private SqlCopies() {
    }

    static SqlNode deep(SqlNode node) {
        return node == null ? null : node.accept(new Copier());
    }

    private static final class Copier extends SqlShuttle {
        @Override
        public SqlNode visit(SqlCall call) {
            try {
                CallCopyingArgHandler copies = new CallCopyingArgHandler(call, true);
                call.getOperator().acceptCall(this, call, false, copies);
                return copies.result();
            } catch (RuntimeException cannotCopy) {
                return call;
            }
        }

        @Override
        public SqlNode visit(SqlNodeList list) {
            List<SqlNode> copies = new ArrayList<>(list.size());
            for (SqlNode item : list) {
                copies.add(item == null ? null : item.accept(this));
            }
            return new SqlNodeList(copies, list.getParserPosition());
        }

        @Override
        public SqlNode visit(SqlIdentifier id) {
            return id.clone(id.getParserPosition());
        }
    }
}
