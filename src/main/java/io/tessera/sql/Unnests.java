package io.tessera.sql;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's {@code unnest(list)} as Calcite's UNNEST in FROM, before validation (the rows are made by
 * {@link UnnestJoins}).
 * <ul>
 * <li>In FROM, {@code unnest(l) [AS u[(x)]]} (which the parser reads as a table function) becomes {@code UNNEST(l)},
 * its column named as DuckDB names it: {@code x}, else the alias {@code u}, else {@code unnest}.</li>
 * <li>In a SELECT list, {@code SELECT a, unnest(l) AS x FROM ...} becomes
 * {@code SELECT q.c1 AS a, u.e1 AS x FROM (SELECT a AS c1, l AS l1 FROM ...) q, UNNEST(q.l1) u(e1)}: the query's own
 * rows first (after its WHERE, GROUP BY and HAVING), then one row per element; several unnests of one list zip
 * their lists, the shorter ones padded with NULL, as DuckDB's do. DISTINCT, ORDER BY and LIMIT apply to the
 * unnested rows.</li>
 * </ul>
 */
final class Unnests {
    private Unnests() {
    }

    /** The statement with every unnest rewritten (in place where the tree allows). */
    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlOrderBy ob && ob.query instanceof SqlSelect select
                        && select.getOrderList() == null && select.getFetch() == null && select.getOffset() == null
                        && select.getSelectList() != null && select.getSelectList().stream().anyMatch(
                                Unnests::containsUnnest)) {
                    // the parser holds a query's ORDER BY apart: it joins the SELECT, whose keys may read FROM
                    select.setOrderBy(ob.orderList);
                    select.setOffset(ob.offset);
                    select.setFetch(ob.fetch);
                    return visit(select);
                }
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlSelect select) {
                    rewriteFrom(select);
                    return selectList(select);
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }

    private static boolean isUnnest(SqlNode node) {
        return node instanceof SqlBasicCall c && c.getOperator().getName().equalsIgnoreCase("UNNEST")
                && c.getKind() != SqlKind.UNNEST;
    }

    // ---- FROM unnest(...) ----

    private static void rewriteFrom(SqlSelect select) {
        if (select.getFrom() != null) {
            select.setFrom(fromItem(select.getFrom()));
        }
    }

    private static SqlNode fromItem(SqlNode item) {
        if (item instanceof SqlJoin join) {
            join.setLeft(fromItem(join.getLeft()));
            join.setRight(fromItem(join.getRight()));
            return join;
        }
        SqlNode table = item;
        SqlIdentifier alias = null;
        List<SqlNode> columns = List.of();
        if (item.getKind() == SqlKind.AS) {
            List<SqlNode> ops = ((SqlCall) item).getOperandList();
            table = ops.get(0);
            alias = (SqlIdentifier) ops.get(1);
            columns = ops.subList(2, ops.size());
        }
        if (table.getKind() != SqlKind.COLLECTION_TABLE || !isUnnest(((SqlCall) table).operand(0))) {
            return item;
        }
        SqlCall fn = ((SqlCall) table).operand(0);
        SqlParserPos pos = fn.getParserPosition();
        if (fn.getOperandList().isEmpty()) {
            throw new SqlError("unnest needs a list" + SupportCheck.at(pos));
        }
        SqlNode unnest = SqlStdOperatorTable.UNNEST.createCall(pos, fn.getOperandList());
        List<SqlNode> as = new ArrayList<>();
        as.add(unnest);
        as.add(alias != null ? alias : new SqlIdentifier("unnest", pos));
        if (!columns.isEmpty()) {
            as.addAll(columns);
        } else if (fn.operandCount() == 1) {
            as.add(alias != null ? alias : new SqlIdentifier("unnest", pos));
        }
        return SqlStdOperatorTable.AS.createCall(pos, as);
    }

    // ---- SELECT unnest(...) ----

    private static SqlNode selectList(SqlSelect select) {
        SqlNodeList items = select.getSelectList();
        if (items == null || items.stream().noneMatch(Unnests::containsUnnest)) {
            return select;
        }
        SqlParserPos pos = select.getParserPosition();
        List<SqlNode> inner = new ArrayList<>();
        List<SqlNode> outer = new ArrayList<>();
        List<SqlNode> lists = new ArrayList<>();
        List<SqlNode> elements = new ArrayList<>();
        for (SqlNode item : items) {
            SqlNode expr = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            SqlParserPos at = item.getParserPosition();
            String name = item.getKind() == SqlKind.AS ? ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple()
                    : item instanceof SqlIdentifier id ? Util.last(id.names) : ColumnNames.of(item);
            if (item instanceof SqlIdentifier id && id.isStar()) {
                throw new SqlError("unsupported: * beside unnest(...) in a SELECT list" + SupportCheck.at(at)
                        + "; name the columns");
            }
            if (!containsUnnest(expr)) {
                String c = "__c" + inner.size();
                inner.add(SqlStdOperatorTable.AS.createCall(at, expr, new SqlIdentifier(c, at)));
                outer.add(SqlStdOperatorTable.AS.createCall(at, new SqlIdentifier(List.of("__q", c), at),
                        new SqlIdentifier(name, at)));
                continue;
            }
            SqlNode replaced = expr.accept(new SqlShuttle() {
                @Override
                public SqlNode visit(SqlCall call) {
                    if (!isUnnest(call)) {
                        return super.visit(call);
                    }
                    if (call.operandCount() != 1) {
                        throw new SqlError("unsupported: unnest of " + call.operandCount() + " arguments"
                                + SupportCheck.at(call.getParserPosition()) + " (one list)");
                    }
                    SqlNode list = call.operand(0);
                    if (containsUnnest(list)) {
                        throw new SqlError("unsupported: unnest inside unnest" + SupportCheck.at(call.getParserPosition()));
                    }
                    String l = "__l" + lists.size();
                    String e = "__e" + lists.size();
                    SqlParserPos p = call.getParserPosition();
                    inner.add(SqlStdOperatorTable.AS.createCall(p, list, new SqlIdentifier(l, p)));
                    lists.add(new SqlIdentifier(List.of("__q", l), p));
                    elements.add(new SqlIdentifier(e, p));
                    return new SqlIdentifier(List.of("__u", e), p);
                }

                @Override
                public SqlNode visit(SqlIdentifier id) {
                    throw new SqlError("unsupported: the column " + id + " beside unnest(...) in one expression"
                            + SupportCheck.at(id.getParserPosition()) + "; select it as a column of its own");
                }
            });
            outer.add(SqlStdOperatorTable.AS.createCall(at, replaced, new SqlIdentifier(name, at)));
        }
        SqlNodeList order = orderOverInner(select.getOrderList(), outer, inner);
        SqlSelect query = new SqlSelect(pos, null, new SqlNodeList(inner, pos), select.getFrom(), select.getWhere(),
                select.getGroup(), select.getHaving(), select.getWindowList(), null, null, null, select.getHints());
        query.setQualify(select.getQualify());
        List<SqlNode> unnestAs = new ArrayList<>();
        unnestAs.add(SqlStdOperatorTable.UNNEST.createCall(pos, lists));
        unnestAs.add(new SqlIdentifier("__u", pos));
        unnestAs.addAll(elements);
        SqlNode from = new SqlJoin(pos,
                SqlStdOperatorTable.AS.createCall(pos, query, new SqlIdentifier("__q", pos)),
                SqlLiteral.createBoolean(false, pos), JoinType.COMMA.symbol(pos),
                SqlStdOperatorTable.AS.createCall(pos, unnestAs), JoinConditionType.NONE.symbol(pos), null);
        return new SqlSelect(pos, (SqlNodeList) select.getOperandList().get(0), new SqlNodeList(outer, pos), from, null,
                null, null, null, order, select.getOffset(), select.getFetch(), null);
    }

    /**
     * The ORDER BY of the rewritten query: a key that names no column of the SELECT list and holds no unnest
     * ({@code ORDER BY r_name} over {@code SELECT unnest([r_regionkey]) FROM region}) is computed by the inner query as
     * a column of its own and read from there, as DuckDB orders by a column of FROM; a key that names an item of the
     * list, or its position, stays as written.
     */
    private static SqlNodeList orderOverInner(SqlNodeList order, List<SqlNode> outer, List<SqlNode> inner) {
        if (order == null) {
            return null;
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (SqlNode item : outer) {
            names.add(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple().toLowerCase(java.util.Locale.ROOT));
        }
        List<SqlNode> keys = new ArrayList<>();
        for (SqlNode key : order) {
            keys.add(overInner(key, names, inner));
        }
        return new SqlNodeList(keys, order.getParserPosition());
    }

    private static SqlNode overInner(SqlNode key, java.util.Set<String> names, List<SqlNode> inner) {
        if (key instanceof SqlCall c && (c.getKind() == SqlKind.DESCENDING || c.getKind() == SqlKind.NULLS_FIRST
                || c.getKind() == SqlKind.NULLS_LAST)) {
            SqlNode operand = overInner(c.operand(0), names, inner);
            return c.getOperator().createCall(c.getParserPosition(), operand);
        }
        if (key instanceof SqlLiteral || containsUnnest(key) || readsAny(key, names)) {
            return key;
        }
        SqlParserPos p = key.getParserPosition();
        String o = "__o" + inner.size();
        inner.add(SqlStdOperatorTable.AS.createCall(p, key, new SqlIdentifier(o, p)));
        return new SqlIdentifier(List.of("__q", o), p);
    }

    /** Whether {@code node} holds an identifier whose last part is one of {@code names} (lower case). */
    private static boolean readsAny(SqlNode node, java.util.Set<String> names) {
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                found[0] |= names.contains(Util.last(id.names).toLowerCase(java.util.Locale.ROOT));
                return null;
            }
        });
        return found[0];
    }

    /** Whether {@code node} calls unnest outside a subquery. */
    private static boolean containsUnnest(SqlNode node) {
        boolean[] found = {false};
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (isUnnest(call)) {
                    found[0] = true;
                    return null;
                }
                if (call instanceof SqlSelect) {
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }
}
