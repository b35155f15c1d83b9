package io.tessera.sql;

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
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Util;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's percentage limit, {@code LIMIT p%} or {@code LIMIT p PERCENT} (p from 0 to 100): of the query's n rows in
 * its order, after the OFFSET's k, the next {@code floor(p / 100.0 * n)} (computed in DOUBLE, as DuckDB does). The
 * parser reads the limit as a call of {@link #PERCENT} around p; {@link #rewrite} makes the query keep those rows by a
 * QUALIFY on {@code row_number() OVER (ORDER BY the query's order)} and {@code count(*) OVER ()}: in a plain SELECT
 * itself (its ORDER BY's aliases and positions read as the items they name), else (a set operation, DISTINCT, a
 * QUALIFY of its own, WITH) in a SELECT over it, whose ORDER BY names its columns.
 */
public final class LimitPercent {

    /** {@code LIMIT p%} as the parser reads it, until {@link #rewrite} takes it: the call's operand is p. */
    public static final SqlSpecialOperator PERCENT = new SqlSpecialOperator("LIMIT PERCENT", SqlKind.OTHER);

    private LimitPercent() {
    }

    /** {@code statement} with each query limited by a percentage keeping those rows by a QUALIFY. */
    static SqlNode rewrite(SqlNode statement) {
        return statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                return visited instanceof SqlOrderBy o && o.fetch instanceof SqlCall c && c.getOperator() == PERCENT
                        ? limited(o, c) : visited;
            }
        });
    }

    private static SqlNode limited(SqlOrderBy o, SqlCall percent) {
        SqlParserPos pos = percent.getParserPosition();
        if (!(percent.operand(0) instanceof SqlNumericLiteral p)) {
            throw SupportCheck.unsupported("LIMIT of a percentage that is not a constant number", pos);
        }
        BigDecimal value = p.bigDecimalValue();
        if (value.signum() < 0 || value.compareTo(BigDecimal.valueOf(100)) > 0) {
            throw new SqlError("Limit percent out of range, should be between 0% and 100%" + SupportCheck.at(pos));
        }
        for (SqlNode item : o.orderList) {
            if (unwrap(item) instanceof SqlCall c && c.getOperator() == AllColumns.ALL) {
                throw SupportCheck.unsupported("LIMIT ... % with ORDER BY ALL (order by the columns' names)",
                        item.getParserPosition());
            }
        }
        long offset = o.offset == null ? 0 : ((SqlNumericLiteral) o.offset).bigDecimalValue().longValueExact();
        double share = value.doubleValue() / 100.0;
        boolean inPlace = o.query instanceof SqlSelect s && !s.isDistinct() && s.getQualify() == null;
        List<SqlNode> order = new ArrayList<>();
        for (SqlNode item : o.orderList) {
            // a copy: a node that stood in two places would be validated in the scope of one
            order.add(SqlCopies.deep(inPlace ? named(item, ((SqlSelect) o.query).getSelectList(), true)
                    : named(item, firstSelectList(o.query), false)));
        }
        SqlNode kept = kept(order, offset, share, pos);
        SqlSelect select;
        if (inPlace) {
            select = (SqlSelect) o.query;
            select.setQualify(kept);
        } else {
            select = new SqlSelect(pos, SqlNodeList.EMPTY, SqlNodeList.of(SqlIdentifier.star(pos)), o.query, null,
                    null, null, null, kept, null, null, null, null);
        }
        return o.orderList.size() == 0 ? select : new SqlOrderBy(o.getParserPosition(), select, o.orderList, null,
                null);
    }

    /**
     * {@code row_number() OVER (ORDER BY order) > offset AND row_number() OVER (...) <= offset + floor(count(*) OVER ()
     * * share)}.
     */
    private static SqlNode kept(List<SqlNode> order, long offset, double share, SqlParserPos pos) {
        SqlNodeList keys = new SqlNodeList(order, pos);
        SqlNode count = over(SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos)), SqlNodeList.EMPTY,
                pos);
        SqlNode shareLiteral = SqlLiteral.createApproxNumeric(
                new BigDecimal(Double.toString(share)).toPlainString() + "E0", pos);
        SqlNode rows = SqlStdOperatorTable.FLOOR.createCall(pos, SqlStdOperatorTable.MULTIPLY.createCall(pos,
                SqlStdOperatorTable.CAST.createCall(pos, count, new org.apache.calcite.sql.SqlDataTypeSpec(
                        new org.apache.calcite.sql.SqlBasicTypeNameSpec(
                                org.apache.calcite.sql.type.SqlTypeName.DOUBLE, pos), pos)), shareLiteral));
        SqlNode first = SqlLiteral.createExactNumeric(Long.toString(offset), pos);
        SqlNode after = SqlStdOperatorTable.GREATER_THAN.createCall(pos,
                over(SqlStdOperatorTable.ROW_NUMBER.createCall(pos), keys, pos), first);
        SqlNode within = SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos,
                over(SqlStdOperatorTable.ROW_NUMBER.createCall(pos), (SqlNodeList) SqlCopies.deep(keys), pos),
                SqlStdOperatorTable.PLUS.createCall(pos, SqlCopies.deep(first), rows));
        return SqlStdOperatorTable.AND.createCall(pos, after, within);
    }

    private static SqlNode over(SqlCall function, SqlNodeList order, SqlParserPos pos) {
        SqlWindow window = SqlWindow.create(null, null, SqlNodeList.EMPTY, order, SqlLiteral.createBoolean(false, pos),
                null, null, null, pos);
        return SqlStdOperatorTable.OVER.createCall(pos, function, window);
    }

    /**
     * An ORDER BY item as a window's ORDER BY reads it (DESC and NULLS kept): a position as the select item it names
     * (its expression where {@code expressions}, else its name), and where {@code expressions} an alias as its
     * expression.
     */
    private static SqlNode named(SqlNode item, SqlNodeList items, boolean expressions) {
        SqlKind k = item.getKind();
        if (k == SqlKind.DESCENDING || k == SqlKind.NULLS_FIRST || k == SqlKind.NULLS_LAST) {
            SqlCall call = (SqlCall) item;
            return call.getOperator().createCall(call.getParserPosition(), named(call.operand(0), items, expressions));
        }
        if (item instanceof SqlNumericLiteral n) {
            int at = n.intValue(true);
            if (items == null || at < 1 || at > items.size() || items.get(at - 1) instanceof SqlIdentifier id
                    && id.isStar()) {
                throw SupportCheck.unsupported("LIMIT ... % ordered by a position this query's select list does not "
                        + "name (order by the column's name)", item.getParserPosition());
            }
            SqlNode selected = items.get(at - 1);
            if (expressions) {
                return selected.getKind() == SqlKind.AS ? ((SqlCall) selected).operand(0) : selected;
            }
            String name = selected.getKind() == SqlKind.AS
                    ? ((SqlIdentifier) ((SqlCall) selected).operand(1)).getSimple()
                    : selected instanceof SqlIdentifier id ? Util.last(id.names) : null;
            if (name == null) {
                throw SupportCheck.unsupported("LIMIT ... % ordered by the position of a column without a name (name "
                        + "it with AS)", item.getParserPosition());
            }
            return new SqlIdentifier(name, item.getParserPosition());
        }
        if (expressions && item instanceof SqlIdentifier id && id.isSimple()) {
            for (SqlNode selected : items) {
                if (selected.getKind() == SqlKind.AS && selected instanceof SqlBasicCall as
                        && ((SqlIdentifier) as.operand(1)).getSimple().equalsIgnoreCase(id.getSimple())) {
                    return as.operand(0);
                }
            }
        }
        return item;
    }

    /** The select list of a query's first SELECT (of a set operation, its leftmost; of a WITH, its body's); or null. */
    private static SqlNodeList firstSelectList(SqlNode query) {
        if (query instanceof SqlSelect s) {
            return s.getSelectList();
        }
        if (query instanceof SqlWith w) {
            return firstSelectList(w.body);
        }
        if (query instanceof SqlOrderBy o) {
            return firstSelectList(o.query);
        }
        if (query instanceof SqlCall c && SqlKind.SET_QUERY.contains(c.getKind())) {
            return firstSelectList(c.operand(0));
        }
        return null;
    }

    private static SqlNode unwrap(SqlNode item) {
        SqlKind k = item.getKind();
        if (k == SqlKind.DESCENDING || k == SqlKind.NULLS_FIRST || k == SqlKind.NULLS_LAST) {
            return unwrap(((SqlCall) item).operand(0));
        }
        return item;
    }
}
