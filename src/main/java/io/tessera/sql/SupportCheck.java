package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Walks a parsed statement before validation and rejects, with its position, every construct the engine does
 * not run, so that nothing unsupported can reach execution and produce a wrong answer.
 */
final class SupportCheck extends SqlBasicVisitor<Void> {

    private static final Set<SqlKind> KINDS = EnumSet.of(
            SqlKind.SELECT, SqlKind.ORDER_BY, SqlKind.UNION, SqlKind.AS, SqlKind.JOIN, SqlKind.WITH, SqlKind.WITH_ITEM,
            SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.DIVIDE, SqlKind.MOD, SqlKind.MINUS_PREFIX,
            SqlKind.PLUS_PREFIX, SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL,
            SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.AND, SqlKind.OR, SqlKind.NOT,
            SqlKind.BETWEEN, SqlKind.IN, SqlKind.NOT_IN, SqlKind.EXISTS, SqlKind.LIKE, SqlKind.CASE, SqlKind.CAST,
            SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_NOT_TRUE, SqlKind.IS_FALSE,
            SqlKind.IS_NOT_FALSE, SqlKind.IS_DISTINCT_FROM, SqlKind.IS_NOT_DISTINCT_FROM, SqlKind.COALESCE,
            SqlKind.NULLIF, SqlKind.EXTRACT, SqlKind.SUM, SqlKind.COUNT, SqlKind.AVG, SqlKind.MIN, SqlKind.MAX,
            SqlKind.SCALAR_QUERY, SqlKind.DESCENDING, SqlKind.NULLS_FIRST, SqlKind.NULLS_LAST, SqlKind.ROW,
            SqlKind.VALUES, SqlKind.EXPLICIT_TABLE, SqlKind.INTERVAL_QUALIFIER, SqlKind.INTERVAL, SqlKind.SOME, SqlKind.ALL,
            SqlKind.INSERT, SqlKind.UNNEST, SqlKind.PIVOT, SqlKind.UNPIVOT, SqlKind.LAMBDA, SqlKind.LATERAL,
            // window functions and set operations
            SqlKind.OVER, SqlKind.WINDOW, SqlKind.ROW_NUMBER, SqlKind.RANK, SqlKind.DENSE_RANK, SqlKind.PERCENT_RANK,
            SqlKind.CUME_DIST, SqlKind.NTILE, SqlKind.LAG, SqlKind.LEAD, SqlKind.FIRST_VALUE, SqlKind.LAST_VALUE,
            SqlKind.PRECEDING, SqlKind.FOLLOWING, SqlKind.RESPECT_NULLS, SqlKind.INTERSECT, SqlKind.EXCEPT);

    private static final Set<String> FUNCTIONS = Set.of("||", "LOWER", "UPPER", "SUM", "COUNT", "AVG", "MIN", "MAX", "COALESCE", "NULLIF", "ABS", "MOD", "ROUND", "FLOOR", "CEIL", "CEILING", "SIGN", "SQRT", "LN", "EXP", "POWER", "YEAR", "MONTH", "QUARTER", "DAYOFMONTH",
            "DAYOFWEEK", "DAYOFYEAR", "WEEK");

    static void check(SqlNode node) {
        node.accept(new SupportCheck());
    }

