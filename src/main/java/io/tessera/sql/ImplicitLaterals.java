package io.tessera.sql;

import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB's implicit LATERAL: a subquery in FROM that names a table of the FROM items before it
 * ({@code FROM t, (SELECT t.a + 1 AS b)}) reads that table's current row, as if written {@code LATERAL (...)}.
 * Calcite's validator resolves such a name only in a LATERAL subquery, so a subquery that reads one is marked so,
 * before validation. Only qualified names count ({@code t.a}), and only where the subquery does not name a table
 * {@code t} of its own (then {@code t.a} is its own table's); an unqualified name stays the subquery's, as the
 * validator finds it. A subquery on the right of a RIGHT or FULL join is left as written: no LATERAL is allowed there.
 */
final class ImplicitLaterals {

    private ImplicitLaterals() {
    }

    static SqlNode rewrite(SqlNode node) {
        return node == null ? null : node.accept(new Rewriter());
    }

    private static final class Rewriter extends SqlShuttle {
        @Override
        public SqlNode visit(SqlCall call) {
            if (call instanceof SqlSelect select && select.getFrom() != null) {
                select.setFrom(from(select.getFrom(), new HashSet<>()));
            }
            return super.visit(call);
        }
    }

    /**
     * The FROM item {@code item} with the subqueries that read a table named in {@code before} (or in the join's
     * earlier items) made LATERAL; the names this item gives its tables are added to {@code before}.
     */
    private static SqlNode from(SqlNode item, Set<String> before) {
        if (item instanceof SqlJoin join) {
            join.setLeft(from(join.getLeft(), before));
            SqlNode right = join.getRight();
            JoinType type = join.getJoinType();
            if (type != JoinType.RIGHT && type != JoinType.FULL && isSubquery(right) && readsAny(right, before)) {
                join.setRight(lateral(right));
            }
            names(join.getRight(), before);
            return join;
        }
        names(item, before);
        return item;
    }

    /** A subquery in FROM, with or without an alias, not LATERAL yet. */
    private static boolean isSubquery(SqlNode item) {
        SqlNode inner = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        return inner instanceof SqlSelect || inner.getKind() == SqlKind.ORDER_BY || inner.getKind() == SqlKind.WITH
                || inner.getKind() == SqlKind.UNION || inner.getKind() == SqlKind.INTERSECT
                || inner.getKind() == SqlKind.EXCEPT;
    }

    private static SqlNode lateral(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) item;
            SqlNode query = as.operand(0);
            as.setOperand(0, SqlStdOperatorTable.LATERAL.createCall(query.getParserPosition(), query));
            return as;
        }
        return SqlStdOperatorTable.LATERAL.createCall(item.getParserPosition(), item);
    }

    /** Adds the name a FROM item (a table, an aliased item, a join's items) gives its rows. */
    private static void names(SqlNode item, Set<String> into) {
        if (item instanceof SqlJoin join) {
            names(join.getLeft(), into);
            names(join.getRight(), into);
        } else if (item.getKind() == SqlKind.AS) {
            into.add(key(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple()));
        } else if (item instanceof SqlIdentifier id) {
            into.add(key(id.names.getLast()));
        }
    }

    /** Whether {@code subquery} reads a column through one of {@code tables}' names that it does not give itself. */
    private static boolean readsAny(SqlNode subquery, Set<String> tables) {
        if (tables.isEmpty()) {
            return false;
        }
        Set<String> own = new HashSet<>();
        Set<String> read = new HashSet<>();
        subquery.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect s && s.getFrom() != null) {
                    names(s.getFrom(), own);
                } else if (call instanceof SqlWith with) {
                    for (SqlNode w : with.withList) {
                        own.add(key(((SqlWithItem) w).name.getSimple()));
                    }
                }
                return super.visit(call);
            }

            @Override
            public Void visit(SqlIdentifier id) {
                if (id.names.size() >= 2) {
                    read.add(key(id.names.getFirst()));
                }
                return null;
            }
        });
        read.removeAll(own);
        read.retainAll(tables);
        return !read.isEmpty();
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
