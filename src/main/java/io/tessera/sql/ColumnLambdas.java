package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlLikeOperator;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The lambda of {@code COLUMNS(lambda c: c LIKE 'a%')}: a condition on a column's name, evaluated for each column of
 * the FROM while the query is planned (the name and the constants are values compared here, never code). It may use
 * the name, string literals, LIKE and ILIKE (negated too), = and &lt;&gt;, AND, OR, NOT, and starts_with, ends_with,
 * contains, regexp_matches, lower and upper; anything else is an error naming it.
 */
final class ColumnLambdas {

    private final String parameter;
    private final SqlNode body;

    private ColumnLambdas(String parameter, SqlNode body) {
        this.parameter = parameter;
        this.body = body;
    }

    /** The lambda as a condition on names; an error where it does not take exactly one parameter. */
    static ColumnLambdas of(SqlCall lambda) {
        // a SqlLambda as parsed, or a call of its operator where a rewrite rebuilt it: parameters, then body
        if (!(lambda.operand(0) instanceof SqlNodeList params) || params.size() != 1
                || !(params.get(0) instanceof SqlIdentifier p) || !p.isSimple()) {
            throw new SqlError("a lambda in COLUMNS(...) takes one parameter, the column's name"
                    + SupportCheck.at(lambda.getParserPosition()));
        }
        return new ColumnLambdas(p.getSimple(), lambda.operand(1));
    }

    /** Whether the condition holds for the column named {@code name}. */
    boolean selects(String name) {
        Object v = eval(body, name);
        if (!(v instanceof Boolean b)) {
            throw new SqlError("a lambda in COLUMNS(...) gives a boolean" + SupportCheck.at(body.getParserPosition()));
        }
        return b;
    }

    private Object eval(SqlNode node, String name) {
        if (node instanceof SqlIdentifier id && id.isSimple() && id.getSimple().equalsIgnoreCase(parameter)) {
            return name;
        }
        if (node instanceof SqlCharStringLiteral s) {
            return s.getValueAs(String.class);
        }
        if (node instanceof SqlLiteral l && l.getValue() instanceof Boolean b) {
            return b;
        }
        if (node instanceof SqlCall call) {
            if (call.getOperator() instanceof SqlLikeOperator like && call.operandCount() == 2) {
                boolean hit = like(text(call.operand(0), name), text(call.operand(1), name), like.isCaseSensitive());
                return hit != like.isNegated();
            }
            switch (call.getKind()) {
                case AND:
                    return bool(call.operand(0), name) && bool(call.operand(1), name);
                case OR:
                    return bool(call.operand(0), name) || bool(call.operand(1), name);
                case NOT:
                    return !bool(call.operand(0), name);
                case EQUALS:
                    return text(call.operand(0), name).equals(text(call.operand(1), name));
                case NOT_EQUALS:
                    return !text(call.operand(0), name).equals(text(call.operand(1), name));
                default:
                    break;
            }
            String function = call.getOperator().getName().toLowerCase(Locale.ROOT);
            switch (function) {
                case "starts_with":
                    return text(call.operand(0), name).startsWith(text(call.operand(1), name));
                case "ends_with":
                    return text(call.operand(0), name).endsWith(text(call.operand(1), name));
                case "contains":
                    return text(call.operand(0), name).contains(text(call.operand(1), name));
                case "regexp_matches":
                    try {
                        return Pattern.compile(text(call.operand(1), name)).matcher(text(call.operand(0), name)).find();
                    } catch (java.util.regex.PatternSyntaxException e) {
                        throw new SqlError("Failed to compile regex: " + e.getDescription()
                                + SupportCheck.at(call.getParserPosition()));
                    }
                case "lower":
                    return text(call.operand(0), name).toLowerCase(Locale.ROOT);
                case "upper":
                    return text(call.operand(0), name).toUpperCase(Locale.ROOT);
                default:
                    break;
            }
        }
        throw SupportCheck.unsupported("this in a lambda of COLUMNS(...) (it may use the name, string literals, LIKE,"
                + " ILIKE, =, <>, AND, OR, NOT, starts_with, ends_with, contains, regexp_matches, lower, upper)",
                node.getParserPosition());
    }

    private boolean bool(SqlNode node, String name) {
        if (eval(node, name) instanceof Boolean b) {
            return b;
        }
        throw new SqlError("a boolean was expected in a lambda of COLUMNS(...)" + SupportCheck.at(node.getParserPosition()));
    }

    private String text(SqlNode node, String name) {
        if (eval(node, name) instanceof String s) {
            return s;
        }
        throw new SqlError("text was expected in a lambda of COLUMNS(...)" + SupportCheck.at(node.getParserPosition()));
    }

    /** SQL's LIKE: % any run of characters, _ any one, everything else itself. */
    private static boolean like(String value, String pattern, boolean caseSensitive) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            switch (c) {
                case '%' -> regex.append(".*");
                case '_' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        int flags = Pattern.DOTALL | (caseSensitive ? 0 : Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        return Pattern.compile(regex.toString(), flags).matcher(value).matches();
    }
}
