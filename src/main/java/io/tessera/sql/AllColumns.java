package io.tessera.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * DuckDB's shorthands for lists of columns, read by Tessera's parser ({@code src/main/codegen}) and expanded by
 * {@link TesseraValidator} once the columns are known:
 *
 * <ul>
 *   <li>{@code GROUP BY ALL}: the select items that hold no aggregate and no window function, as ordinals;
 *   <li>{@code ORDER BY ALL [ASC|DESC] [NULLS FIRST|LAST]}: every column of the result, left to right;
 *   <li>{@code SELECT * EXCLUDE (a, b)}, {@code t.* EXCLUDE (...)}: the star's columns but those named.
 * </ul>
 */
public final class AllColumns {

    /** The ALL of {@code GROUP BY ALL} and {@code ORDER BY ALL} as the parser reads it, until the validator expands it. */
    public static final SqlSpecialOperator ALL = new SqlSpecialOperator("ALL", SqlKind.OTHER) {
        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
            writer.keyword("ALL");
        }

        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            // reached only where no expansion took it: ORDER BY ALL in a window
            throw SupportCheck.unsupported("ALL as an ORDER BY item of a window (it orders a query's rows)",
                    call.getParserPosition());
        }
    };

    private AllColumns() {
    }

    /** {@code *} or {@code t.*} followed by {@code EXCLUDE}: the star, with the names of the columns left out. */
    public static final class ExcludingStar extends SqlIdentifier {
        private final List<SqlIdentifier> excluded;

        public ExcludingStar(SqlIdentifier star, List<SqlIdentifier> excluded, SqlParserPos pos) {
            super(star.names, null, pos, null);
            this.excluded = List.copyOf(excluded);
        }

        /** The star without its EXCLUDE. */
        SqlIdentifier star() {
            return new SqlIdentifier(names, null, getParserPosition(), null);
        }

        @Override
        public SqlNode clone(SqlParserPos pos) {
            return new ExcludingStar(this, excluded, pos);
        }

        @Override
        public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
            super.unparse(writer, leftPrec, rightPrec);
            writer.keyword("EXCLUDE");
            SqlWriter.Frame frame = writer.startList("(", ")");
            for (SqlIdentifier id : excluded) {
                writer.sep(",");
                id.unparse(writer, 0, 0);
            }
            writer.endList(frame);
        }
    }

    /** Whether {@code list} is GROUP BY ALL. */
    static boolean isGroupByAll(SqlNodeList group) {
        return group != null && group.size() == 1 && group.get(0) instanceof SqlCall c && c.getOperator() == ALL;
    }

    /**
     * The GROUP BY of GROUP BY ALL: the ordinal of each select item that holds no aggregate and no window function
     * and is not a literal, as DuckDB groups (none: an aggregate of all rows, {@code GROUP BY ()}). A star is
     * refused: its columns are not known yet.
     */
    static SqlNodeList groupByAll(SqlSelect select, SqlOperatorTable operators, SqlNameMatcher matcher) {
        SqlParserPos pos = select.getGroup().getParserPosition();
        List<SqlNode> ordinals = new ArrayList<>();
        int i = 0;
        for (SqlNode item : select.getSelectList()) {
            i++;
            if (item instanceof SqlIdentifier id && id.isStar()) {
                throw SupportCheck.unsupported("GROUP BY ALL with * in the select list (name the columns)",
                        item.getParserPosition());
            }
            SqlNode e = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            if (!(e instanceof SqlLiteral) && !aggregates(e, operators, matcher)) {
                ordinals.add(SqlLiteral.createExactNumeric(Integer.toString(i), pos));
            }
        }
        return new SqlNodeList(ordinals, pos);
    }

    /** Whether {@code e} holds an aggregate or a window function outside its subqueries. */
    private static boolean aggregates(SqlNode e, SqlOperatorTable operators, SqlNameMatcher matcher) {
        boolean[] found = {false};
        e.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (SqlKind.QUERY.contains(call.getKind())) {
                    return null;
                }
                if (call.getKind() == SqlKind.OVER || isAggregate(call.getOperator(), operators, matcher)) {
                    found[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return found[0];
    }

    /** Whether {@code op} (or, not resolved yet, a function of its name) is an aggregate. */
    private static boolean isAggregate(SqlOperator op, SqlOperatorTable operators, SqlNameMatcher matcher) {
        if (op.isAggregator()) {
            return true;
        }
        if (op.getSyntax() != SqlSyntax.FUNCTION) {
            return false;
        }
        List<SqlOperator> overloads = new ArrayList<>();
        operators.lookupOperatorOverloads(op.getNameAsId(), SqlFunctionCategory.USER_DEFINED_FUNCTION,
                SqlSyntax.FUNCTION, overloads, matcher);
        return overloads.stream().anyMatch(SqlOperator::isAggregator);
    }

    /** Whether an item of {@code order} is ALL (perhaps with DESC, NULLS FIRST or NULLS LAST around it). */
    static boolean hasOrderByAll(SqlNodeList order) {
        if (order == null) {
            return false;
        }
        for (SqlNode item : order) {
            if (isAll(unwrap(item))) {
                return true;
            }
        }
        return false;
    }

    /** {@code order} with each ALL item replaced by the ordinals 1..columns, each with the item's DESC and NULLS. */
    static SqlNodeList orderByAll(SqlNodeList order, int columns) {
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode item : order) {
            if (!isAll(unwrap(item))) {
                out.add(item);
                continue;
            }
            SqlParserPos pos = item.getParserPosition();
            for (int i = 1; i <= columns; i++) {
                out.add(rewrap(item, SqlLiteral.createExactNumeric(Integer.toString(i), pos)));
            }
        }
        return new SqlNodeList(out, order.getParserPosition());
    }

    private static boolean isAll(SqlNode n) {
        return n instanceof SqlCall c && c.getOperator() == ALL;
    }

    private static SqlNode unwrap(SqlNode item) {
        SqlKind k = item.getKind();
        if (k == SqlKind.DESCENDING || k == SqlKind.NULLS_FIRST || k == SqlKind.NULLS_LAST) {
            return unwrap(((SqlCall) item).operand(0));
        }
        return item;
    }

    /** {@code item}'s DESC and NULLS FIRST/LAST around {@code inner}. */
    private static SqlNode rewrap(SqlNode item, SqlNode inner) {
        SqlKind k = item.getKind();
        if (k == SqlKind.DESCENDING || k == SqlKind.NULLS_FIRST || k == SqlKind.NULLS_LAST) {
            SqlCall call = (SqlCall) item;
            return call.getOperator().createCall(call.getParserPosition(), rewrap(call.operand(0), inner));
        }
        return inner;
    }

    /** Whether the select list has a star with EXCLUDE. */
    static boolean hasExclusions(SqlNodeList items) {
        return items.stream().anyMatch(i -> i instanceof ExcludingStar);
    }

    /** {@code items} with each EXCLUDE taken off its star. */
    static SqlNodeList withoutExclusions(SqlNodeList items) {
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode item : items) {
            out.add(item instanceof ExcludingStar x ? x.star() : item);
        }
        return new SqlNodeList(out, items.getParserPosition());
    }

    /**
     * The expanded select list of {@code items} (each star's columns, {@code widths.applyAsInt(star)} of them, in
     * place of the star) without the columns that the EXCLUDE after their star names; rowType is the expanded list's
     * type. Returns the kept items and their type.
     */
    static Expanded exclude(SqlNodeList items, SqlNodeList expanded, RelDataType rowType, ToIntFunction<SqlNode> widths,
                            SqlNameMatcher matcher, RelDataTypeFactory types) {
        List<SqlNode> kept = new ArrayList<>();
        List<RelDataTypeField> fields = new ArrayList<>();
        int at = 0;
        for (SqlNode item : items) {
            int width = widths.applyAsInt(item);
            List<SqlIdentifier> excluded = item instanceof ExcludingStar x ? x.excluded : List.of();
            boolean[] used = new boolean[excluded.size()];
            for (int k = at; k < at + width; k++) {
                String name = columnName(expanded.get(k));
                int hit = -1;
                for (int j = 0; j < excluded.size(); j++) {
                    if (name != null && matcher.matches(excluded.get(j).getSimple(), name)) {
                        hit = j;
                    }
                }
                if (hit >= 0) {
                    used[hit] = true;
                } else {
                    kept.add(expanded.get(k));
                    fields.add(rowType.getFieldList().get(k));
                }
            }
            for (int j = 0; j < excluded.size(); j++) {
                if (!used[j]) {
                    throw new SqlError("EXCLUDE names " + excluded.get(j).getSimple() + ", which the star does not "
                            + "select" + SupportCheck.at(excluded.get(j).getParserPosition()));
                }
            }
            at += width;
        }
        if (kept.isEmpty()) {
            throw new SqlError("EXCLUDE leaves no column" + SupportCheck.at(items.getParserPosition()));
        }
        RelDataType type = types.createStructType(fields.stream().map(RelDataTypeField::getType).toList(),
                fields.stream().map(RelDataTypeField::getName).toList());
        return new Expanded(new SqlNodeList(kept, expanded.getParserPosition()), type);
    }

    /** The column an expanded star item reads: {@code t.c} or {@code t.c AS c0}. */
    private static String columnName(SqlNode item) {
        SqlNode e = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        return e instanceof SqlIdentifier id ? Util.last(id.names) : null;
    }

    /** A select list after EXCLUDE, and its row type. */
    record Expanded(SqlNodeList items, RelDataType rowType) {
    }
}
