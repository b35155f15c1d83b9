package io.tessera.sql;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A macro's body (freshly parsed, so changed in place) with each of its parameters, an unqualified name, replaced by
 * a copy of the argument's parsed tree: a tree in place of a name, so the argument keeps its grouping ({@code f(1 +
 * 2)} of {@code x * 3} is {@code (1 + 2) * 3}). A name that is not a column reference stays: an alias, a table
 * name in FROM, a WITH query's name, a named argument's name, a USING join's column.
 */
final class MacroParameters extends SqlShuttle {

    /** The arguments by their parameter's name in lower case. */
    private final Map<String, SqlNode> values;

    private MacroParameters(Map<String, SqlNode> values) {
        this.values = values;
    }

    /** {@code body} with its parameters replaced by {@code values} (by parameter name in lower case). */
    static SqlNode substitute(SqlNode body, Map<String, SqlNode> values) {
        return values.isEmpty() ? body : body.accept(new MacroParameters(values));
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        if (id.isSimple()) {
            SqlNode value = values.get(id.getSimple().toLowerCase(Locale.ROOT));
            if (value != null) {
                return SqlCopies.deep(value); // each use its own nodes: the validator keeps state per node
            }
        }
        return id;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            select.setSelectList(list(select.getSelectList()));
            select.setFrom(from(select.getFrom()));
            select.setWhere(visitNullable(select.getWhere()));
            select.setGroupBy(list(select.getGroup()));
            select.setHaving(visitNullable(select.getHaving()));
            select.setQualify(visitNullable(select.getQualify()));
            select.setOrderBy(list(select.getOrderList()));
            select.setOffset(visitNullable(select.getOffset()));
            select.setFetch(visitNullable(select.getFetch()));
            return select;
        }
        if (call instanceof SqlWithItem item) {
            item.query = item.query.accept(this);
            return item;
        }
        if (call.getKind() == SqlKind.AS) {
            return aliased(call, call.operand(0).accept(this));
        }
        if (call.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
            call.setOperand(0, call.operand(0).accept(this)); // operand 1 is the argument's name
            return call;
        }
        return super.visit(call);
    }

    /** A FROM item: a table's name stays; subqueries, join conditions and function arguments are visited. */
    private SqlNode from(SqlNode from) {
        if (from == null || from instanceof SqlIdentifier) {
            return from;
        }
        if (from instanceof SqlJoin join) {
            join.setLeft(from(join.getLeft()));
            join.setRight(from(join.getRight()));
            if (join.getCondition() != null && join.getConditionType() != JoinConditionType.USING) {
                join.setOperand(5, join.getCondition().accept(this));
            }
            return join;
        }
        if (from.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) from;
            return aliased(as, from(as.operand(0)));
        }
        return from.accept(this);
    }

    /** {@code as} with {@code value} in place of its first operand; its names (alias, columns) kept. */
    private static SqlNode aliased(SqlCall as, SqlNode value) {
        List<SqlNode> operands = new ArrayList<>(as.getOperandList());
        operands.set(0, value);
        return as.getOperator().createCall(as.getParserPosition(), operands);
    }

    private SqlNode visitNullable(SqlNode node) {
        return node == null ? null : node.accept(this);
    }

    private SqlNodeList list(SqlNodeList list) {
        return list == null ? null : (SqlNodeList) list.accept(this);
    }
}