    @Override
    public Void visit(SqlCall call) {
        SqlKind kind = call.getKind();
        checkIntervalText(call);
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean ok = KINDS.contains(kind)
                || (call.getOperator() instanceof SqlFunction && FUNCTIONS.contains(name))
                || (kind == SqlKind.OTHER_FUNCTION || kind == SqlKind.OTHER) && FUNCTIONS.contains(name)
                || TextDateFunctions.supports(kind, name)
                || NumericFunctions.supports(name)
                || AggregateFunctions.supports(call)
                || DerivedAggregates.NAMES.contains(name)
                || DateFunctionAliases.NAMES.contains(name)
                || FunctionAliases.NAMES.contains(name)
                || PatternOperators.ESCAPE_FUNCTIONS.containsKey(name)
                || SessionFunctions.NAMES.contains(name) || name.equals(SessionVariables.GET)
                || OrderedAggregates.PICKS.contains(name)
                || WindowSupport.FUNCTIONS.contains(name)
                || call.getOperator() == AllColumns.ALL || call.getOperator() == IntervalSyntax.INFIX_INTERVAL
                || call.getOperator() == IntegerDivision.OPERATOR || PatternOperators.isOne(call.getOperator())
                || JsonArrows.isOne(call.getOperator())
                || PowerOperator.applies(call) || BitwiseOperators.applies(call)
                || call.getOperator() == ColumnsSelections.COLUMNS || call.getOperator() == Samples.ROW_TEXT
                || call.getOperator() == GroupsFrames.OFFSET
                || kind == SqlKind.SAFE_CAST && name.equals("TRY_CAST"); // DuckDB's; BigQuery's SAFE_CAST is not
        if (call instanceof org.apache.calcite.sql.SqlWindow w) {
            GroupsFrames.check(w);
        }
        HolisticAggregates.checkOrder(call);
        if (kind == SqlKind.IGNORE_NULLS) {
            throw unsupported("IGNORE NULLS", call.getParserPosition());
        }
        if (!ok) {
            String what = call.getOperator() instanceof SqlFunction ? "function " + name : "construct " + name;
            String hint = call.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction
                    ? DidYouMean.hint(name.toLowerCase(Locale.ROOT), functionNames()) : "";
            throw new SqlError("unsupported: " + what + at(call.getParserPosition()) + hint);
        }
        return super.visit(call);
    }

    /**
     * The names of the functions Tessera runs, in lower case (for "did you mean", and the shell's completion through
     * {@link FunctionNames}): those of the operator table that this check lets through, the names rewritten before
     * validation or read by name (IF, FIRST, GROUPING, read_csv, setseed, ...), none of Tessera's internal ones.
     */
    static java.util.SortedSet<String> functionNames() {
        java.util.SortedSet<String> names = new java.util.TreeSet<>();
        for (org.apache.calcite.sql.SqlOperator op : MathFunctions.INSTANCE.getOperatorList()) {
            String n = op.getName().toUpperCase(Locale.ROOT);
            if (op instanceof SqlFunction && (FUNCTIONS.contains(n) || TextDateFunctions.supports(op.getKind(), n)
                    || NumericFunctions.supports(n)
                    || AggregateFunctions.lookup(n) != null || WindowSupport.FUNCTIONS.contains(n))) {
                names.add(n.toLowerCase(Locale.ROOT));
            }
        }
        for (java.util.Collection<String> other : List.of(FUNCTIONS, NumericFunctions.REWRITTEN, OrderedAggregates.PICKS,
                AggregateFunctions.NAMES, DerivedAggregates.NAMES, DateFunctionAliases.NAMES, FunctionAliases.NAMES, PatternOperators.ESCAPE_FUNCTIONS.keySet(), SessionFunctions.NAMES, FileReferences.FUNCTIONS, List.of(SessionSettings.SEED))) {
            other.forEach(n -> names.add(n.toLowerCase(Locale.ROOT)));
        }
        // a name a user can call: a word, not one of the calls Tessera's rewrites make (tessera_interval)
        names.removeIf(n -> !n.matches("[a-z][a-z0-9_]*") || n.startsWith("tessera_"));
        return names;
    }

    /** A DuckDB interval literal's text ({@code INTERVAL '...'}, {@code '...'::INTERVAL}) read now, an error naming where. */
    private static void checkIntervalText(SqlCall call) {
        if ((call.getOperator() == TimestampFunctions.INTERVAL_LITERAL || call.getOperator() == IntervalSyntax.INFIX_INTERVAL)
                && call.operand(0) instanceof org.apache.calcite.sql.SqlCharStringLiteral text) {
            try {
                io.tessera.storage.IntervalText.parse(text.getValueAs(String.class));
            } catch (IllegalArgumentException e) {
                throw new SqlError(e.getMessage() + at(call.getParserPosition()));
            }
        }
    }

    static SqlError unsupported(String what, SqlParserPos pos) {
        return new SqlError("unsupported: " + what + at(pos));
    }

    static String at(SqlParserPos pos) {
        if (pos == null || pos.getLineNum() <= 0) {
            return "";
        }
        return " at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
    }
}
