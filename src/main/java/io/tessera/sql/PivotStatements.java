package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlPivot;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's PIVOT statement ({@link PivotStatement}) as the standard PIVOT, as DuckDB plans it: the values of each ON
 * item that IN does not list are read first, by a query of the distinct values as text, sorted, NULL left out ({@link
 * PivotValues}); the item is then compared as text with each, and a column made for every combination of the items'
 * values (several ON items: {@code a_b}), named by the values (an empty string {@code ''}) and, where USING has more
 * than one aggregate or names one, the aggregate's name after an underscore ({@code 2000_total},
 * {@code 2000_sum(x)}). The rows are grouped by the GROUP BY names, or else by every column that no ON item and no
 * aggregate reads. Without ON it is the aggregation; with no values at all, the groups alone. More than {@link
 * #LIMIT} columns of values is DuckDB's error.
 */
final class PivotStatements {

    /** DuckDB's pivot_limit: the most combinations of values a PIVOT statement may make columns of. */
    static final int LIMIT = 100_000;

    private final PivotValues values;

    private PivotStatements(PivotValues values) {
        this.values = values;
    }

    /** {@code node} with every PIVOT statement in it made the standard PIVOT, in place. */
    static SqlNode expand(SqlNode node, PivotValues values) {
        new PivotStatements(values).walk(node, List.of());
        return node;
    }

    /** Walks a tree with the WITH queries a query at this place may name (the values queries need them). */
    private void walk(SqlNode node, List<SqlWithItem> scope) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                if (item != null) {
                    walk(item, scope);
                }
            }
        } else if (node instanceof SqlWith with) {
            List<SqlWithItem> inner = new ArrayList<>(scope);
            for (SqlNode item : with.withList) {
                SqlWithItem w = (SqlWithItem) item;
                walk(w.query, inner);
                inner.add(w);
            }
            walk(with.body, inner);
        } else if (node instanceof SqlSelect select && select.getFrom() instanceof PivotStatement pivot) {
            walk(pivot.table, scope);
            select.setFrom(expand(pivot, scope));
        } else if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    walk(operand, scope);
                }
            }
        }
    }

    /** One value of an ON item: the node compared with the item, and the name it gives its columns. */
    private record Value(SqlNode node, String name) {
    }

    private SqlNode expand(PivotStatement p, List<SqlWithItem> scope) {
        SqlParserPos pos = p.getParserPosition();
        List<SqlNode> using = p.using.isEmpty()
                ? List.of(SqlStdOperatorTable.COUNT.createCall(pos, SqlIdentifier.star(pos))) : p.using;
        if (p.on.isEmpty()) {
            return aggregation(p, using);
        }
        List<List<Value>> perItem = new ArrayList<>();
        long combinations = 1;
        for (int i = 0; i < p.on.size(); i++) {
            SqlNode on = p.on.get(i);
            if (on instanceof SqlBasicCall row && row.getKind() == SqlKind.ROW) {
                throw new SqlError("unsupported: PIVOT ON a row of columns (a, b)"
                        + SupportCheck.at(on.getParserPosition()) + "; write ON a, b");
            }
            List<Value> item = p.in.get(i) != null ? listed(p.in.get(i)) : read(p.table, on, scope);
            perItem.add(item);
            combinations *= item.size();
            if (combinations > LIMIT) {
                throw new SqlError("Pivot column limit of " + LIMIT + " exceeded" + SupportCheck.at(pos)
                        + " (DuckDB's pivot_limit)");
            }
        }
        Map<String, SqlIdentifier> measured = columnsRead(using);
        SqlNodeList input = inputColumns(p, measured, pos);
        List<SqlNode> axes = new ArrayList<>();
        for (int i = 0; i < p.on.size(); i++) {
            // the column each ON item is compared as, named twice by nodes of their own (the validator qualifies names
            // in place)
            String axis = "__pivot_on_" + (i + 1);
            SqlNode on = SqlCopies.deep(p.on.get(i));
            SqlNode compared = p.in.get(i) != null ? on : asText(on);
            input.add(SqlStdOperatorTable.AS.createCall(pos, compared, new SqlIdentifier(axis, pos)));
            axes.add(new SqlIdentifier(axis, pos));
        }
        if (combinations == 0) {
            // no value: no column of values, the groups alone
            return distinctGroups(p, measured, pos);
        }
        SqlSelect rows = select(pos, input, p.table, null);
        List<SqlNode> in = new ArrayList<>();
        for (List<Value> combination : combinations(perItem)) {
            List<SqlNode> tuple = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (Value v : combination) {
                tuple.add(SqlCopies.deep(v.node()));
                names.add(v.name());
            }
            in.add(SqlStdOperatorTable.AS.createCall(pos, new SqlNodeList(tuple, pos),
                    new SqlIdentifier(String.join("_", names), pos)));
        }
        return new SqlPivot(pos, rows, new SqlNodeList(measures(using), pos), new SqlNodeList(axes, pos),
                new SqlNodeList(in, pos));
    }

    /** PIVOT without ON: the aggregates, by the GROUP BY names. */
    private static SqlNode aggregation(PivotStatement p, List<SqlNode> using) {
        SqlParserPos pos = p.getParserPosition();
        SqlNodeList items = new SqlNodeList(pos);
        items.addAll(p.groupBy);
        items.addAll(using);
        return select(pos, items, p.table, p.groupBy.isEmpty() ? null : new SqlNodeList(p.groupBy, pos));
    }

    /** The aggregates, each named where DuckDB's column names show it: more than one, or one with a name. */
    private static List<SqlNode> measures(List<SqlNode> using) {
        if (using.size() == 1) {
            return using;
        }
        List<SqlNode> named = new ArrayList<>();
        for (SqlNode agg : using) {
            named.add(agg.getKind() == SqlKind.AS ? agg : SqlStdOperatorTable.AS.createCall(agg.getParserPosition(),
                    agg, new SqlIdentifier(ColumnNames.of(agg), agg.getParserPosition())));
        }
        return named;
    }

    /**
     * The columns the PIVOT reads besides its ON items: the GROUP BY names and the columns the aggregates read, or,
     * without GROUP BY, every column but those that only the ON items read (the grouping of the standard PIVOT then
     * takes every column that is no aggregate's).
     */
    private static SqlNodeList inputColumns(PivotStatement p, Map<String, SqlIdentifier> measured, SqlParserPos pos) {
        SqlNodeList items = new SqlNodeList(pos);
        if (p.groupBy.isEmpty()) {
            items.add(starWithout(p, measured, pos));
            return items;
        }
        Map<String, SqlIdentifier> columns = new LinkedHashMap<>();
        for (SqlIdentifier g : p.groupBy) {
            columns.putIfAbsent(key(g), g);
        }
        measured.forEach(columns::putIfAbsent);
        for (SqlIdentifier c : columns.values()) {
            items.add(c.clone(c.getParserPosition()));
        }
        return items;
    }

    /** The groups where there is no value to make a column of: the distinct rows of the grouping columns. */
    private static SqlSelect distinctGroups(PivotStatement p, Map<String, SqlIdentifier> measured,
                                            SqlParserPos pos) {
        SqlNodeList items = new SqlNodeList(pos);
        if (p.groupBy.isEmpty()) {
            Map<String, SqlIdentifier> read = new LinkedHashMap<>(measured);
            for (SqlNode on : p.on) {
                columnsRead(List.of(on)).forEach(read::putIfAbsent);
            }
            items.add(new AllColumns.ModifiedStar(SqlIdentifier.star(pos), new ArrayList<>(read.values()), pos));
        } else {
            for (SqlIdentifier g : p.groupBy) {
                items.add(g.clone(g.getParserPosition()));
            }
        }
        return new SqlSelect(pos, SqlNodeList.of(SqlLiteral.createSymbol(SqlSelectKeyword.DISTINCT, pos)), items,
                p.table, null, null, null, null, null, null, null, null, null);
    }

    /** {@code * EXCLUDE (...)} of the columns the ON items read that no aggregate reads; a plain star where none. */
    private static SqlIdentifier starWithout(PivotStatement p, Map<String, SqlIdentifier> measured,
                                             SqlParserPos pos) {
        Map<String, SqlIdentifier> onlyOn = new LinkedHashMap<>();
        for (SqlNode on : p.on) {
            columnsRead(List.of(on)).forEach(onlyOn::putIfAbsent);
        }
        measured.keySet().forEach(onlyOn::remove);
        return new AllColumns.ModifiedStar(SqlIdentifier.star(pos), new ArrayList<>(onlyOn.values()), pos);
    }

    /** The columns that expressions read, by lower-case name (a qualified name by its last part). */
    private static Map<String, SqlIdentifier> columnsRead(List<SqlNode> expressions) {
        Map<String, SqlIdentifier> out = new LinkedHashMap<>();
        for (SqlNode e : expressions) {
            e.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlIdentifier id) {
                    if (!id.isStar()) {
                        String last = id.names.get(id.names.size() - 1);
                        out.putIfAbsent(last.toLowerCase(Locale.ROOT), new SqlIdentifier(last, id.getParserPosition()));
                    }
                    return null;
                }

                @Override
                public Void visit(SqlDataTypeSpec type) {
                    return null; // a type's name is no column
                }

                @Override
                public Void visit(SqlCall call) {
                    if (call.getKind() == SqlKind.AS) {
                        return call.operand(0).accept(this); // an alias is no column
                    }
                    return super.visit(call);
                }
            });
        }
        return out;
    }

    private static String key(SqlIdentifier id) {
        return id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT);
    }

    /** The values IN lists: each compared as written, named by its alias, else by its text. */
    private static List<Value> listed(SqlNodeList in) {
        List<Value> out = new ArrayList<>();
        for (SqlNode item : in) {
            SqlNode value = item;
            String alias = null;
            if (item.getKind() == SqlKind.AS) {
                value = ((SqlCall) item).operand(0);
                alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
            }
            if (value instanceof SqlNodeList tuple) {
                if (tuple.size() != 1) {
                    throw SupportCheck.unsupported("a PIVOT ON value of " + tuple.size() + " parts",
                            tuple.getParserPosition());
                }
                value = tuple.get(0);
            }
            out.add(new Value(value, alias != null ? alias : nameOf(value)));
        }
        return out;
    }

    private static String nameOf(SqlNode value) {
        if (value instanceof SqlCharStringLiteral s) {
            return textName(s.getValueAs(String.class));
        }
        return ColumnNames.of(value);
    }

    /** A column's name from a value's text, as DuckDB forms it: the text, {@code ''} for the empty string. */
    private static String textName(String text) {
        return text.isEmpty() ? "''" : text;
    }

    /** The distinct values of an ON item as text, in order, NULL left out: the query DuckDB runs before it plans. */
    private List<Value> read(SqlNode table, SqlNode on, List<SqlWithItem> scope) {
        SqlParserPos pos = on.getParserPosition();
        SqlNodeList item = SqlNodeList.of(SqlStdOperatorTable.AS.createCall(pos, asText(SqlCopies.deep(on)),
                new SqlIdentifier("value", pos)));
        SqlSelect select = new SqlSelect(pos, SqlNodeList.of(SqlLiteral.createSymbol(SqlSelectKeyword.DISTINCT,
                pos)), item, SqlCopies.deep(table), SqlStdOperatorTable.IS_NOT_NULL.createCall(pos,
                SqlCopies.deep(on)), null, null, null, null, null, null, null, null);
        SqlNode query = new SqlOrderBy(pos, select, SqlNodeList.of(SqlLiteral.createExactNumeric("1", pos)), null,
                SqlLiteral.createExactNumeric(Integer.toString(LIMIT + 1), pos));
        if (!scope.isEmpty()) {
            List<SqlNode> items = new ArrayList<>();
            for (SqlWithItem w : scope) {
                items.add(SqlCopies.deep(w));
            }
            query = new SqlWith(pos, new SqlNodeList(items, pos), query);
        }
        List<Value> out = new ArrayList<>();
        for (String v : values.read(query)) {
            out.add(new Value(SqlLiteral.createCharString(v, pos), textName(v)));
        }
        return out;
    }

    private static SqlNode asText(SqlNode e) {
        SqlParserPos pos = e.getParserPosition();
        return SqlStdOperatorTable.CAST.createCall(pos, e, new SqlDataTypeSpec(
                new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos));
    }

    /** Every combination of one value of each item, the first item's values outermost. */
    private static List<List<Value>> combinations(List<List<Value>> perItem) {
        List<List<Value>> out = new ArrayList<>();
        out.add(List.of());
        for (List<Value> item : perItem) {
            List<List<Value>> next = new ArrayList<>();
            for (List<Value> prefix : out) {
                for (Value v : item) {
                    List<Value> longer = new ArrayList<>(prefix);
                    longer.add(v);
                    next.add(longer);
                }
            }
            out = next;
        }
        return out;
    }

    /** {@code SELECT items FROM table [GROUP BY ...]}. */
    private static SqlSelect select(SqlParserPos pos, SqlNodeList items, SqlNode table, SqlNodeList groupBy) {
        return new SqlSelect(pos, SqlNodeList.EMPTY, items, table, null, groupBy, null, null, null, null, null, null,
                null);
    }
}
