package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * DuckDB's ORDER BY inside an aggregate's parentheses beyond LIST's and STRING_AGG's (sql.HolisticAggregates):
 * <ul>
 * <li>FIRST and LAST, the value (NULL too) of a group's first or last row in the order inside (in no order without
 * one), and ARG_MIN and ARG_MAX (MIN_BY and MAX_BY), the value at the row of the least or greatest key among the
 * rows where neither is NULL: each the element of a LIST it picks, {@code first(x ORDER BY k) FILTER (WHERE c)} as
 * {@code list(x ORDER BY k) FILTER (WHERE c)[1]}, LAST {@code [-1]}, {@code arg_min(x, k)} as
 * {@code list(x ORDER BY k) FILTER (WHERE x IS NOT NULL AND k IS NOT NULL)[1]} (NULL over no rows, as DuckDB's);
 * with a count, {@code arg_min(x, k, n)}, the list's first n, {@code list_slice(..., 1, n)}, and so DuckDB's
 * {@code min(x, n)} and {@code max(x, n)} as {@code arg_min(x, x, n)} and {@code arg_max(x, x, n)};
 * {@code arg_min_null(x, k)} likewise over the rows where k is not NULL (x may be), {@code arg_min_nulls_last(x, k)}
 * over all rows, NULL keys last;</li>
 * <li>an aggregate whose value no order changes (SUM, COUNT, MIN, ...) with its ORDER BY left out, as DuckDB
 * ignores it;</li>
 * <li>DISTINCT with an ORDER BY key that is not one of the arguments refused, as DuckDB refuses it.</li>
 * </ul>
 * Run after ColumnNames, so a result column keeps the name of the call as written.
 */
final class OrderedAggregates {

    private OrderedAggregates() {
    }

    /** The aggregates rewritten here as an element of a LIST. */
    static final Set<String> PICKS = Set.of("FIRST", "LAST", "ARG_MIN", "ARG_MAX", "MIN_BY", "MAX_BY",
            "ARG_MIN_NULL", "ARG_MAX_NULL", "ARG_MIN_NULLS_LAST", "ARG_MAX_NULLS_LAST");

    /** Whether an ORDER BY may stand inside the parentheses of the named aggregate, to be rewritten here. */
    static boolean orderAllowed(String name) {
        return PICKS.contains(name) || ORDER_FREE.contains(name);
    }

    /**
     * Aggregates whose value is the same in any order of the group's rows. Not MODE: DuckDB breaks its ties by the
     * ORDER BY ({@code mode(x ORDER BY y DESC)} of x = 1, 2, 1, 2 by y = 1 to 4 is 2, by y ascending 1).
     */
    private static final Set<String> ORDER_FREE = Set.of("SUM", "COUNT", "MIN", "MAX", "AVG", "MEDIAN",
            "QUANTILE_CONT", "QUANTILE_DISC", "QUANTILE", "STDDEV", "STDDEV_SAMP", "STDDEV_POP", "VARIANCE",
            "VAR_SAMP", "VAR_POP", "BOOL_AND", "BOOL_OR", "EVERY", "APPROX_COUNT_DISTINCT", "SUM0", "$SUM0",
            "COUNT_STAR", "BIT_AND", "BIT_OR", "BIT_XOR", "COVAR_POP", "COVAR_SAMP", "CORR");

    static SqlNode rewrite(SqlNode parsed) {
        return parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.OVER && picks(inner(call.operand(0)))) {
                    SqlCall fn = inner(call.operand(0));
                    throw SupportCheck.unsupported("window function " + name(fn).toLowerCase(Locale.ROOT) + "(...)",
                            fn.getParserPosition());
                }
                if (call.getKind() == SqlKind.FILTER && picks(call.operand(0))) {
                    return pick((SqlCall) call.operand(0), call.operand(1).accept(this), this);
                }
                if (picks(call)) {
                    return pick(call, null, this);
                }
                SqlNodeList order = order(call);
                String name = name(call);
                if (order != null && call.getFunctionQuantifier() != null
                        && call.getFunctionQuantifier().getValue() == org.apache.calcite.sql.SqlSelectKeyword.DISTINCT) {
                    checkDistinctOrder(call, order);
                }
                if (order != null && ORDER_FREE.contains(name) && call instanceof SqlBasicCall basic) {
                    List<SqlNode> operands = call.getOperandList().subList(0, call.operandCount() - 1);
                    call = new SqlBasicCall(basic.getOperator(), operands, basic.getParserPosition(),
                            basic.getFunctionQuantifier());
                }
                return super.visit(call);
            }
        });
    }

    private static SqlCall inner(SqlNode n) {
        if (n instanceof SqlCall c && c.getKind() == SqlKind.FILTER) {
            return c.operand(0);
        }
        return n instanceof SqlCall c ? c : null;
    }

    private static boolean picks(SqlNode n) {
        return n instanceof SqlCall c && c.getKind() != SqlKind.OVER && c.getKind() != SqlKind.FILTER
                && (PICKS.contains(name(c)) || topN(c));
    }

    /** Whether the call is DuckDB's {@code min(x, n)} or {@code max(x, n)}: the n least or greatest values. */
    private static boolean topN(SqlCall c) {
        return (name(c).equals("MIN") || name(c).equals("MAX")) && c.operandCount() == 2
                && !(c.operand(1) instanceof SqlNodeList);
    }

    private static String name(SqlCall c) {
        return c == null ? "" : c.getOperator().getName().toUpperCase(Locale.ROOT);
    }

    /** The ORDER BY list inside the call's parentheses (its last operand, as the grammar gives it), or null. */
    private static SqlNodeList order(SqlCall call) {
        List<SqlNode> ops = call.getOperandList();
        return !ops.isEmpty() && ops.get(ops.size() - 1) instanceof SqlNodeList l ? l : null;
    }

    /** DuckDB's rule: in a DISTINCT aggregate, each ORDER BY key is one of the arguments. */
    static void checkDistinctOrder(SqlCall call, SqlNodeList order) {
        List<SqlNode> args = call.getOperandList().subList(0, call.operandCount() - 1);
        for (SqlNode key : order) {
            SqlNode k = key;
            while (k instanceof SqlCall c && (c.getKind() == SqlKind.DESCENDING || c.getKind() == SqlKind.NULLS_FIRST
                    || c.getKind() == SqlKind.NULLS_LAST)) {
                k = c.operand(0);
            }
            SqlNode keyExpr = k;
            if (args.stream().noneMatch(a -> a.equalsDeep(keyExpr, org.apache.calcite.util.Litmus.IGNORE))) {
                throw new SqlError("in a DISTINCT aggregate, ORDER BY expressions must appear in the argument list ("
                        + call.getOperator().getName().toLowerCase(Locale.ROOT) + SupportCheck.at(key.getParserPosition())
                        + ")");
            }
        }
    }

    /** The count of {@code arg_max(x, k, n)} and {@code max(x, n)}: a constant integer above 0, as DuckDB wants. */
    private static SqlNode count(String function, SqlNode n) {
        java.math.BigDecimal v = n instanceof org.apache.calcite.sql.SqlNumericLiteral lit && lit.isExact()
                ? lit.getValueAs(java.math.BigDecimal.class) : null;
        if (n instanceof SqlLiteral lit && lit.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            throw new SqlError(function + ": the count n cannot be NULL" + SupportCheck.at(n.getParserPosition()));
        }
        if (v == null && n instanceof SqlCall minus && minus.getKind() == SqlKind.MINUS_PREFIX) {
            throw new SqlError(function + ": the count n must be > 0" + SupportCheck.at(n.getParserPosition()));
        }
        if (v == null || v.scale() > 0 && v.stripTrailingZeros().scale() > 0) {
            throw SupportCheck.unsupported(function + " with a count n that is not a constant integer",
                    n.getParserPosition());
        }
        if (v.signum() <= 0) {
            throw new SqlError(function + ": the count n must be > 0" + SupportCheck.at(n.getParserPosition()));
        }
        return n;
    }

    /** The LIST element the call picks, its FILTER (or null) added to the list's. */
    private static SqlNode pick(SqlCall call, SqlNode filter, SqlShuttle inside) {
        String name = name(call);
        String lower = name.toLowerCase(Locale.ROOT);
        SqlParserPos pos = call.getParserPosition();
        SqlNodeList order = order(call);
        List<SqlNode> args = new ArrayList<>();
        for (SqlNode a : order == null ? call.getOperandList() : call.getOperandList().subList(0, call.operandCount() - 1)) {
            args.add(a.accept(inside));
        }
        boolean topN = topN(call);
        if (topN) {
            if (order != null) {
                throw SupportCheck.unsupported("ORDER BY inside " + lower + "(...)", pos);
            }
            // min(x, n) as arg_min(x, x, n)
            args = List.of(args.get(0), args.get(0).clone(args.get(0).getParserPosition()), args.get(1));
        }
        boolean byKey = !name.equals("FIRST") && !name.equals("LAST");
        SqlNode count = null;
        boolean withNulls = name.endsWith("_NULL") || name.endsWith("_NULLS_LAST");
        if (byKey && !withNulls && args.size() == 3) { // arg_max(x, k, n): the list of the first n
            count = count(lower, args.get(2));
            args = args.subList(0, 2);
        }
        if (args.size() != (byKey ? 2 : 1)) {
            throw new SqlError(lower + " takes " + (byKey ? "two arguments (a value and a key)" : "one argument")
                    + SupportCheck.at(pos));
        }
        if (order != null) {
            order = (SqlNodeList) order.accept(inside);
            if (call.getFunctionQuantifier() != null
                    && call.getFunctionQuantifier().getValue() == org.apache.calcite.sql.SqlSelectKeyword.DISTINCT) {
                checkDistinctOrder(call, order);
            }
        }
        SqlLiteral quantifier = call.getFunctionQuantifier();
        if (byKey) {
            if (order != null) {
                throw SupportCheck.unsupported("ORDER BY inside " + lower + "(...)", pos);
            }
            SqlNode key = args.get(1);
            boolean least = name.startsWith("ARG_MIN") || name.equals("MIN_BY") || name.equals("MIN");
            SqlNode ordered = least ? key : SqlStdOperatorTable.DESC.createCall(pos, key);
            order = new SqlNodeList(List.of(name.endsWith("_NULLS_LAST")
                    ? SqlStdOperatorTable.NULLS_LAST.createCall(pos, ordered) : ordered), pos);
            // arg_max_null keeps a NULL value, arg_max_nulls_last also a NULL key (after every other key)
            SqlNode present = name.endsWith("_NULL") ? SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, key)
                    : name.endsWith("_NULLS_LAST") ? null
                    : SqlStdOperatorTable.AND.createCall(pos,
                    SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, args.get(0)),
                    SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, key));
            filter = present == null ? filter : filter == null ? present
                    : SqlStdOperatorTable.AND.createCall(pos, filter, present);
            args = List.of(args.get(0));
        }
        List<SqlNode> listArgs = new ArrayList<>(args);
        if (order != null) {
            listArgs.add(order);
        }
        SqlNode list = HolisticAggregates.LIST.createCall(quantifier, pos, listArgs.toArray(new SqlNode[0]));
        if (filter != null) {
            list = SqlStdOperatorTable.FILTER.createCall(pos, list, filter);
        }
        SqlLiteral one = SqlLiteral.createExactNumeric("1", pos);
        if (count != null) {
            return new SqlBasicCall(UnresolvedCalls.function("LIST_SLICE"), List.of(list, one, count), pos);
        }
        return SqlStdOperatorTable.ITEM.createCall(pos, list,
                name.equals("LAST") ? SqlLiteral.createNegative((org.apache.calcite.sql.SqlNumericLiteral) one, pos) : one);
    }
}
