package io.tessera.sql;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * A query inside an expression as DuckDB's printer writes it in a column's name, without the parentheses around it:
 * {@code SELECT max(a) FROM t AS t2 WHERE (t2.a > t.a)}. DuckDB names a scalar subquery, EXISTS and IN (subquery)
 * with this text. The clauses are written in DuckDB's order and spelling from the parsed query; the expressions in
 * them by {@link ColumnNames}. A query with a part this class does not know (a table function, UNNEST, PIVOT,
 * TABLESAMPLE, GROUPING SETS, a WINDOW clause, a recursive WITH, a file read in FROM) has no text here: {@link #of}
 * answers null.
 */
final class SubqueryText {

    /** A part of the query this class cannot write as DuckDB does. */
    private static final class Unknown extends RuntimeException {
        Unknown() {
            super(null, null, false, false);
        }
    }

    /** Writes an expression as DuckDB names it. */
    private final BiConsumer<SqlNode, StringBuilder> expression;
    /** Writes an item of ORDER BY as DuckDB names it: {@code a DESC NULLS FIRST}, {@code a ASC} as written. */
    private final BiConsumer<SqlNode, StringBuilder> orderItem;

    SubqueryText(BiConsumer<SqlNode, StringBuilder> expression, BiConsumer<SqlNode, StringBuilder> orderItem) {
        this.expression = expression;
        this.orderItem = orderItem;
    }

    /** DuckDB's text of {@code query}, or null where it has a part this class cannot write. */
    String of(SqlNode query) {
        StringBuilder sb = new StringBuilder();
        try {
            query(query, sb);
        } catch (Unknown e) {
            return null;
        }
        return sb.toString();
    }

    private void query(SqlNode node, StringBuilder sb) {
        if (node instanceof SqlSelect select) {
            select(select, sb);
        } else if (node instanceof SqlOrderBy orderBy) {
            query(orderBy.query, sb);
            modifiers(orderBy.orderList, orderBy.offset, orderBy.fetch, sb);
        } else if (node instanceof SqlWith with) {
            with(with, sb);
        } else if (node.getKind() == SqlKind.VALUES) {
            // DuckDB reads a VALUES list as the query SELECT * FROM (VALUES ...) AS valueslist
            sb.append("SELECT * FROM (VALUES ");
            List<SqlNode> rows = ((SqlCall) node).getOperandList();
            for (int i = 0; i < rows.size(); i++) {
                sb.append(i > 0 ? ", " : "").append('(');
                expressions(((SqlCall) rows.get(i)).getOperandList(), sb);
                sb.append(')');
            }
            sb.append(") AS valueslist");
        } else if (node instanceof SqlCall call && call.getOperator() instanceof SqlSetOperator op
                && (node.getKind() == SqlKind.UNION || node.getKind() == SqlKind.INTERSECT
                || node.getKind() == SqlKind.EXCEPT)) {
            setOperation(call, op, sb);
        } else {
            throw new Unknown();
        }
    }

    private void with(SqlWith with, StringBuilder sb) {
        if (with.getKind() != SqlKind.WITH || isRecursive(with)) {
            throw new Unknown();
        }
        sb.append("WITH ");
        for (int i = 0; i < with.withList.size(); i++) {
            SqlWithItem item = (SqlWithItem) with.withList.get(i);
            sb.append(i > 0 ? ", " : "").append(name(item.name.getSimple()));
            if (item.columnList != null) {
                sb.append(" (");
                names(item.columnList, sb);
                sb.append(')');
            }
            sb.append(" AS (");
            query(item.query, sb);
            sb.append(')');
        }
        sb.append(' ');
        query(with.body, sb);
    }

    private static boolean isRecursive(SqlWith with) {
        return with.withList.stream().anyMatch(i -> ((SqlWithItem) i).recursive.booleanValue());
    }

    /**
     * {@code (SELECT 1) UNION ALL (SELECT 2)UNION ALL (SELECT 3)}: DuckDB gathers a chain of the same UNION on the
     * left into one operation and writes each branch after the first without a space before its keyword.
     */
    private void setOperation(SqlCall call, SqlSetOperator op, StringBuilder sb) {
        List<SqlNode> branches = new ArrayList<>();
        branches.add(call.operand(1));
        SqlNode left = call.operand(0);
        while (call.getKind() == SqlKind.UNION && left instanceof SqlCall l && l.getOperator() == op) {
            branches.add(0, l.operand(1));
            left = l.operand(0);
        }
        branches.add(0, left);
        String keyword = op.getName(); // UNION ALL, EXCEPT, ...
        sb.append('(');
        query(branches.get(0), sb);
        sb.append(") ");
        for (int i = 1; i < branches.size(); i++) {
            sb.append(keyword).append(" (");
            query(branches.get(i), sb);
            sb.append(')');
        }
    }

    private void select(SqlSelect select, StringBuilder sb) {
        if (select.getWindowList() != null && select.getWindowList().size() > 0) {
            throw new Unknown();
        }
        sb.append("SELECT ");
        if (select.isDistinct()) {
            sb.append("DISTINCT ");
        }
        SqlNodeList items = select.getSelectList();
        for (int i = 0; i < items.size(); i++) {
            sb.append(i > 0 ? ", " : "");
            SqlNode item = items.get(i);
            if (item.getKind() == SqlKind.AS) {
                SqlCall as = (SqlCall) item;
                if (as.operandCount() != 2) {
                    throw new Unknown();
                }
                expression(as.operand(0), sb);
                sb.append(" AS ").append(name(((SqlIdentifier) as.operand(1)).getSimple()));
            } else if (item instanceof AllColumns.ModifiedStar) {
                throw new Unknown();
            } else {
                expression(item, sb);
            }
        }
        if (select.getFrom() != null) {
            sb.append(" FROM ");
            from(select.getFrom(), sb);
        }
        if (select.getWhere() != null) {
            sb.append(" WHERE ");
            expression(select.getWhere(), sb);
        }
        if (select.getGroup() != null && select.getGroup().size() > 0) {
            sb.append(" GROUP BY ");
            group(select.getGroup().getList(), sb);
        }
        if (select.getHaving() != null) {
            sb.append(" HAVING ");
            expression(select.getHaving(), sb);
        }
        if (select.getQualify() != null) {
            sb.append(" QUALIFY ");
            expression(select.getQualify(), sb);
        }
        modifiers(select.getOrderList(), select.getOffset(), select.getFetch(), sb);
    }

    /** GROUP BY's keys; GROUP BY ALL as written; grouping sets, ROLLUP and CUBE, which DuckDB rewrites, unknown. */
    private void group(List<SqlNode> keys, StringBuilder sb) {
        if (keys.size() == 1 && keys.get(0) instanceof SqlCall all && all.getOperator() == AllColumns.ALL) {
            sb.append("ALL");
            return;
        }
        for (SqlNode key : keys) {
            if (key instanceof SqlNodeList || key.getKind() == SqlKind.GROUPING_SETS || key.getKind() == SqlKind.ROLLUP
                    || key.getKind() == SqlKind.CUBE || key instanceof SqlCall c && c.getOperator() == AllColumns.ALL) {
                throw new Unknown();
            }
        }
        expressions(keys, sb);
    }

    private void modifiers(SqlNodeList order, SqlNode offset, SqlNode fetch, StringBuilder sb) {
        if (order != null && order.size() > 0) {
            sb.append(" ORDER BY ");
            for (int i = 0; i < order.size(); i++) {
                if (isAll(order.get(i))) {
                    throw new Unknown(); // ORDER BY ALL, which DuckDB writes ORDER BY COLUMNS(*)
                }
                sb.append(i > 0 ? ", " : "");
                orderItem.accept(order.get(i), sb);
            }
        }
        if (fetch != null) {
            sb.append(" LIMIT ");
            expression(fetch, sb);
        }
        if (offset != null) {
            sb.append(" OFFSET ");
            expression(offset, sb);
        }
    }

    private static boolean isAll(SqlNode item) {
        SqlNode e = item;
        while (e.getKind() == SqlKind.DESCENDING || e.getKind() == SqlKind.NULLS_FIRST
                || e.getKind() == SqlKind.NULLS_LAST) {
            e = ((SqlCall) e).operand(0);
        }
        return e instanceof SqlCall all && all.getOperator() == AllColumns.ALL;
    }

    /** A FROM item: a table, a subquery, each with its alias, and joins as DuckDB writes them. */
    private void from(SqlNode node, StringBuilder sb) {
        if (node instanceof SqlIdentifier id) {
            table(id, sb);
        } else if (node instanceof SqlJoin join) {
            join(join, sb);
        } else if (node.getKind() == SqlKind.AS) {
            List<SqlNode> ops = ((SqlCall) node).getOperandList();
            from(ops.get(0), sb);
            sb.append(" AS ").append(name(((SqlIdentifier) ops.get(1)).getSimple()));
            if (ops.size() > 2) {
                sb.append('(');
                names(ops.subList(2, ops.size()), sb);
                sb.append(')');
            }
        } else if (node.getKind() == SqlKind.LATERAL) {
            from(((SqlCall) node).operand(0), sb); // DuckDB leaves the word out
        } else if (node.getKind() == SqlKind.SELECT || node.getKind() == SqlKind.ORDER_BY
                || node.getKind() == SqlKind.WITH || node.getKind() == SqlKind.VALUES
                || node.getKind() == SqlKind.UNION || node.getKind() == SqlKind.INTERSECT
                || node.getKind() == SqlKind.EXCEPT) {
            sb.append('(');
            query(node, sb);
            sb.append(')');
        } else {
            throw new Unknown();
        }
    }

    /** A stored table's name; the tables that stand for files and series in FROM have names of their own. */
    private static void table(SqlIdentifier id, StringBuilder sb) {
        for (int i = 0; i < id.names.size(); i++) {
            String part = id.names.get(i);
            if (part.isEmpty() || part.startsWith("$")) {
                throw new Unknown();
            }
            sb.append(i > 0 ? "." : "").append(name(part));
        }
    }

    /** {@code (t INNER JOIN u ON ((t.a = u.a)))}, {@code (t LEFT JOIN u USING (a))}, {@code t , u}. */
    private void join(SqlJoin join, StringBuilder sb) {
        JoinType type = join.getJoinType();
        if (type == JoinType.COMMA) {
            from(join.getLeft(), sb);
            sb.append(" , ");
            from(join.getRight(), sb);
            return;
        }
        String keyword = switch (type) {
            case INNER -> "INNER JOIN";
            case LEFT -> "LEFT JOIN";
            case RIGHT -> "RIGHT JOIN";
            case FULL -> "FULL JOIN";
            case CROSS -> "CROSS JOIN";
            default -> throw new Unknown();
        };
        sb.append('(');
        from(join.getLeft(), sb);
        sb.append(' ').append(join.isNatural() ? "NATURAL " : "").append(keyword).append(' ');
        from(join.getRight(), sb);
        if (join.getConditionType() == JoinConditionType.ON) {
            sb.append(" ON (");
            expression(join.getCondition(), sb);
            sb.append(')');
        } else if (join.getConditionType() == JoinConditionType.USING) {
            sb.append(" USING (");
            names(((SqlNodeList) join.getCondition()).getList(), sb);
            sb.append(')');
        }
        sb.append(')');
    }

    private void expression(SqlNode e, StringBuilder sb) {
        expression.accept(e, sb);
    }

    private void expressions(List<SqlNode> nodes, StringBuilder sb) {
        for (int i = 0; i < nodes.size(); i++) {
            sb.append(i > 0 ? ", " : "");
            expression(nodes.get(i), sb);
        }
    }

    private static void names(List<SqlNode> ids, StringBuilder sb) {
        for (int i = 0; i < ids.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(name(((SqlIdentifier) ids.get(i)).getSimple()));
        }
    }

    private static String name(String name) {
        return DuckDbKeywords.quoted(name);
    }
}
