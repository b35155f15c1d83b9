package io.tessera.sql;

import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.validate.SqlNameMatchers;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * DuckDB's {@code l POSITIONAL JOIN r}: the first row of each side together, then the second, ...; the shorter
 * side's missing rows NULL. A side's rows are numbered in the order it gives them (a table's stored order, a
 * subquery's order) by {@code row_number() OVER ()} in a column named {@link #POSITION}, which no {@code *} shows
 * ({@link TesseraValidator}), the side keeping its name: {@code (SELECT *, row_number() OVER () AS "#position" FROM
 * l) AS l FULL JOIN (... r) AS r ON l."#position" = r."#position"}; a chain of them joins on the first position that
 * is not NULL. A SELECT whose FROM is such a join, which neither groups, aggregates nor orders, gives its rows in
 * that order. A side of a stored table of more than {@link #MOST_ROWS} rows, or a subquery ordered without LIMIT
 * (whose order is dropped in FROM), is refused.
 */
final class PositionalJoins {

    /** The name of the column that numbers a side's rows. */
    static final String POSITION = "#position";

    private PositionalJoins() {
    }

    /**
     * The most rows of a stored table that a side may read: Tessera reads a table's rows in morsels of at least this
     * many (the smallest morsel of any genome, variant.JvmVariantSpace.MIN_MORSEL), and the morsels of a larger one
     * on several workers, whose rows come in no fixed order, so that numbering them would pair rows at random.
     */
    static final long MOST_ROWS = 1024;

    /**
     * {@code statement} with its positional joins as full joins on row numbers; {@code storedRows} gives the rows of
     * a stored table by name (-1: no stored table of that name).
     */
    static SqlNode rewrite(SqlNode statement, ToLongFunction<String> storedRows) {
        Map<SqlSelect, List<String>> ordered = new IdentityHashMap<>();
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    List<String> sides = positions(select.getFrom(), storedRows);
                    if (sides != null && unordered(select)) {
                        ordered.put(select, sides);
                    }
                }
                return super.visit(call);
            }
        });
        if (ordered.isEmpty()) {
            return statement;
        }
        // the order goes into the SELECT, with the LIMIT and OFFSET of an ORDER BY node around it, which has no
        // order of its own (the validator would put a SELECT with its own order in a subquery)
        SqlNode rewritten = statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlOrderBy by && by.query instanceof SqlSelect select
                        && ordered.containsKey(select)) {
                    SqlNode query = by.query.accept(this);
                    if (!by.orderList.isEmpty()) {
                        ordered.remove(select);
                        return by.getOperator().createCall(by.getParserPosition(), query, by.orderList, by.offset,
                                by.fetch);
                    }
                    select.setOffset(by.offset);
                    select.setFetch(by.fetch);
                    return query;
                }
                return super.visit(call);
            }
        });
        ordered.forEach((select, sides) ->
                select.setOrderBy(SqlNodeList.of(position(sides, select.getFrom().getParserPosition()))));
        return rewritten;
    }

    /**
     * Rewrites the positional joins in the FROM item {@code item}; where {@code item} is one, the names of the sides
     * whose positions it pairs, else null.
     */
    private static List<String> positions(SqlNode item, ToLongFunction<String> storedRows) {
        if (item.getKind() == SqlKind.AS && ((SqlCall) item).operand(0) instanceof SqlJoin inner) {
            positions(inner, storedRows);
            return null;
        }
        if (!(item instanceof SqlJoin join)) {
            return null;
        }
        List<String> left = positions(join.getLeft(), storedRows);
        List<String> right = positions(join.getRight(), storedRows);
        if (DuckDbJoin.kindOf(join) != DuckDbJoin.Kind.POSITIONAL) {
            return null;
        }
        SqlParserPos pos = join.getJoinTypeNode().getParserPosition();
        if (join.getConditionType() != JoinConditionType.NONE) {
            throw new SqlError("POSITIONAL JOIN takes no join condition: "
                    + join.getConditionType().name() + SupportCheck.at(join.getConditionTypeNode().getParserPosition()));
        }
        if (join.isNatural()) {
            throw new SqlError("POSITIONAL JOIN cannot be NATURAL" + SupportCheck.at(pos));
        }
        if (left == null) {
            checkRows(join.getLeft(), storedRows, pos);
            left = List.of(numbered(join, true, pos));
        }
        if (right == null) {
            checkRows(join.getRight(), storedRows, pos);
            right = List.of(numbered(join, false, pos));
        }
        join.setOperand(2, JoinType.FULL.symbol(pos));
        join.setOperand(4, JoinConditionType.ON.symbol(pos));
        join.setOperand(5, SqlStdOperatorTable.EQUALS.createCall(pos, position(left, pos), position(right, pos)));
        List<String> both = new ArrayList<>(left);
        both.addAll(right);
        return both;
    }

    /** Refuses a side that reads a stored table of more than {@link #MOST_ROWS} rows. */
    private static void checkRows(SqlNode side, ToLongFunction<String> storedRows, SqlParserPos joinPos) {
        side.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                long rows = id.isStar() ? -1 : storedRows.applyAsLong(id.names.getLast());
                if (rows > MOST_ROWS) {
                    throw new SqlError("unsupported: POSITIONAL JOIN" + SupportCheck.at(joinPos) + " of table "
                            + id.names.getLast() + ", of " + rows + " rows: Tessera numbers the rows of a side of at "
                            + "most " + MOST_ROWS + " rows, which one worker reads in their stored order");
                }
                return null;
            }
        });
    }

    /** Makes a side of {@code join} a subquery that numbers its rows, under the side's name; gives that name. */
    private static String numbered(SqlJoin join, boolean leftSide, SqlParserPos joinPos) {
        SqlNode side = leftSide ? join.getLeft() : join.getRight();
        SqlParserPos pos = side.getParserPosition();
        if (side instanceof SqlJoin) {
            throw new SqlError("unsupported: POSITIONAL JOIN of a join of another kind" + SupportCheck.at(joinPos)
                    + " (put that join in a subquery)");
        }
        SqlNode query = side.getKind() == SqlKind.AS ? ((SqlCall) side).operand(0) : side;
        if (query instanceof SqlOrderBy by && by.fetch == null && !by.orderList.isEmpty()
                || query instanceof SqlSelect s && s.getFetch() == null && s.getOrderList() != null
                && !s.getOrderList().isEmpty()) {
            throw new SqlError("unsupported: POSITIONAL JOIN" + SupportCheck.at(joinPos) + " of a subquery with ORDER "
                    + "BY and no LIMIT (Tessera keeps the order of a subquery in FROM only with a LIMIT)");
        }
        String name = AsofJoins.name(side);
        if (name == null) {
            throw new SqlError("unsupported: POSITIONAL JOIN of a subquery without a name" + SupportCheck.at(pos)
                    + " (give it an alias)");
        }
        SqlNode rowNumber = SqlStdOperatorTable.OVER.createCall(pos, SqlStdOperatorTable.ROW_NUMBER.createCall(pos),
                SqlWindow.create(null, null, SqlNodeList.EMPTY, SqlNodeList.EMPTY,
                        SqlLiteral.createBoolean(true, pos), null, null, null, pos));
        SqlNodeList items = SqlNodeList.of(SqlIdentifier.star(pos),
                SqlStdOperatorTable.AS.createCall(pos, rowNumber, new SqlIdentifier(POSITION, pos)));
        SqlSelect numbering = new SqlSelect(pos, null, items, side, null, null, null, null, null, null, null, null,
                null);
        SqlNode named = SqlStdOperatorTable.AS.createCall(pos, numbering, new SqlIdentifier(name, pos));
        if (leftSide) {
            join.setLeft(named);
        } else {
            join.setRight(named);
        }
        return name;
    }

    /** The position of a joined row: the first of its sides' positions that is not NULL. */
    private static SqlNode position(List<String> sides, SqlParserPos pos) {
        List<SqlNode> each = new ArrayList<>();
        for (String side : sides) {
            each.add(new SqlIdentifier(List.of(side, POSITION), pos));
        }
        return each.size() == 1 ? each.getFirst()
                : SqlStdOperatorTable.COALESCE.createCall(pos, each);
    }

    /** Whether {@code select} neither orders, groups, aggregates nor keeps distinct rows: its rows keep their order. */
    private static boolean unordered(SqlSelect select) {
        if (select.getOrderList() != null && !select.getOrderList().isEmpty() || select.getGroup() != null
                || select.getHaving() != null || select.getQualify() != null
                || select.getModifierNode(SqlSelectKeyword.DISTINCT) != null) {
            return false;
        }
        boolean[] aggregates = {false};
        select.getSelectList().accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (SqlKind.QUERY.contains(call.getKind())) {
                    return null;
                }
                if (call.getKind() == SqlKind.OVER || isAggregate(call.getOperator())) {
                    aggregates[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return !aggregates[0];
    }

    private static final SqlOperatorTable FUNCTIONS = SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(
            EnumSet.allOf(SqlLibrary.class));

    /** Whether {@code op}, not resolved yet, is an aggregate by its name (DuckDB's aliases too). */
    private static boolean isAggregate(SqlOperator op) {
        if (op.isAggregator()) {
            return true;
        }
        if (op.getSyntax() != SqlSyntax.FUNCTION) {
            return false;
        }
        String name = op.getName().toUpperCase(Locale.ROOT);
        String target = FunctionAliases.resolve(name);
        for (String n : target == null ? List.of(name) : List.of(name, target.toUpperCase(Locale.ROOT))) {
            if (AggregateFunctions.lookup(n) != null || AggregateFunctions.NAMES.contains(n)) {
                return true;
            }
            List<SqlOperator> overloads = new ArrayList<>();
            FUNCTIONS.lookupOperatorOverloads(new SqlIdentifier(n, SqlParserPos.ZERO),
                    SqlFunctionCategory.USER_DEFINED_FUNCTION, SqlSyntax.FUNCTION, overloads,
                    SqlNameMatchers.withCaseSensitive(false));
            if (overloads.stream().anyMatch(SqlOperator::isAggregator)) {
                return true;
            }
        }
        return false;
    }
}
