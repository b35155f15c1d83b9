package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's pattern operators as its parser reads them: {@code ~~} (LIKE), {@code !~~} (NOT LIKE), {@code ~~*} (ILIKE),
 * {@code !~~*} (NOT ILIKE), {@code ~~~} (GLOB) and {@code ^@} (starts_with), of the precedence of PostgreSQL's other
 * operators (below + and -, above LIKE and the comparisons: {@code 1 + 1 ^@ 2} is {@code (1 + 1) ^@ 2}); and
 * {@code a [NOT] GLOB b}, of LIKE's precedence. The parser makes these operators; after the result columns are named
 * ({@code ('abc' ~~~ 'a*')}, as DuckDB names them, a GLOB keyword's too) each is written as the call it is: LIKE,
 * ILIKE and their negations, STARTS_WITH, and GLOB as {@link #GLOB_FUNCTION}, which the JVM runs on a pattern that is
 * a value.
 */
public final class PatternOperators {

    private PatternOperators() {
    }

    /** Between the comparisons' and LIKE's (30, 32) and + and -'s (40); even, as Calcite's precedences are. */
    private static final int OTHER_PRECEDENCE = 36;
    /** LIKE's. */
    private static final int LIKE_PRECEDENCE = 32;

    private static SqlBinaryOperator op(String name, int precedence) {
        return new SqlBinaryOperator(name, SqlKind.OTHER, precedence, true, ReturnTypes.BOOLEAN_NULLABLE,
                InferTypes.FIRST_KNOWN, OperandTypes.STRING_STRING);
    }

    public static final SqlBinaryOperator LIKE = op("~~", OTHER_PRECEDENCE);
    public static final SqlBinaryOperator NOT_LIKE = op("!~~", OTHER_PRECEDENCE);
    public static final SqlBinaryOperator ILIKE = op("~~*", OTHER_PRECEDENCE);
    public static final SqlBinaryOperator NOT_ILIKE = op("!~~*", OTHER_PRECEDENCE);
    public static final SqlBinaryOperator GLOB = op("~~~", OTHER_PRECEDENCE);
    public static final SqlBinaryOperator STARTS_WITH = op("^@", OTHER_PRECEDENCE);
    /** {@code a GLOB b}: {@code ~~~} at LIKE's precedence. */
    public static final SqlBinaryOperator GLOB_KEYWORD = op("~~~", LIKE_PRECEDENCE);
    /** {@code a NOT GLOB b}: NOT of {@code ~~~}, at LIKE's precedence. */
    public static final SqlBinaryOperator NOT_GLOB_KEYWORD = op("NOT GLOB", LIKE_PRECEDENCE);

    /** GLOB of a string and a pattern, the function the GLOB operators become ({@code plan.SplitSortCalls}). */
    static final String GLOB_FUNCTION = "TESSERA_GLOB";

    /** The operators, told apart by identity (GLOB and GLOB_KEYWORD share a name, which operators' equality reads). */
    private static final List<SqlOperator> ALL = List.of(LIKE, NOT_LIKE, ILIKE, NOT_ILIKE, GLOB, STARTS_WITH,
            GLOB_KEYWORD, NOT_GLOB_KEYWORD);

    /**
     * DuckDB's functions of LIKE with an escape, {@code like_escape(s, pattern, escape)} and its ILIKE and negated
     * forms (upper case), each written as {@code s [NOT] [I]LIKE pattern ESCAPE escape}.
     */
    static final Map<String, SqlOperator> ESCAPE_FUNCTIONS = Map.of("LIKE_ESCAPE", SqlStdOperatorTable.LIKE,
            "NOT_LIKE_ESCAPE", SqlStdOperatorTable.NOT_LIKE, "ILIKE_ESCAPE", SqlLibraryOperators.ILIKE,
            "NOT_ILIKE_ESCAPE", SqlLibraryOperators.NOT_ILIKE);

    /** Whether {@code op} is one of these operators. */
    static boolean isOne(SqlOperator op) {
        return ALL.stream().anyMatch(o -> o == op);
    }

    /** The operators' calls written as the calls they are (after ColumnNames named the result columns). */
    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (visited instanceof SqlCall c && c.getOperator() instanceof SqlUnresolvedFunction fn
                        && ESCAPE_FUNCTIONS.containsKey(fn.getName().toUpperCase(Locale.ROOT))) {
                    String name = fn.getName().toUpperCase(Locale.ROOT);
                    if (c.operandCount() != 3) {
                        throw new SqlError("Invalid number of arguments to function " + name + ": "
                                + c.operandCount() + " (it takes 3)" + SupportCheck.at(c.getParserPosition()));
                    }
                    return ESCAPE_FUNCTIONS.get(name).createCall(c.getParserPosition(), c.getOperandList());
                }
                if (!(visited instanceof SqlCall c) || !isOne(c.getOperator())) {
                    return visited;
                }
                SqlParserPos pos = c.getParserPosition();
                List<SqlNode> ops = c.getOperandList();
                SqlOperator op = c.getOperator();
                if (op == LIKE || op == NOT_LIKE || op == ILIKE || op == NOT_ILIKE) {
                    SqlOperator to = op == LIKE ? SqlStdOperatorTable.LIKE : op == NOT_LIKE ? SqlStdOperatorTable.NOT_LIKE
                            : op == ILIKE ? SqlLibraryOperators.ILIKE : SqlLibraryOperators.NOT_ILIKE;
                    return to.createCall(pos, ops);
                }
                if (op == STARTS_WITH) {
                    return new SqlBasicCall(UnresolvedCalls.function("STARTS_WITH"), ops, pos);
                }
                SqlNode glob = new SqlBasicCall(UnresolvedCalls.function(GLOB_FUNCTION), ops, pos);
                return op == NOT_GLOB_KEYWORD ? SqlStdOperatorTable.NOT.createCall(pos, glob) : glob;
            }
        });
        return r == null ? parsed : r;
    }
}
