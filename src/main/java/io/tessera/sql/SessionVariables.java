package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.storage.DataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * DuckDB's variables of a session: {@code SET VARIABLE name = expression} keeps the expression's value, computed
 * once, with its type; {@code RESET VARIABLE name} forgets it; {@code getvariable('name')} in a statement is that
 * value, NULL where none is set (names ignore case). A value enters a statement as a typed literal node ({@code
 * CAST(value AS type)}, as {@link Parameters} binds a {@code ?}), never as text of the statement.
 */
public final class SessionVariables {

    /** The function that reads a variable, as SupportCheck names functions (upper case). */
    static final String GET = "GETVARIABLE";

    /** A variable's value (null: NULL) and its type. */
    public record Value(Object value, DataType type) {
    }

    private SessionVariables() {
    }

    /**
     * {@code SET VARIABLE name = expression} (or {@code TO}) or {@code RESET VARIABLE name} (its expression null),
     * whose first two tokens have been read: SET or RESET, then VARIABLE.
     */
    static Statement parse(String sql, List<LeadingTokens.Token> head) {
        boolean reset = head.getFirst().is(TesseraParserImplConstants.RESET);
        if (head.size() < 3 || !isName(head.get(2))) {
            LeadingTokens.Token at = head.get(Math.min(2, head.size() - 1));
            throw new SqlError((reset ? "RESET" : "SET") + " VARIABLE needs the variable's name" + at.at());
        }
        LeadingTokens.Token name = head.get(2);
        String n = name.is(TesseraParserImplConstants.QUOTED_IDENTIFIER)
                ? name.image().substring(1, name.image().length() - 1).replace("\"\"", "\"") : name.image();
        if (reset) {
            if (head.size() > 3 && !head.get(3).isEnd()) {
                throw new SqlError("RESET VARIABLE takes one name; found " + head.get(3).image() + head.get(3).at());
            }
            return new Statement.SetVariable(n, null);
        }
        if (head.size() < 5 || !(head.get(3).is(TesseraParserImplConstants.EQ) || head.get(3).named("TO"))
                || head.get(4).isEnd()) {
            LeadingTokens.Token at = head.get(Math.min(3, head.size() - 1));
            throw new SqlError("SET VARIABLE " + n + " needs a value: SET VARIABLE " + n + " = expression" + at.at());
        }
        return new Statement.SetVariable(n, sql.substring(head.get(4).offset()));
    }

    /** A name: an identifier, quoted or not, or a keyword that is no reserved word ({@code k}, {@code year}). */
    private static boolean isName(LeadingTokens.Token t) {
        if (t.is(TesseraParserImplConstants.IDENTIFIER) || t.is(TesseraParserImplConstants.QUOTED_IDENTIFIER)) {
            return true;
        }
        String image = t.image();
        return !image.isEmpty() && Character.isLetter(image.charAt(0))
                && image.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_')
                && !ReservedWords.isReserved(image);
    }

    /**
     * The query that computes a SET VARIABLE's value: {@code SELECT expression}, which must stay one expression
     * without FROM (a scalar subquery in it may read tables).
     */
    public static SqlNode valueQuery(String expression) {
        SqlNode parsed = SqlFrontEnd.parse("SELECT " + expression);
        if (!(parsed instanceof SqlSelect select) || select.getFrom() != null || select.getSelectList().size() != 1
                || select.getWhere() != null || select.getGroup() != null || select.getHaving() != null) {
            throw new SqlError("SET VARIABLE takes one expression as its value (a query in parentheses for a "
                    + "query's value)");
        }
        return parsed;
    }

    /** {@code parsed} with each {@code getvariable('name')} replaced by the variable's value of {@code variables}. */
    static SqlNode rewrite(SqlNode parsed, Map<String, Value> variables) {
        return parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (isGetVariable(call)) {
                    return value(call, variables);
                }
                return super.visit(call);
            }
        });
    }

    private static boolean isGetVariable(SqlCall call) {
        return call.getOperator() instanceof SqlFunction f && f.getName().equalsIgnoreCase(GET);
    }

    private static SqlNode value(SqlCall call, Map<String, Value> variables) {
        SqlParserPos pos = call.getParserPosition();
        if (call.operandCount() != 1) {
            throw new SqlError("getvariable takes one argument, the variable's name" + SupportCheck.at(pos));
        }
        SqlNode arg = call.operand(0);
        if (arg instanceof SqlLiteral l && l.getValue() == null) {
            return SqlLiteral.createNull(pos);
        }
        if (!(arg instanceof SqlCharStringLiteral name)) {
            throw new SqlError("getvariable takes the variable's name as a constant string"
                    + SupportCheck.at(arg.getParserPosition()));
        }
        Value v = variables.get(name.getValueAs(String.class).toLowerCase(Locale.ROOT));
        if (v == null) {
            return SqlLiteral.createNull(pos);
        }
        SqlNode literal = v.value() == null ? SqlLiteral.createNull(pos)
                : Parameters.canBind(v.value()) ? Parameters.literal(v.value(), pos)
                : SqlLiteral.createCharString(v.value().toString(), pos); // a nested value as its text, cast back
        return SqlStdOperatorTable.CAST.createCall(pos, literal, DataChangeQueries.typeSpec(v.type()));
    }

    /** The key a variable's name is kept under: names ignore case, as DuckDB's do. */
    public static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
