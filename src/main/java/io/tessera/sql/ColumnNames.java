package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Names each result column that the query leaves unnamed after the expression that computes it, spelled as DuckDB
 * spells it ({@code sum(lo_revenue)}, {@code count_star()}, {@code (a + 1)}, {@code CAST(a AS BIGINT)}), instead of
 * Calcite's {@code EXPR$n}. The name is given as an alias to every such item of every SELECT list before the query
 * is validated, so a subquery's columns carry the same names to the query around it, as in DuckDB; an alias the
 * user wrote, a column and {@code *} keep theirs.
 *
 * <p>The name is built from the parsed expression, not from its text: the spelling of keywords, spaces and
 * parentheses is DuckDB's, and a name inside it is quoted where DuckDB quotes it (a keyword, or not a word:
 * {@link DuckDbKeywords}). A scalar subquery, EXISTS and IN (subquery) are named by their query as DuckDB's printer
 * writes it ({@code (SELECT max(a) FROM t AS t2 WHERE (t2.a > t.a))}, {@link SubqueryText}); an interval of one
 * unit by the call DuckDB makes of it ({@code to_days(CAST(trunc(CAST('1' AS DOUBLE)) AS INTEGER))}). A few words
 * DuckDB keeps as written are read from the statement's text where it is known ({@link WrittenWords}): a type's name
 * ({@code CAST(x AS Date)}, {@code date '2020-01-01'}), a number ({@code .5}, {@code 1e2}) and an explicit ASC in an
 * ORDER BY, which Calcite's parser drops. Names inside an expression are spelled as the query writes them, quoted
 * or not ({@code (Abc + 1)} for a column {@code abc}), as DuckDB spells them; a column on its own is named as its
 * table names it ({@link TesseraValidator#expandSelectExpr}).
 *
 * <p>Where the names still differ from DuckDB's:
 * <ul>
 *   <li>a subquery with a part that DuckDB's printer rewrites or that {@link SubqueryText} does not know (ROLLUP,
 *       CUBE and GROUPING SETS, ORDER BY ALL, a WINDOW clause, a recursive WITH, UNNEST, PIVOT, a table function or
 *       a file in FROM, * EXCLUDE) is named {@code (SELECT ...)};
 *   <li>an ASC is kept only where the word follows the item's expression ({@code ORDER BY (a) ASC} has none);
 *   <li>a number is written as its value where the text does not hold it (a bound ? mark);
 *   <li>an interval of two units ({@code INTERVAL '1-2' YEAR TO MONTH}), which DuckDB does not have, keeps its SQL;
 *   <li>the result of a set operation under ORDER BY or LIMIT gives a repeated name DuckDB's suffix,
 *       {@code sum(a)_1}, as a subquery's columns (see {@link #resultSelects}), where DuckDB repeats it.
 * </ul>
 * Where {@code *} expands over a join whose sides share a name, the statement's result repeats the name, as DuckDB
 * does; in a subquery the second gets DuckDB's suffix, {@code a_1} ({@link TesseraValidator#addToSelectList}).
 * {@code ColumnNamesTest} compares the names with DuckDB's.
 */
final class ColumnNames {

    /** The statement's text, where a name keeps words as they were written. */
    private final WrittenWords written;

    private ColumnNames(WrittenWords written) {
        this.written = written;
    }

    /**
     * Gives every unnamed expression of every SELECT list in {@code statement} its name, in place. In the SELECT
     * lists whose rows are the statement's result a name may repeat, as in DuckDB; in any other (a subquery, whose
     * columns the query around it names) a name that another column of the list has gets a suffix, {@code sum(a)_1},
     * as DuckDB gives it, so that the subquery's columns stay apart. {@code text} is the statement's text, null where
     * it has none.
     */
    static void nameExpressions(SqlNode statement, String text) {
        nameExpressions(statement, text, true);
    }

    /**
     * As {@link #nameExpressions(SqlNode, String)}; with {@code result} false the statement's own columns are named
     * as a subquery's are (a view's query: a query names the view's columns).
     */
    static void nameExpressions(SqlNode statement, String text, boolean result) {
        ColumnNames names = new ColumnNames(WrittenWords.of(text));
        Set<SqlSelect> results = Collections.newSetFromMap(new IdentityHashMap<>());
        if (result) {
            resultSelects(statement, results);
        }
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select) {
                    names.nameItems(select, results.contains(select));
                }
                return super.visit(call);
            }
        });
    }

    /**
     * The SELECTs whose rows are the result: through ORDER BY, WITH and the branches of set operations. Not the
     * branches of a set operation under ORDER BY or LIMIT: Calcite reads it through a {@code SELECT *} of its own,
     * where a name that two columns had would be ambiguous.
     */
    static void resultSelects(SqlNode node, Set<SqlSelect> out) {
        if (node instanceof SqlSelect select) {
            out.add(select);
        } else if (node instanceof SqlOrderBy orderBy) {
            if (!isSetOperation(orderBy.query instanceof SqlWith with ? with.body : orderBy.query)) {
                resultSelects(orderBy.query, out);
            }
        } else if (node instanceof SqlWith with) {
            resultSelects(with.body, out);
        } else if (isSetOperation(node)) {
            for (SqlNode branch : ((SqlCall) node).getOperandList()) {
                resultSelects(branch, out);
            }
        }
    }

    private static boolean isSetOperation(SqlNode node) {
        return node instanceof SqlCall call && call.getKind().belongsTo(SqlKind.SET_QUERY);
    }

    private void nameItems(SqlSelect select, boolean result) {
        SqlNodeList items = select.getSelectList();
        Set<String> taken = new HashSet<>();
        for (SqlNode item : items) {
            if (item instanceof SqlIdentifier id && !id.isStar()) {
                taken.add(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT));
            } else if (item.getKind() == SqlKind.AS) {
                taken.add(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple().toLowerCase(Locale.ROOT));
            }
        }
        List<SqlNode> named = new ArrayList<>();
        boolean changed = false;
        for (SqlNode item : items) {
            if (item instanceof SqlIdentifier && !isCurrentTimestamp(item) || item.getKind() == SqlKind.AS
                    || ColumnsSelections.holds(SqlNodeList.of(item))) { // COLUMNS(...): named by its columns
                named.add(item);
                continue;
            }
            String name = name(item);
            if (!result) {
                String base = name;
                for (int k = 1; taken.contains(name.toLowerCase(Locale.ROOT)); k++) {
                    name = base + "_" + k;
                }
                taken.add(name.toLowerCase(Locale.ROOT));
            }
            SqlParserPos at = item.getParserPosition();
            // quoted, so that current_timestamp (current_user) stays a name where TemporalLiterals (SessionFunctions)
            // makes the item a call (a value)
            SqlIdentifier alias = isCurrentTimestamp(item)
                    ? new SqlIdentifier(List.of(name), null, at, List.of(at.withQuoting(true)))
                    : new SqlIdentifier(name, at);
            named.add(SqlStdOperatorTable.AS.createCall(at, item, alias));
            changed = true;
        }
        if (changed) {
            select.setSelectList(new SqlNodeList(named, items.getParserPosition()));
        }
    }

    /** DuckDB's current_timestamp or a word of the session (SessionFunctions), read as a name, named as written. */
    private static boolean isCurrentTimestamp(SqlNode item) {
        return item instanceof SqlIdentifier id && id.isSimple() && !id.isComponentQuoted(0)
                && (id.getSimple().equalsIgnoreCase("CURRENT_TIMESTAMP") || SessionFunctions.isWord(id));
    }

    /** The name DuckDB gives a result column computed by {@code e}, spelt from the parsed tree alone. */
    static String of(SqlNode e) {
        return new ColumnNames(WrittenWords.NONE).name(e);
    }

    private String name(SqlNode e) {
        StringBuilder sb = new StringBuilder();
        write(e, sb);
        return sb.toString();
    }

    private void write(SqlNode e, StringBuilder sb) {
        if (e instanceof SqlIdentifier id) {
            sb.append(String.join(".", id.names.stream().map(ColumnNames::quoted).toList())); // *, t.* as written
        } else if (e instanceof SqlLiteral lit) {
            literal(lit, sb);
        } else if (e instanceof SqlCase c) {
            caseExpr(c, sb);
        } else if (e instanceof SqlSelect || e.getKind() == SqlKind.ORDER_BY || e.getKind() == SqlKind.UNION
                || e.getKind() == SqlKind.INTERSECT || e.getKind() == SqlKind.EXCEPT || e.getKind() == SqlKind.WITH
                || e.getKind() == SqlKind.VALUES) {
            String text = new SubqueryText(this::write, this::orderItem).of(e);
            sb.append('(').append(text != null ? text : "SELECT ...").append(')');
        } else if (e instanceof SqlCall call) {
            call(call, sb);
        } else if (e instanceof SqlNodeList list) {
            list(list.getList(), sb);
        } else if (e instanceof SqlDataTypeSpec type) {
            sb.append(new CastTypeNames(written).name(type));
        } else {
            sb.append(e);
        }
    }

    /** A name inside an expression as DuckDB writes it: in double quotes where it is a keyword or not a word. */
    private static String quoted(String name) {
        return name.isEmpty() ? "*" : DuckDbKeywords.quoted(name);
    }

    private void literal(SqlLiteral lit, StringBuilder sb) {
        if (lit instanceof SqlCharStringLiteral s) {
            sb.append('\'').append(s.getValueAs(String.class).replace("'", "''")).append('\'');
        } else if (lit instanceof SqlNumericLiteral n) {
            BigDecimal v = n.getValueAs(BigDecimal.class);
            String asWritten = writtenNumber(n, v);
            sb.append(asWritten != null ? asWritten
                    : n.isExact() ? v.toPlainString() : n.toString().toLowerCase(Locale.ROOT));
        } else if (lit instanceof SqlUnknownLiteral u) {
            // DATE '2020-01-01': DuckDB names the cast it becomes
            sb.append("CAST('").append(u.getValue().replace("'", "''")).append("' AS ")
                    .append(CastTypeNames.spelt(u.tag, written.at(u.getParserPosition(), u.tag))).append(')');
        } else if (lit instanceof SqlIntervalLiteral) {
            SqlIntervalLiteral.IntervalValue v = lit.getValueAs(SqlIntervalLiteral.IntervalValue.class);
            String value = "'" + v.getIntervalLiteral().replace("'", "''") + "'";
            // INTERVAL -'1' DAY, which DuckDB cannot parse, and two units keep their SQL
            if (v.getSign() < 0 || !IntervalNames.of(v.getIntervalQualifier(), value, sb)) {
                sb.append(lit);
            }
        } else if (lit.getTypeName() == SqlTypeName.NULL) {
            sb.append("NULL");
        } else if (lit.getTypeName() == SqlTypeName.BOOLEAN) {
            sb.append(lit.booleanValue() ? "true" : "false");
        } else if (lit.getTypeName() == SqlTypeName.SYMBOL) {
            sb.append(lit.getValue());
        } else {
            sb.append(lit);
        }
    }

    /**
     * A number as the statement writes it ({@code .5}, {@code 1e2}, {@code 007}), which DuckDB keeps in a name; null
     * where the text at the number's place is not a number of the same value (a bound ? mark, a rewritten tree).
     */
    private String writtenNumber(SqlNumericLiteral n, BigDecimal value) {
        String text = written.span(n.getParserPosition());
        if (text == null) {
            return null;
        }
        // the parser makes -.5 one negative number; DuckDB writes - .5 as -.5
        String digits = text.replaceFirst("^-\\s*", "");
        if (!digits.matches("([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?")) {
            return null;
        }
        // the sign as written: -0.0 keeps its minus, which its value (zero) has not
        String number = (text.startsWith("-") ? "-" : "") + digits;
        return new BigDecimal(number).compareTo(value) == 0 ? number : null;
    }

    /** DuckDB's CASE: {@code CASE  WHEN (c) THEN (v) ELSE e END}, a missing ELSE as NULL. */
    private void caseExpr(SqlCase c, StringBuilder sb) {
        sb.append("CASE ");
        SqlNode value = c.getValueOperand();
        for (int i = 0; i < c.getWhenOperands().size(); i++) {
            sb.append(" WHEN (");
            if (value != null) {
                sb.append('(');
                write(value, sb);
                sb.append(" = ");
                write(c.getWhenOperands().get(i), sb);
                sb.append(')');
            } else {
                write(c.getWhenOperands().get(i), sb);
            }
            sb.append(") THEN (");
            write(c.getThenOperands().get(i), sb);
            sb.append(')');
        }
        sb.append(" ELSE ");
        if (c.getElseOperand() == null) {
            sb.append("NULL");
        } else {
            write(c.getElseOperand(), sb);
        }
        sb.append(" END");
    }

    private void call(SqlCall call, StringBuilder sb) {
        List<SqlNode> ops = call.getOperandList();
        if (LambdaNames.writes(call, sb, this::write)) {
            return; // a lambda, a list comprehension
        }
        if (call.getOperator() == StructOperators.STRUCT_PACK) {
            structPack(ops, sb);
            return;
        }
        if (call.getOperator() == StructOperators.STRUCT_INSERT || call.getOperator() == StructOperators.STRUCT_UPDATE) {
            // struct_insert(s, b := 2), as DuckDB names it
            sb.append(call.getOperator().getName().toLowerCase(java.util.Locale.ROOT)).append('(');
            write(ops.get(0), sb);
            sb.append(", ");
            int at = sb.length();
            structPack(ops.subList(1, ops.size()), sb);
            sb.delete(at, at + "struct_pack(".length());
            return;
        }
        if (call.getOperator() == MapOperators.MAP_PACK) {
            mapPack(ops, sb);
            return;
        }
        if (call.getOperator() == TimestampFunctions.INTERVAL_LITERAL || call.getOperator() == IntervalSyntax.INFIX_INTERVAL) {
            sb.append("CAST("); // DuckDB's INTERVAL 'text', 'text'::INTERVAL and CAST('text' AS INTERVAL)
            write(ops.get(0), sb);
            sb.append(" AS INTERVAL)");
            return;
        }
        if (call.getKind() == SqlKind.ARGUMENT_ASSIGNMENT) {
            write(ops.get(1), sb); // a named argument, f(1, c := 2), as DuckDB names it
            sb.append(" := ");
            write(ops.get(0), sb);
            return;
        }
        if (call.getOperator() == IntegerDivision.OPERATOR) {
            binary("//", ops, sb); // (a // b), as DuckDB names it
            return;
        }
        if (PatternOperators.isOne(call.getOperator())) {
            // GLOB as ~~~, NOT GLOB as NOT of it, as DuckDB names them
            if (call.getOperator() == PatternOperators.NOT_GLOB_KEYWORD) {
                StringBuilder inner = new StringBuilder();
                binary("~~~", ops, inner);
                sb.append("(NOT ").append(inner).append(')');
            } else {
                binary(call.getOperator().getName(), ops, sb);
            }
            return;
        }
        if (PowerOperator.applies(call) || JsonArrows.isOne(call.getOperator())) {
            binary(call.getOperator().getName(), ops, sb); // (a ** b), (a ^ b), (j -> 'a')
            return;
        }
        if (BitwiseOperators.applies(call)) {
            if (call.getOperator() == BitwiseOperators.NOT) {
                sb.append("(~(");
                write(ops.get(0), sb);
                sb.append("))"); // (~(x)), as DuckDB names it
            } else {
                binary(call.getOperator().getName(), ops, sb); // (a & b), (a << b)
            }
            return;
        }
        switch (call.getKind()) {
            case PLUS, MINUS, TIMES, DIVIDE, MOD, EQUALS, NOT_EQUALS, LESS_THAN, GREATER_THAN, LESS_THAN_OR_EQUAL,
                 GREATER_THAN_OR_EQUAL, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> {
                if (call.getOperator().getName().equalsIgnoreCase("mod")) {
                    function("mod", call, sb);
                } else {
                    binary(call.getKind() == SqlKind.NOT_EQUALS ? "!=" : call.getOperator().getName(), ops, sb);
                }
            }
            case AND, OR -> conjunction(call, sb);
            case ARRAY_VALUE_CONSTRUCTOR -> {
                if (written.at(call.getParserPosition(), "ARRAY") != null) {
                    sb.append("(ARRAY["); // ARRAY[a, b] as DuckDB names it
                    items(ops, sb);
                    sb.append("])");
                } else {
                    function("list_value", call, sb); // [a, b] as DuckDB names it
                }
            }
            case ROW -> function("\"row\"", call, sb); // row(a, b) and (a, b)
            case NOT -> prefix("NOT ", ops.get(0), sb);
            case MINUS_PREFIX -> unary("-", ops.get(0), sb);
            case PLUS_PREFIX -> unary("+", ops.get(0), sb);
            case IS_NULL, IS_NOT_NULL -> {
                sb.append('(');
                write(ops.get(0), sb);
                sb.append(call.getKind() == SqlKind.IS_NULL ? " IS NULL)" : " IS NOT NULL)");
            }
            case IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> {
                // DuckDB: (CAST(x AS BOOLEAN) IS [NOT] DISTINCT FROM true|false)
                boolean not = call.getKind() == SqlKind.IS_TRUE || call.getKind() == SqlKind.IS_FALSE;
                boolean truth = call.getKind() == SqlKind.IS_TRUE || call.getKind() == SqlKind.IS_NOT_TRUE;
                sb.append("(CAST(");
                write(ops.get(0), sb);
                sb.append(" AS BOOLEAN) IS ").append(not ? "NOT " : "").append("DISTINCT FROM ")
                        .append(truth).append(')');
            }
            case BETWEEN -> {
                boolean not = call.getOperator().getName().startsWith("NOT");
                StringBuilder inner = new StringBuilder("(");
                write(ops.get(0), inner);
                inner.append(" BETWEEN ");
                write(ops.get(1), inner);
                inner.append(" AND ");
                write(ops.get(2), inner);
                inner.append(')');
                sb.append(not ? "(NOT " + inner + ")" : inner);
            }
            case IN, NOT_IN -> {
                StringBuilder inner = new StringBuilder("(");
                write(ops.get(0), inner);
                if (ops.get(1) instanceof SqlNodeList values) {
                    inner.append(" IN ");
                    list(values.getList(), inner);
                } else {
                    inner.append(" = ANY");
                    write(ops.get(1), inner);
                }
                inner.append(')');
                sb.append(call.getKind() == SqlKind.NOT_IN ? "(NOT " + inner + ")" : inner);
            }
            case LIKE -> {
                String name = call.getOperator().getName();
                boolean not = name.startsWith("NOT");
                boolean ilike = name.endsWith("ILIKE");
                if (ops.size() > 2) {
                    function(ilike ? "ilike_escape" : "like_escape", call, sb);
                } else {
                    binary((not ? "!~~" : "~~") + (ilike ? "*" : ""), ops, sb);
                }
            }
            case SIMILAR -> {
                boolean not = call.getOperator().getName().startsWith("NOT");
                StringBuilder inner = new StringBuilder("regexp_full_match(");
                write(ops.get(0), inner);
                inner.append(", ");
                write(ops.get(1), inner);
                inner.append(')');
                sb.append(not ? "(NOT " + inner + ")" : inner);
            }
            case CAST, SAFE_CAST -> {
                sb.append(call.getKind() == SqlKind.SAFE_CAST ? "TRY_CAST(" : "CAST(");
                write(ops.get(0), sb);
                sb.append(" AS ");
                write(ops.get(1), sb);
                sb.append(')');
            }
            case EXTRACT -> {
                // DuckDB's grammar has YEAR ... SECOND as keywords, in capitals; other units are names as written
                String unit = ops.get(0).toString();
                sb.append("date_part('").append(STANDARD_UNITS.contains(unit) ? unit : unit.toLowerCase(Locale.ROOT))
                        .append("', ");
                write(ops.get(1), sb);
                sb.append(')');
            }
            case POSITION -> {
                sb.append("\"position\"(");
                write(ops.get(1), sb);
                sb.append(", ");
                write(ops.get(0), sb);
                sb.append(')');
            }
            case TRIM -> trim(ops, sb);
            case ITEM -> {
                // l[1], s['a']: DuckDB's subscript; l[1:2], s[:2]: its slice, an omitted bound written as nothing
                write(ops.get(0), sb);
                sb.append('[');
                if (SliceSyntax.isBounds(ops.get(1))) {
                    List<SqlNode> bounds = ((SqlCall) ops.get(1)).getOperandList();
                    for (int i = 0; i < bounds.size(); i++) {
                        sb.append(i > 0 ? ":" : "");
                        if (!SliceSyntax.isOmitted(bounds.get(i))) {
                            write(bounds.get(i), sb);
                        } else if (i == 1 && bounds.size() > 2) {
                            sb.append('-'); // DuckDB's mark of a left-out end before a step
                        }
                    }
                } else {
                    write(ops.get(1), sb);
                }
                sb.append(']');
            }
            case DOT -> {
                // s.a of a struct value: DuckDB's (s).a
                sb.append('(');
                write(ops.get(0), sb);
                sb.append(").");
                write(ops.get(1), sb);
            }
            case SOME, ALL -> quantified(call, sb);
            case INTERVAL -> {
                // INTERVAL n DAY, INTERVAL (expr) DAY
                StringBuilder value = new StringBuilder();
                write(ops.get(0), value);
                if (!(ops.get(1) instanceof SqlIntervalQualifier q && IntervalNames.of(q, value.toString(), sb))) {
                    function("interval", call, sb);
                }
            }
            case EXISTS -> {
                sb.append("EXISTS");
                write(ops.get(0), sb);
            }
            case SCALAR_QUERY -> write(ops.get(0), sb);
            case FILTER -> {
                write(ops.get(0), sb);
                sb.append(" FILTER (WHERE ");
                write(ops.get(1), sb);
                sb.append(')');
            }
            case OVER -> {
                write(ops.get(0), sb);
                sb.append(" OVER ");
                if (ops.get(1) instanceof SqlWindow w) {
                    window(w, sb);
                } else {
                    write(ops.get(1), sb);
                }
            }
            case DESCENDING, NULLS_FIRST, NULLS_LAST -> {
                write(ops.get(0), sb);
                sb.append(switch (call.getKind()) {
                    case DESCENDING -> " DESC";
                    case NULLS_FIRST -> " NULLS FIRST";
                    default -> " NULLS LAST";
                });
            }
            default -> {
                String name = call.getOperator().getName();
                if (call.getOperator() == SqlStdOperatorTable.CONCAT || name.equals("||")) {
                    binary("||", ops, sb);
                } else if (name.equalsIgnoreCase("count") && ops.size() == 1 && ops.get(0) instanceof SqlIdentifier id
                        && id.isStar()) {
                    sb.append("count_star()");
                } else if (name.equalsIgnoreCase("coalesce") || name.equalsIgnoreCase("ifnull")) {
                    function("COALESCE", call, sb);
                } else if (call.getOperator() == SqlStdOperatorTable.CEIL
                        && written.at(call.getParserPosition(), "CEILING") != null) {
                    function("ceiling", call, sb); // Calcite's parser reads CEILING as CEIL
                } else if (name.equalsIgnoreCase("translate3")) {
                    function("translate", call, sb); // TRANSLATE as Calcite's parser reads it
                } else if (KEYWORD_FUNCTIONS.contains(name.toLowerCase(Locale.ROOT))) {
                    // DuckDB quotes the functions whose names are keywords
                    function("\"" + name.toLowerCase(Locale.ROOT) + "\"", call, sb);
                } else {
                    function(name.toLowerCase(Locale.ROOT), call, sb);
                }
            }
        }
    }

    /**
     * {@code x < ANY (query)} as DuckDB names it, {@code (x < ANY(SELECT ...))}; DuckDB writes ALL as the negation of
     * ANY with the opposite comparison: {@code x < ALL (query)} is {@code (NOT (x >= ANY(SELECT ...)))}.
     */
    private void quantified(SqlCall call, StringBuilder sb) {
        SqlKind comparison = ((org.apache.calcite.sql.fun.SqlQuantifyOperator) call.getOperator()).comparisonKind;
        boolean all = call.getKind() == SqlKind.ALL;
        SqlKind asAny = all ? comparison.negateNullSafe() : comparison;
        StringBuilder inner = new StringBuilder("(");
        write(call.operand(0), inner);
        inner.append(' ').append(switch (asAny) {
            case EQUALS -> "=";
            case NOT_EQUALS -> "!=";
            case LESS_THAN -> "<";
            case LESS_THAN_OR_EQUAL -> "<=";
            case GREATER_THAN -> ">";
            default -> ">=";
        }).append(" ANY");
        write(call.operand(1), inner);
        inner.append(')');
        sb.append(all ? "(NOT " + inner + ")" : inner);
    }

    private static final Set<String> STANDARD_UNITS =
            Set.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND");

    /** Functions whose names DuckDB prints quoted, as keywords of its grammar. */
    private static final Set<String> KEYWORD_FUNCTIONS =
            Set.of("substring", "left", "right", "replace", "nullif", "trim", "position", "mode", "first", "last",
                    "row", "map", "if", "overlay", "filter", "range", "year", "quarter", "month", "week", "day",
                    "hour", "minute", "second", "millisecond", "microsecond", "decade", "century", "millennium", "version");

    private void function(String name, SqlCall call, StringBuilder sb) {
        sb.append(name).append('(');
        if (call.getFunctionQuantifier() != null) {
            sb.append(call.getFunctionQuantifier().toValue()).append(' ');
        }
        List<SqlNode> ops = call.getOperandList();
        for (int i = 0; i < ops.size(); i++) {
            // an aggregate's ORDER BY inside its parentheses: string_agg's, resolved by the grammar, and that of an
            // aggregate resolved later (list, mode)
            if (i == ops.size() - 1 && i > 0 && ops.get(i) instanceof SqlNodeList order
                    && (call.getOperator().isAggregator()
                    || call.getOperator() instanceof org.apache.calcite.sql.SqlUnresolvedFunction)) {
                sb.append(" ORDER BY ");
                for (int k = 0; k < order.size(); k++) {
                    sb.append(k > 0 ? ", " : "");
                    orderItem(order.get(k), sb);
                }
                break;
            }
            if (i > 0) {
                sb.append(", ");
            }
            write(ops.get(i), sb);
        }
        sb.append(')');
    }

    /** {'a': 1} and struct_pack(a := 1) as DuckDB names them: {@code struct_pack(a := 1, "x y" := 2)}. */
    private void structPack(List<SqlNode> ops, StringBuilder sb) {
        sb.append("struct_pack(");
        for (int i = 0; i + 1 < ops.size(); i += 2) {
            String name = ops.get(i) instanceof SqlLiteral l ? l.getValueAs(String.class) : String.valueOf(ops.get(i));
            sb.append(i > 0 ? ", " : "").append(fieldName(name)).append(" := ");
            write(ops.get(i + 1), sb);
        }
        sb.append(')');
    }

    /** {@code MAP {1: 'a', 2: 'b'}} as DuckDB names it: {@code "map"(list_value(1, 2), list_value('a', 'b'))}. */
    private void mapPack(List<SqlNode> ops, StringBuilder sb) {
        StringBuilder keys = new StringBuilder();
        StringBuilder values = new StringBuilder();
        for (int i = 0; i + 1 < ops.size(); i += 2) {
            keys.append(i > 0 ? ", " : "");
            write(ops.get(i), keys);
            values.append(i > 0 ? ", " : "");
            write(ops.get(i + 1), values);
        }
        sb.append(ops.isEmpty() ? "\"map\"()" : "\"map\"(list_value(" + keys + "), list_value(" + values + "))");
    }

    /** A struct's field name as DuckDB writes it: in double quotes unless a word that is not a keyword. */
    private static String fieldName(String name) {
        return DuckDbKeywords.quoted(name);
    }

    private void binary(String op, List<SqlNode> ops, StringBuilder sb) {
        sb.append('(');
        write(ops.get(0), sb);
        sb.append(' ').append(op).append(' ');
        write(ops.get(1), sb);
        sb.append(')');
    }

    /** {@code (a AND b AND c)}: DuckDB flattens a chain of the same connective. */
    private void conjunction(SqlCall call, StringBuilder sb) {
        List<SqlNode> terms = new ArrayList<>();
        flatten(call, call.getKind(), terms);
        sb.append('(');
        for (int i = 0; i < terms.size(); i++) {
            if (i > 0) {
                sb.append(' ').append(call.getKind().sql).append(' ');
            }
            write(terms.get(i), sb);
        }
        sb.append(')');
    }

    private static void flatten(SqlNode node, SqlKind kind, List<SqlNode> terms) {
        if (node instanceof SqlCall c && c.getKind() == kind) {
            for (SqlNode op : c.getOperandList()) {
                flatten(op, kind, terms);
            }
        } else {
            terms.add(node);
        }
    }

    private void prefix(String op, SqlNode operand, StringBuilder sb) {
        sb.append('(').append(op);
        write(operand, sb);
        sb.append(')');
    }

    /** {@code (-(a))}; a negated number is the number, {@code -1}. */
    private void unary(String op, SqlNode operand, StringBuilder sb) {
        if (operand instanceof SqlNumericLiteral) {
            sb.append(op.equals("-") ? "-" : "");
            write(operand, sb);
            return;
        }
        sb.append('(').append(op).append('(');
        write(operand, sb);
        sb.append("))");
    }

    private void list(List<SqlNode> items, StringBuilder sb) {
        sb.append('(');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            write(items.get(i), sb);
        }
        sb.append(')');
    }

    /** TRIM(c) is {@code "trim"(c)}, with characters {@code "trim"(c, 'x')}; LEADING and TRAILING are ltrim, rtrim. */
    private void trim(List<SqlNode> ops, StringBuilder sb) {
        SqlTrimFunction.Flag flag = ((SqlLiteral) ops.get(0)).getValueAs(SqlTrimFunction.Flag.class);
        sb.append(switch (flag) {
            case LEADING -> "ltrim(";
            case TRAILING -> "rtrim(";
            default -> "\"trim\"(";
        });
        write(ops.get(2), sb);
        SqlNode chars = ops.get(1);
        if (!(chars instanceof SqlCharStringLiteral s && s.getValueAs(String.class).equals(" "))) {
            sb.append(", ");
            write(chars, sb);
        }
        sb.append(')');
    }

    private void window(SqlWindow w, StringBuilder sb) {
        if (w.getRefName() != null) {
            sb.append(w.getRefName().getSimple());
            return;
        }
        List<String> parts = new ArrayList<>();
        if (w.getPartitionList().size() > 0) {
            StringBuilder p = new StringBuilder("PARTITION BY ");
            items(w.getPartitionList().getList(), p);
            parts.add(p.toString());
        }
        if (w.getOrderList().size() > 0) {
            StringBuilder o = new StringBuilder("ORDER BY ");
            for (int i = 0; i < w.getOrderList().size(); i++) {
                o.append(i > 0 ? ", " : "");
                orderItem(w.getOrderList().get(i), o);
            }
            parts.add(o.toString());
        }
        if (w.getLowerBound() != null) {
            StringBuilder f = new StringBuilder(GroupsFrames.isGroups(w) ? "GROUPS" : w.isRows() ? "ROWS" : "RANGE");
            f.append(" BETWEEN ").append(bound(w.getLowerBound())).append(" AND ")
                    .append(w.getUpperBound() == null ? "CURRENT ROW" : bound(w.getUpperBound()));
            SqlLiteral x = w.getExclude();
            if (x != null && !SqlWindow.isExcludeNoOthers(x)) {
                f.append(" EXCLUDE ").append(SqlWindow.isExcludeCurrentRow(x) ? "CURRENT ROW"
                        : SqlWindow.isExcludeGroup(x) ? "GROUP" : "TIES");
            }
            // DuckDB leaves out the frame every ordered window has by default
            if (!f.toString().equals("RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW")) {
                parts.add(f.toString());
            }
        }
        sb.append('(').append(String.join(" ", parts)).append(')');
    }

    /**
     * An item of an ORDER BY as DuckDB names it: {@code a DESC NULLS FIRST}; an ASC as the statement writes it, which
     * DuckDB keeps and Calcite's parser drops, read from the word after the item's expression.
     */
    private void orderItem(SqlNode item, StringBuilder sb) {
        SqlNode e = item;
        String nulls = "";
        if (e.getKind() == SqlKind.NULLS_FIRST || e.getKind() == SqlKind.NULLS_LAST) {
            nulls = e.getKind() == SqlKind.NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST";
            e = ((SqlCall) e).operand(0);
        }
        boolean descending = e.getKind() == SqlKind.DESCENDING;
        if (descending) {
            e = ((SqlCall) e).operand(0);
        }
        write(e, sb);
        if (descending) {
            sb.append(" DESC");
        } else if (written.followedBy(e.getParserPosition(), "ASC")) {
            sb.append(" ASC");
        }
        sb.append(nulls);
    }

    private void items(List<SqlNode> nodes, StringBuilder sb) {
        for (int i = 0; i < nodes.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            write(nodes.get(i), sb);
        }
    }

    private String bound(SqlNode b) {
        if (SqlWindow.isUnboundedPreceding(b)) {
            return "UNBOUNDED PRECEDING";
        }
        if (SqlWindow.isUnboundedFollowing(b)) {
            return "UNBOUNDED FOLLOWING";
        }
        if (SqlWindow.isCurrentRow(b)) {
            return "CURRENT ROW";
        }
        SqlCall c = (SqlCall) b;
        return name(GroupsFrames.offset(c.operand(0))) + (c.getKind() == SqlKind.PRECEDING ? " PRECEDING" : " FOLLOWING");
    }
}
