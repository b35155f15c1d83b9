package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Util;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * DuckDB's {@code COLUMNS(...)} in a select list: an item that holds it stands for one item per column it selects
 * from the FROM, in the FROM's order, the call replaced by that column and the item named by the column (or by the
 * item's alias), as DuckDB names them ({@code min(COLUMNS(*))} gives columns named as the table's). What it takes:
 * <ul>
 *   <li>{@code COLUMNS('regex')}: the columns whose names the regular expression finds a match in; the expression
 *       is a value matched against the names while the query is planned (Java's {@link Pattern}, whose syntax is
 *       RE2's for the usual forms), never code;
 *   <li>{@code COLUMNS(*)}, {@code COLUMNS(t.*)}: every column (of t);
 *   <li>{@code COLUMNS(['a', 'b'])}: the columns of those names (in the FROM's order too);
 *   <li>{@code COLUMNS(lambda c: c LIKE 'a%')}: the columns whose names the condition holds for ({@link
 *       ColumnLambdas}).
 * </ul>
 * In a WHERE the condition stands for itself once per column, ANDed ({@link #expandWhere}), as DuckDB reads it. The
 * parser reads it as a call of a function named COLUMNS; {@link #mark} makes each such call in a select list or a
 * WHERE a call of {@link #COLUMNS} before the other rewrites, and refuses one elsewhere; {@link TesseraValidator}
 * expands the items once the FROM's columns are known ({@link #expand}).
 */
final class ColumnsSelections {

    private ColumnsSelections() {
    }

    /** COLUMNS(...) in a select list, until the validator expands its item. */
    static final SqlSpecialOperator COLUMNS = new SqlSpecialOperator("COLUMNS", SqlKind.OTHER_FUNCTION) {
        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
            writer.keyword("COLUMNS");
            SqlWriter.Frame frame = writer.startList("(", ")");
            for (SqlNode operand : call.getOperandList()) {
                writer.sep(",");
                operand.unparse(writer, 0, 0);
            }
            writer.endList(frame);
        }
    };

    /**
     * Marks each call of COLUMNS in a select list or a WHERE of {@code statement} as {@link #COLUMNS}; one anywhere
     * else (GROUP BY, ORDER BY, a function's FROM) is refused with its position.
     */
    static void mark(SqlNode statement) {
        List<SqlSelect> selects = new ArrayList<>();
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select) {
                    selects.add(select);
                }
                return super.visit(call);
            }
        });
        for (SqlSelect select : selects) {
            List<SqlNode> items = new ArrayList<>();
            boolean changed = false;
            for (SqlNode item : select.getSelectList()) {
                SqlNode marked = item.accept(new Marker());
                changed |= marked != item;
                items.add(marked);
            }
            if (changed) {
                select.setSelectList(new SqlNodeList(items, select.getSelectList().getParserPosition()));
            }
            if (select.getWhere() != null) {
                select.setWhere(select.getWhere().accept(new Marker()));
            }
        }
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (isWritten(call)) {
                    throw SupportCheck.unsupported("COLUMNS(...) outside a select list or a WHERE",
                            call.getParserPosition());
                }
                return super.visit(call);
            }
        });
    }

    /** Whether {@code call} is a call of a function named COLUMNS as the parser reads it. */
    private static boolean isWritten(SqlCall call) {
        return call.getOperator() instanceof SqlUnresolvedFunction f && f.getNameAsId().names.size() == 1
                && f.getName().equalsIgnoreCase("COLUMNS");
    }

    /** Replaces the COLUMNS calls of one select item, not those of its subqueries. */
    private static final class Marker extends SqlShuttle {
        @Override
        public SqlNode visit(SqlCall call) {
            if (SqlKind.QUERY.contains(call.getKind())) {
                return call;
            }
            if (isWritten(call)) {
                if (call.operandCount() != 1) {
                    throw new SqlError("COLUMNS takes one argument" + SupportCheck.at(call.getParserPosition()));
                }
                return COLUMNS.createCall(call.getParserPosition(), (SqlNode) call.operand(0));
            }
            return super.visit(call);
        }
    }

    /** Whether a select list holds COLUMNS(...). */
    static boolean holds(SqlNodeList items) {
        return items.stream().anyMatch(i -> !calls(i).isEmpty());
    }

    /** The COLUMNS calls of {@code item}, not those of its subqueries. */
    private static List<SqlCall> calls(SqlNode item) {
        List<SqlCall> out = new ArrayList<>();
        item.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (SqlKind.QUERY.contains(call.getKind())) {
                    return null;
                }
                if (call.getOperator() == COLUMNS) {
                    out.add(call);
                    return null;
                }
                return super.visit(call);
            }
        });
        return out;
    }

    /** A column of the FROM: the expression that reads it (as a star expands it) and its name. */
    private record Column(SqlNode expression, String name) {
    }

    /**
     * The select list with each item that holds COLUMNS(...) replaced by an item per column it selects;
     * {@code star} expands {@code *} or {@code t.*} to the FROM's columns.
     */
    static SqlNodeList expand(SqlNodeList items, Function<SqlIdentifier, SqlNodeList> star, SqlNameMatcher matcher) {
        List<SqlNode> out = new ArrayList<>();
        for (SqlNode item : items) {
            List<SqlCall> calls = calls(item);
            if (calls.isEmpty()) {
                out.add(item);
                continue;
            }
            SqlCall first = calls.get(0);
            for (SqlCall other : calls) {
                if (!other.operand(0).equalsDeep(first.operand(0), org.apache.calcite.util.Litmus.IGNORE)) {
                    throw new SqlError("Multiple different STAR/COLUMNS in the same expression are not supported"
                            + SupportCheck.at(other.getParserPosition()));
                }
            }
            String alias = item.getKind() == SqlKind.AS ? ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple() : null;
            SqlNode body = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            for (Column column : selected(first, star, matcher)) {
                SqlNode replaced = replace(body, column);
                if (alias == null && replaced instanceof SqlIdentifier) {
                    out.add(replaced); // the column itself, named as a star's column is
                } else {
                    out.add(SqlValidatorUtil.addAlias(replaced, alias != null ? alias : column.name()));
                }
            }
        }
        return new SqlNodeList(out, items.getParserPosition());
    }

    /**
     * A WHERE that holds COLUMNS(...): the condition once per column it selects, all of them ANDed, as DuckDB reads
     * it ({@code WHERE COLUMNS('^a') > 0} keeps the rows where every column whose name starts with a is positive).
     */
    static SqlNode expandWhere(SqlNode where, Function<SqlIdentifier, SqlNodeList> star, SqlNameMatcher matcher) {
        List<SqlCall> calls = calls(where);
        SqlCall first = calls.get(0);
        for (SqlCall other : calls) {
            if (!other.operand(0).equalsDeep(first.operand(0), org.apache.calcite.util.Litmus.IGNORE)) {
                throw new SqlError("Multiple different STAR/COLUMNS in the same expression are not supported"
                        + SupportCheck.at(other.getParserPosition()));
            }
        }
        SqlNode all = null;
        for (Column column : selected(first, star, matcher)) {
            SqlNode one = replace(where, column);
            all = all == null ? one : org.apache.calcite.sql.fun.SqlStdOperatorTable.AND.createCall(
                    where.getParserPosition(), all, one);
        }
        return all;
    }

    /** Whether a WHERE (or any one expression) holds COLUMNS(...) outside its subqueries. */
    static boolean holds(SqlNode expression) {
        return expression != null && !calls(expression).isEmpty();
    }

    /** {@code body} with its COLUMNS calls (not its subqueries') replaced by the column. */
    private static SqlNode replace(SqlNode body, Column column) {
        return body.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getOperator() == COLUMNS) {
                    return column.expression().clone(column.expression().getParserPosition());
                }
                if (SqlKind.QUERY.contains(call.getKind())) {
                    return call;
                }
                return super.visit(call);
            }
        });
    }

    /** The columns that {@code call} selects, in DuckDB's order; an error where it selects none. */
    private static List<Column> selected(SqlCall call, Function<SqlIdentifier, SqlNodeList> star,
                                         SqlNameMatcher matcher) {
        SqlNode arg = call.operand(0);
        SqlParserPos pos = call.getParserPosition();
        if (arg instanceof SqlIdentifier id && id.isStar()) {
            return columns(star.apply(id));
        }
        List<Column> all = columns(star.apply(SqlIdentifier.star(pos)));
        if (arg instanceof SqlCharStringLiteral literal) {
            String regex = literal.getValueAs(String.class);
            Pattern pattern;
            try {
                pattern = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new SqlError("Failed to compile regex \"" + regex + "\": " + e.getDescription()
                        + SupportCheck.at(pos));
            }
            List<Column> out = all.stream().filter(c -> pattern.matcher(c.name()).find()).toList();
            if (out.isEmpty()) {
                throw new SqlError("No matching columns found that match regex \"" + regex + "\""
                        + SupportCheck.at(pos));
            }
            return out;
        }
        if (arg.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
            java.util.Set<Column> named = new java.util.HashSet<>();
            for (SqlNode element : ((SqlCall) arg).getOperandList()) {
                if (!(element instanceof SqlCharStringLiteral name)) {
                    throw SupportCheck.unsupported("COLUMNS of a list that is not of string literals",
                            element.getParserPosition());
                }
                String wanted = name.getValueAs(String.class);
                Column hit = all.stream().filter(c -> matcher.matches(c.name(), wanted)).findFirst()
                        .orElseThrow(() -> new SqlError("Column \"" + wanted + "\" was selected but was not found in"
                                + " the FROM clause" + SupportCheck.at(element.getParserPosition())));
                named.add(hit);
            }
            if (named.isEmpty()) {
                throw new SqlError("COLUMNS of an empty list selects no column" + SupportCheck.at(pos));
            }
            return all.stream().filter(named::contains).toList(); // in the FROM's order, as DuckDB's
        }
        if (arg.getKind() == SqlKind.LAMBDA && arg instanceof SqlCall lambda) {
            ColumnLambdas condition = ColumnLambdas.of(lambda);
            List<Column> out = all.stream().filter(c -> condition.selects(c.name())).toList();
            if (out.isEmpty()) {
                throw new SqlError("COLUMNS(...)'s lambda selects no column" + SupportCheck.at(pos));
            }
            return out;
        }
        throw SupportCheck.unsupported("COLUMNS of " + arg.getKind().toString().toLowerCase(Locale.ROOT)
                + " (it takes a regular expression, *, t.* or a list of names)", pos);
    }

    /** The columns of an expanded star: each item {@code t.c} or {@code t.c AS name}. */
    private static List<Column> columns(SqlNodeList expanded) {
        List<Column> out = new ArrayList<>();
        for (SqlNode item : expanded) {
            if (item.getKind() == SqlKind.AS) {
                SqlBasicCall as = (SqlBasicCall) item;
                out.add(new Column(as.operand(0), ((SqlIdentifier) as.operand(1)).getSimple()));
            } else {
                out.add(new Column(item, item instanceof SqlIdentifier id ? Util.last(id.names)
                        : SqlValidatorUtil.alias(item)));
            }
        }
        return out;
    }
}
