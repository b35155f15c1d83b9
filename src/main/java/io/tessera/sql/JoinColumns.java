package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.List;

/**
 * The common columns of USING and NATURAL joins bound as DuckDB binds them: a name of such a column is the left
 * side's column of an inner or left join (its type, INTEGER where the right side's is BIGINT), the right side's of a
 * right join, and the COALESCE of both of a full join (their common type). Calcite reads the name as the COALESCE of
 * both in every join, and of a NATURAL join, or outside the select list, as ambiguous. A select's FROM is read once
 * its tables are validated ({@link #of}); its names are then replaced before Calcite resolves them, and the columns
 * a star expands to afterwards.
 */
final class JoinColumns {

    /** A table of the FROM: the name its columns are qualified with, and its row type. */
    record Leaf(String alias, RelDataType rowType) {
    }

    private final SqlNode from;
    private final List<SqlNode> leafNodes;
    private final List<Leaf> leaves;
    private final SqlNameMatcher matcher;

    private JoinColumns(SqlNode from, List<SqlNode> leafNodes, List<Leaf> leaves, SqlNameMatcher matcher) {
        this.from = from;
        this.leafNodes = leafNodes;
        this.leaves = leaves;
        this.matcher = matcher;
    }

    /**
     * The FROM of {@code select} read with its tables' row types (in the order the validator's scope holds them),
     * or null where it has no USING or NATURAL join, or a table whose name is not known.
     */
    static JoinColumns of(SqlSelect select, List<RelDataType> rowTypes, SqlNameMatcher matcher) {
        SqlNode from = select.getFrom();
        if (!holds(select)) {
            return null;
        }
        List<SqlNode> nodes = new ArrayList<>();
        collectLeaves(from, nodes);
        if (nodes.size() != rowTypes.size()) {
            return null;
        }
        List<Leaf> leaves = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            String alias = alias(nodes.get(i));
            if (alias == null) {
                return null;
            }
            leaves.add(new Leaf(alias, rowTypes.get(i)));
        }
        return new JoinColumns(from, nodes, leaves, matcher);
    }

    /** Whether the select's FROM has a USING or NATURAL join. */
    static boolean holds(SqlSelect select) {
        return hasCommonColumns(select.getFrom());
    }

    private static boolean hasCommonColumns(SqlNode from) {
        return from instanceof SqlJoin j && (j.isNatural() || j.getConditionType() == JoinConditionType.USING
                || hasCommonColumns(j.getLeft()) || hasCommonColumns(j.getRight()));
    }

    private static void collectLeaves(SqlNode node, List<SqlNode> out) {
        if (node instanceof SqlJoin j) {
            collectLeaves(j.getLeft(), out);
            collectLeaves(j.getRight(), out);
        } else {
            out.add(node);
        }
    }

    private static String alias(SqlNode leaf) {
        if (leaf.getKind() == SqlKind.AS && ((SqlCall) leaf).operand(1) instanceof SqlIdentifier a) {
            return a.getSimple();
        }
        return leaf instanceof SqlIdentifier id ? Util.last(id.names) : null;
    }

    /** What {@code name} denotes in the FROM where it is a USING or NATURAL join's common column, else null. */
    SqlNode bind(String name, SqlParserPos pos) {
        Bound b = bind(from, name, pos);
        return b != null && b.common ? b.node : null;
    }

    /** A name's binding below a node of the FROM, and whether a join there made it a common column. */
    private record Bound(SqlNode node, boolean common) {
    }

    private Bound bind(SqlNode node, String name, SqlParserPos pos) {
        if (!(node instanceof SqlJoin j)) {
            Leaf leaf = leaves.get(indexOf(node));
            RelDataTypeField field = matcher.field(leaf.rowType(), name);
            return field == null ? null
                    : new Bound(new SqlIdentifier(List.of(leaf.alias(), field.getName()), pos), false);
        }
        Bound left = bind(j.getLeft(), name, pos);
        Bound right = bind(j.getRight(), name, pos);
        if (left == null || right == null) {
            return left == null ? right : left;
        }
        if (!joinsOn(j, name)) {
            return null; // in both sides and no common column: ambiguous, which Calcite says
        }
        return switch (j.getJoinType()) {
            case RIGHT -> new Bound(right.node, true);
            case FULL -> new Bound(SqlStdOperatorTable.COALESCE.createCall(pos, left.node, right.node), true);
            default -> new Bound(left.node, true);
        };
    }

    private int indexOf(SqlNode leaf) {
        for (int i = 0; i < leafNodes.size(); i++) {
            if (leafNodes.get(i) == leaf) {
                return i;
            }
        }
        throw new IllegalStateException("not a table of the FROM: " + leaf);
    }

    /** Whether {@code join} is on {@code name}: named in its USING, or, NATURAL, a column of both of its sides. */
    private boolean joinsOn(SqlJoin join, String name) {
        if (join.isNatural()) {
            return true; // both sides have it (the caller's check)
        }
        if (join.getConditionType() != JoinConditionType.USING || !(join.getCondition() instanceof SqlNodeList names)) {
            return false;
        }
        for (SqlNode n : names) {
            if (n instanceof SqlIdentifier id && matcher.matches(id.getSimple(), name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The select's names of common columns replaced by their bindings, in the select list (a bare name keeps its
     * name as the column's), WHERE, GROUP BY, HAVING and QUALIFY, and in ORDER BY (a bare ORDER BY name
     * that is a select alias left for Calcite to read as one); not inside subqueries, which resolve their own.
     */
    void bindNames(SqlSelect select) {
        SqlShuttle binder = new Binder();
        List<SqlNode> items = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier id && id.isSimple() && !id.isStar()) {
                SqlNode bound = bind(id.getSimple(), id.getParserPosition());
                items.add(bound == null ? item : SqlStdOperatorTable.AS.createCall(id.getParserPosition(), bound,
                        new SqlIdentifier(id.getSimple(), id.getParserPosition())));
            } else {
                items.add(item.accept(binder));
            }
        }
        select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
        if (select.getWhere() != null) {
            select.setWhere(select.getWhere().accept(binder));
        }
        if (select.getGroup() != null) {
            select.setGroupBy((SqlNodeList) select.getGroup().accept(binder));
        }
        if (select.getHaving() != null) {
            select.setHaving(select.getHaving().accept(binder));
        }
        if (select.getQualify() != null) {
            select.setQualify(select.getQualify().accept(binder));
        }
        if (select.getOrderList() != null) {
            List<SqlNode> order = new ArrayList<>();
            for (SqlNode item : select.getOrderList()) {
                order.add(bareName(item) && selectAlias(select, item) ? item : item.accept(binder));
            }
            select.setOrderBy(new SqlNodeList(order, select.getOrderList().getParserPosition()));
        }
    }

    /** Whether a bare ORDER BY name is the alias of a select item (which Calcite reads it as). */
    private boolean selectAlias(SqlSelect select, SqlNode item) {
        SqlNode n = item;
        while (!(n instanceof SqlIdentifier)) {
            n = ((SqlCall) n).operand(0);
        }
        if (!((SqlIdentifier) n).isSimple()) {
            return true; // a qualified name: no common column, left as it is
        }
        String name = ((SqlIdentifier) n).getSimple();
        for (SqlNode s : select.getSelectList()) {
            String alias = org.apache.calcite.sql.validate.SqlValidatorUtil.alias(s);
            if (alias != null && matcher.matches(alias, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean bareName(SqlNode item) {
        SqlNode n = item;
        while (n.getKind() == SqlKind.DESCENDING || n.getKind() == SqlKind.NULLS_FIRST
                || n.getKind() == SqlKind.NULLS_LAST) {
            n = ((SqlCall) n).operand(0);
        }
        return n instanceof SqlIdentifier;
    }

    /**
     * A column a star expanded to that is Calcite's COALESCE of a common column ({@code COALESCE(a.k, b.k) AS k},
     * at no position), as DuckDB binds it; null for every other item.
     */
    SqlNode starColumn(SqlNode item) {
        if (item.getKind() != SqlKind.AS || !(((SqlCall) item).operand(0) instanceof SqlBasicCall c)
                || c.getKind() != SqlKind.COALESCE || !SqlParserPos.ZERO.equals(c.getParserPosition())
                || !(((SqlCall) item).operand(1) instanceof SqlIdentifier name)) {
            return null;
        }
        SqlNode bound = bind(name.getSimple(), SqlParserPos.ZERO);
        return bound == null ? null : SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, bound, name);
    }

    /** Rewrites common column names outside subqueries. */
    private final class Binder extends SqlShuttle {
        @Override
        public SqlNode visit(SqlIdentifier id) {
            if (!id.isSimple() || id.isStar()) {
                return id;
            }
            SqlNode bound = bind(id.getSimple(), id.getParserPosition());
            return bound == null ? id : bound;
        }

        @Override
        public SqlNode visit(SqlCall call) {
            if (SqlKind.QUERY.contains(call.getKind()) || call.getKind() == SqlKind.LAMBDA) {
                return call;
            }
            if (call.getKind() == SqlKind.AS) { // the alias is no column
                return call.getOperator().createCall(call.getParserPosition(), call.operand(0).accept(this),
                        call.operand(1));
            }
            return super.visit(call);
        }
    }
}
