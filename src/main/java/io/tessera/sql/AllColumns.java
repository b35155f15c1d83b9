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
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * DuckDB's shorthands for lists of columns, read by Tessera's parser ({@code src/main/codegen}) and expanded by
 * {@link TesseraValidator} once the columns are known:
 *
 * <ul>
 *   <li>{@code GROUP BY ALL}: the select items that hold no aggregate and no window function, as ordinals;
 *   <li>{@code ORDER BY ALL [ASC|DESC] [NULLS FIRST|LAST]}: every column of the result, left to right;
 *   <li>{@code SELECT * EXCLUDE (a, b)}, {@code t.* EXCLUDE (...)}: the star's columns but those named;
 *   <li>{@code * REPLACE (a + 1 AS a)}, {@code * RENAME (a AS b)}: the star's columns, those named computed by
 *       the expression, or named anew, in their places (after an EXCLUDE, in DuckDB's order).
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

    /**
     * {@code *} or {@code t.*} followed by DuckDB's modifiers: the names of the columns EXCLUDE leaves out, REPLACE's
     * {@code expr AS name} and RENAME's {@code name AS name} entries (each an AS call).
     */
    public static final class ModifiedStar extends SqlIdentifier {
        private final List<SqlIdentifier> excluded;
        private final List<SqlNode> replacements;
        private final List<SqlNode> renames;

        public ModifiedStar(SqlIdentifier star, List<SqlIdentifier> excluded, List<SqlNode> replacements,
                            List<SqlNode> renames, SqlParserPos pos) {
            super(star.names, null, pos, null);
            this.excluded = List.copyOf(excluded);
            this.replacements = List.copyOf(replacements);
            this.renames = List.copyOf(renames);
        }

        /** {@code star EXCLUDE (excluded)}. */
        public ModifiedStar(SqlIdentifier star, List<SqlIdentifier> excluded, SqlParserPos pos) {
            this(star, excluded, List.of(), List.of(), pos);
        }

        /** The star without its modifiers. */
        SqlIdentifier star() {
            return new SqlIdentifier(names, null, getParserPosition(), null);
        }

        /** Whether it replaces or renames columns (else it only excludes some). */
        boolean changesColumns() {
            return !replacements.isEmpty() || !renames.isEmpty();
        }

        @Override
        public SqlNode clone(SqlParserPos pos) {
            return new ModifiedStar(this, excluded, replacements, renames, pos);
        }

        @Override
        public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
            super.unparse(writer, leftPrec, rightPrec);
            unparseList(writer, "EXCLUDE", excluded);
            unparseList(writer, "REPLACE", replacements);
            unparseList(writer, "RENAME", renames);
        }

        private static void unparseList(SqlWriter writer, String keyword, List<? extends SqlNode> entries) {
            if (entries.isEmpty()) {
                return;
            }
            writer.keyword(keyword);
            SqlWriter.Frame frame = writer.startList("(", ")");
            for (SqlNode entry : entries) {
                writer.sep(",");
                entry.unparse(writer, 0, 0);
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
        return items.stream().anyMatch(i -> i instanceof ModifiedStar);
    }

    /** {@code items} with each EXCLUDE taken off its star. */
    static SqlNodeList withoutExclusions(SqlNodeList items) {
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode item : items) {
            out.add(item instanceof ModifiedStar x ? x.star() : item);
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
            List<SqlIdentifier> excluded = item instanceof ModifiedStar x ? x.excluded : List.of();
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

    /** Whether a star of the select list has REPLACE or RENAME. */
    static boolean changesColumns(SqlNodeList items) {
        return items.stream().anyMatch(i -> i instanceof ModifiedStar x && x.changesColumns());
    }

    /**
     * {@code items} with each star that has REPLACE or RENAME written out as its columns ({@code stars} gives a star's
     * expanded items): those EXCLUDE names left out, those REPLACE names as its expression under the column's name,
     * those RENAME names under their new names, as DuckDB binds them.
     */
    static SqlNodeList writtenOut(SqlNodeList items, Function<SqlIdentifier, SqlNodeList> stars,
                                  SqlNameMatcher matcher) {
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode item : items) {
            if (!(item instanceof ModifiedStar x && x.changesColumns())) {
                out.add(item);
                continue;
            }
            Map<String, SqlNode> replaced = entries(x.replacements, "REPLACE", x.excluded, List.of());
            Map<String, SqlNode> renamed = entries(x.renames, "RENAME", x.excluded, x.replacements);
            Set<String> excluded = new HashSet<>();
            x.excluded.forEach(id -> excluded.add(id.getSimple().toLowerCase(Locale.ROOT)));
            Set<String> used = new HashSet<>();
            SqlParserPos pos = x.getParserPosition();
            int kept = 0;
            for (SqlNode column : stars.apply(x.star())) {
                SqlNode read = column.getKind() == SqlKind.AS ? ((SqlCall) column).operand(0) : column;
                String name = column.getKind() == SqlKind.AS
                        ? ((SqlIdentifier) ((SqlCall) column).operand(1)).getSimple() : columnName(column);
                String key = name == null ? null : matchedKey(name, excluded, replaced, renamed, matcher);
                if (key != null) {
                    used.add(key);
                }
                if (key != null && excluded.contains(key)) {
                    continue;
                }
                kept++;
                if (key != null && replaced.containsKey(key)) {
                    SqlNode e = ((SqlCall) replaced.get(key)).operand(0);
                    out.add(SqlStdOperatorTable.AS.createCall(pos, e.clone(e.getParserPosition()),
                            new SqlIdentifier(name, pos)));
                } else if (key != null && renamed.containsKey(key)) {
                    out.add(SqlStdOperatorTable.AS.createCall(pos, read,
                            ((SqlCall) renamed.get(key)).operand(1)));
                } else {
                    out.add(column);
                }
            }
            for (SqlIdentifier id : x.excluded) {
                unselected(id, "EXCLUDE", used);
            }
            for (SqlNode entry : x.replacements) {
                unselected(((SqlCall) entry).operand(1), "REPLACE", used);
            }
            for (SqlNode entry : x.renames) {
                unselected(((SqlCall) entry).operand(0), "RENAME", used);
            }
            if (kept == 0) {
                throw new SqlError("EXCLUDE leaves no column" + SupportCheck.at(pos));
            }
        }
        return new SqlNodeList(out, items.getParserPosition());
    }

    /**
     * REPLACE's or RENAME's entries by the lower-case name of the column each changes (REPLACE's after AS, RENAME's
     * before it); a name twice, or a name that EXCLUDE or REPLACE (before a RENAME) names, is an error.
     */
    private static Map<String, SqlNode> entries(List<SqlNode> list, String keyword, List<SqlIdentifier> excluded,
                                                List<SqlNode> replacements) {
        Map<String, SqlNode> out = new LinkedHashMap<>();
        for (SqlNode entry : list) {
            SqlIdentifier id = ((SqlCall) entry).operand(keyword.equals("REPLACE") ? 1 : 0);
            String key = id.getSimple().toLowerCase(Locale.ROOT);
            if (out.put(key, entry) != null) {
                throw new SqlError("Duplicate entry \"" + id.getSimple() + "\" in " + keyword + " list"
                        + SupportCheck.at(id.getParserPosition()));
            }
            if (excluded.stream().anyMatch(e -> e.getSimple().equalsIgnoreCase(id.getSimple()))) {
                throw new SqlError("Column \"" + id.getSimple() + "\" cannot occur in both EXCLUDE and " + keyword
                        + " list" + SupportCheck.at(id.getParserPosition()));
            }
            if (replacements.stream().anyMatch(r -> ((SqlIdentifier) ((SqlCall) r).operand(1)).getSimple()
                    .equalsIgnoreCase(id.getSimple()))) {
                throw new SqlError("Column \"" + id.getSimple() + "\" cannot occur in both REPLACE and RENAME list"
                        + SupportCheck.at(id.getParserPosition()));
            }
        }
        return out;
    }

    /** The lower-case name among the modifiers' names that the column {@code name} matches, or null. */
    private static String matchedKey(String name, Set<String> excluded, Map<String, SqlNode> replaced,
                                     Map<String, SqlNode> renamed, SqlNameMatcher matcher) {
        List<String> keys = new ArrayList<>(excluded);
        keys.addAll(replaced.keySet());
        keys.addAll(renamed.keySet());
        for (String key : keys) {
            if (matcher.matches(key, name) || key.equals(name.toLowerCase(Locale.ROOT))) {
                return key;
            }
        }
        return null;
    }

    /** An error where a modifier names {@code id}, which the star does not select. */
    private static void unselected(SqlNode id, String keyword, Set<String> used) {
        String name = ((SqlIdentifier) id).getSimple();
        if (!used.contains(name.toLowerCase(Locale.ROOT))) {
            throw new SqlError(keyword + " names " + name + ", which the star does not select"
                    + SupportCheck.at(id.getParserPosition()));
        }
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
