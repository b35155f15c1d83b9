package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A query of a WITH named in FROM in another case than the WITH gives it ({@code WITH Cte AS (...) SELECT * FROM
 * cte}): Calcite finds a WITH's query only by its exact name, where every other name is matched ignoring case, as
 * DuckDB matches names. So before validation each name in a FROM that is a WITH's query in scope, ignoring case, is
 * spelled as the WITH spells it (the innermost WITH first); the statement's text is not touched.
 */
final class WithNames {

    private WithNames() {
    }

    /** Respells, in place, the names in {@code statement}'s FROM clauses that are its WITH queries' names. */
    static void match(SqlNode statement) {
        statement.accept(new Scopes());
    }

    private static final class Scopes extends SqlBasicVisitor<Void> {

        /** The WITH names in scope, innermost first: by lower-case name, the name as the WITH writes it. */
        private final Deque<Map<String, String>> scopes = new ArrayDeque<>();

        @Override
        public Void visit(SqlCall call) {
            if (call instanceof SqlWith with) {
                Map<String, String> names = new HashMap<>();
                for (SqlNode item : with.withList) {
                    String name = ((SqlWithItem) item).name.getSimple();
                    names.put(name.toLowerCase(Locale.ROOT), name);
                }
                scopes.push(names);
                try {
                    return super.visit(call);
                } finally {
                    scopes.pop();
                }
            }
            if (call instanceof SqlSelect select && select.getFrom() != null && !scopes.isEmpty()) {
                respell(select.getFrom());
            }
            return super.visit(call);
        }

        private void respell(SqlNode from) {
            if (from instanceof SqlIdentifier id && id.isSimple()) {
                for (Map<String, String> names : scopes) {
                    String spelled = names.get(id.getSimple().toLowerCase(Locale.ROOT));
                    if (spelled != null) {
                        if (!spelled.equals(id.getSimple())) {
                            id.setNames(List.of(spelled), null);
                        }
                        return;
                    }
                }
            } else if (from instanceof SqlJoin join) {
                respell(join.getLeft());
                respell(join.getRight());
            } else if (from instanceof SqlCall call && call.getKind() == SqlKind.AS) {
                respell(call.operand(0));
            }
        }
    }
}
