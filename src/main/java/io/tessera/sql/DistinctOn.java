package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code SELECT DISTINCT ON (k, ...)}, DuckDB's and PostgreSQL's: one row per distinct key, the first by the query's
 * ORDER BY (which need not begin with the keys, as DuckDB has it; any row of a group where there is none). The parser
 * puts the keys first in the select list as a {@link #KEYS} call; {@link #rewrite} makes the query {@code SELECT ...
 * QUALIFY row_number() OVER (PARTITION BY k, ... ORDER BY <the query's ORDER BY>) = 1 ORDER BY ...}, which the planner
 * runs as a filter over a window, NULL keys one group as PARTITION BY makes them. As DuckDB binds them, a key or
 * ORDER BY item that is an ordinal or the alias of a select item stands for that item's expression; window functions
 * of the select list see every row, as DuckDB computes them before the DISTINCT.
 */
public final class DistinctOn {

    /** The keys of DISTINCT ON as the parser reads them, the select list's first item until {@link #rewrite}. */
    public static final SqlSpecialOperator KEYS = new SqlSpecialOperator("DISTINCT ON", SqlKind.OTHER) {
        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
            SqlWriter.Frame frame = writer.startFunCall("DISTINCT ON");
            for (SqlNode key : call.getOperandList()) {
                writer.sep(",");
                key.unparse(writer, 0, 0);
            }
            writer.endFunCall(frame);
        }

        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            throw SupportCheck.unsupported("SELECT DISTINCT ON here", call.getParserPosition());
        }
    };

    private DistinctOn() {
    }

    /** {@code node} with every SELECT DISTINCT ON in it rewritten in place. */
    static SqlNode rewrite(SqlNode node) {
        walk(node);
        return node;
    }

    private static void walk(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                walk(item);
            }
            return;
        }
        if (!(node instanceof SqlCall call)) {
            return;
        }
        if (call instanceof SqlOrderBy orderBy) {
            SqlSelect select = selectOf(orderBy.query);
            if (select != null && keysOf(select) != null) {
                rewrite(select, orderBy.orderList);
            }
        } else if (call instanceof SqlSelect select && keysOf(select) != null) {
            rewrite(select, SqlNodeList.EMPTY);
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null) {
                walk(operand);
            }
        }
    }

    /** The SELECT an ORDER BY orders: its query, or the body of its WITH. */
    private static SqlSelect selectOf(SqlNode query) {
        if (query instanceof SqlWith with) {
            query = with.body;
        }
        return query instanceof SqlSelect s ? s : null;
    }

    private static SqlCall keysOf(SqlSelect select) {
        SqlNodeList items = select.getSelectList();
        return items != null && !items.isEmpty() && items.get(0) instanceof SqlCall c && c.getOperator() == KEYS
                ? c : null;
    }

    private static void rewrite(SqlSelect select, SqlNodeList orderList) {
        SqlCall keys = keysOf(select);
        SqlParserPos pos = keys.getParserPosition();
        if (select.getQualify() != null) {
            throw SupportCheck.unsupported("SELECT DISTINCT ON with QUALIFY", pos);
        }
        List<SqlNode> items = new ArrayList<>(select.getSelectList().getList().subList(1, select.getSelectList().size()));
        select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
        List<SqlNode> keywords = new ArrayList<>();
        for (SqlNode k : select.getOperandList().get(0) instanceof SqlNodeList l ? l : SqlNodeList.EMPTY) {
            if (!(k instanceof SqlLiteral lit && lit.getValue() == SqlSelectKeyword.DISTINCT)) {
                keywords.add(k);
            }
        }
        select.setOperand(0, new SqlNodeList(keywords, pos));
        List<SqlNode> partition = new ArrayList<>();
        for (SqlNode key : keys.getOperandList()) {
            partition.add(resolve(key, items, "DISTINCT ON"));
        }
        List<SqlNode> order = new ArrayList<>();
        for (SqlNode item : orderList) {
            order.add(resolveOrderItem(item, items));
        }
        SqlWindow window = SqlWindow.create(null, null, new SqlNodeList(partition, pos), new SqlNodeList(order, pos),
                SqlLiteral.createBoolean(false, pos), null, null, null, pos);
        SqlNode first = SqlStdOperatorTable.OVER.createCall(pos, SqlStdOperatorTable.ROW_NUMBER.createCall(pos),
                window);
        select.setQualify(SqlStdOperatorTable.EQUALS.createCall(pos, first,
                SqlLiteral.createExactNumeric("1", pos)));
    }

    /** An ORDER BY item, its key resolved inside DESC and NULLS FIRST/LAST. */
    private static SqlNode resolveOrderItem(SqlNode item, List<SqlNode> items) {
        if (item instanceof SqlBasicCall call && (call.getKind() == SqlKind.DESCENDING
                || call.getKind() == SqlKind.NULLS_FIRST || call.getKind() == SqlKind.NULLS_LAST)) {
            return call.getOperator().createCall(call.getParserPosition(),
                    resolveOrderItem(call.operand(0), items));
        }
        return resolve(item, items, "ORDER");
    }

    /**
     * A copy of a key: an ordinal the expression of that select item, the alias of an item (where it is not the
     * item's own column) that item's expression, else the key itself.
     */
    private static SqlNode resolve(SqlNode key, List<SqlNode> items, String clause) {
        if (key instanceof SqlNumericLiteral n && n.isInteger()) {
            int ordinal = n.intValue(true);
            for (int i = 0; i < Math.min(ordinal, items.size()); i++) {
                if (items.get(i) instanceof SqlIdentifier id && id.isStar()) {
                    throw SupportCheck.unsupported(clause + " by position " + ordinal + " after a * in the select "
                            + "list; name the column instead", key.getParserPosition());
                }
            }
            if (ordinal < 1 || ordinal > items.size()) {
                throw new SqlError(clause + " term out of range - should be between 1 and " + items.size()
                        + SupportCheck.at(key.getParserPosition()));
            }
            return expression(items.get(ordinal - 1)).clone(key.getParserPosition());
        }
        if (key instanceof SqlIdentifier id && id.isSimple()) {
            for (SqlNode item : items) {
                if (item instanceof SqlBasicCall as && as.getKind() == SqlKind.AS
                        && as.operand(1) instanceof SqlIdentifier alias
                        && alias.getSimple().equalsIgnoreCase(id.getSimple())
                        && !(as.operand(0) instanceof SqlIdentifier column && column.isSimple()
                        && column.getSimple().equalsIgnoreCase(id.getSimple()))) {
                    return as.operand(0).clone(key.getParserPosition());
                }
            }
        }
        return key.clone(key.getParserPosition());
    }

    private static SqlNode expression(SqlNode item) {
        return item instanceof SqlBasicCall as && as.getKind() == SqlKind.AS ? as.operand(0) : item;
    }
}
