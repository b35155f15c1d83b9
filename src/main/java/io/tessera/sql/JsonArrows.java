package io.tessera.sql;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.util.SqlShuttle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * DuckDB's JSON operators: {@code j -> path} is {@code json_extract(j, path)} and {@code j ->> path}
 * {@code json_extract_string(j, path)} (a path a JSONPath, a JSON pointer, a key or an array index, as those functions
 * take it; {@link JsonFunctions}). They have the precedence of PostgreSQL's other operators, as
 * {@link PatternOperators}' do: {@code j ->> 'a' = 'x'} compares the extracted text.
 *
 * <p>{@code ->} is also the lambda's arrow: among a call's arguments the parser reads {@code name -> body} as a
 * lambda, as DuckDB's does; where the function takes no lambda ({@code upper(j -> 'a')}) a lambda of one parameter is
 * the JSON operator, as DuckDB's binder decides. The result is VARCHAR (Tessera has no JSON type; DuckDB's {@code ->}
 * is typed JSON).
 */
public final class JsonArrows {

    private JsonArrows() {
    }

    /** Between the comparisons' and LIKE's (30, 32) and + and -'s (40), as the pattern operators'. */
    private static final int PRECEDENCE = 36;

    private static SqlBinaryOperator op(String name) {
        return new SqlBinaryOperator(name, SqlKind.OTHER, PRECEDENCE, true, ReturnTypes.VARCHAR_NULLABLE,
                InferTypes.FIRST_KNOWN, OperandTypes.ANY_ANY);
    }

    /** {@code j -> path}: JSON_EXTRACT. */
    public static final SqlBinaryOperator EXTRACT = op("->");
    /** {@code j ->> path}: JSON_EXTRACT_STRING. */
    public static final SqlBinaryOperator EXTRACT_TEXT = op("->>");

    /** Whether {@code op} is one of the two operators. */
    static boolean isOne(SqlOperator op) {
        return op == EXTRACT || op == EXTRACT_TEXT;
    }

    /**
     * The operators written as the functions they are, and a one-parameter lambda passed to a function that takes
     * none written as {@code ->} of its parameter and body.
     */
    static SqlNode rewrite(SqlNode parsed) {
        SqlNode r = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (!(visited instanceof SqlCall c)) {
                    return visited;
                }
                if (isOne(c.getOperator())) {
                    String function = c.getOperator() == EXTRACT ? "JSON_EXTRACT" : "JSON_EXTRACT_STRING";
                    return new SqlBasicCall(UnresolvedCalls.function(function), c.getOperandList(),
                            c.getParserPosition());
                }
                if (c.getOperator() instanceof SqlUnresolvedFunction fn
                        && !LambdaFunctions.has(fn.getName().toUpperCase(Locale.ROOT))
                        && c.getOperandList().stream().anyMatch(JsonArrows::isArrowLambda)) {
                    List<SqlNode> operands = new ArrayList<>();
                    for (SqlNode o : c.getOperandList()) {
                        operands.add(isArrowLambda(o) ? extract((SqlLambda) o) : o);
                    }
                    return c.getOperator().createCall(c.getFunctionQuantifier(), c.getParserPosition(), operands);
                }
                return visited;
            }
        });
        return r == null ? parsed : r;
    }

    /** A lambda written {@code x -> body} with one parameter (not DuckDB's {@code lambda x: body}). */
    private static boolean isArrowLambda(SqlNode node) {
        return node instanceof SqlLambda l && !(node instanceof KeywordLambda) && l.getParameters().size() == 1;
    }

    private static SqlNode extract(SqlLambda lambda) {
        return new SqlBasicCall(UnresolvedCalls.function("JSON_EXTRACT"),
                List.of(lambda.getParameters().get(0), lambda.getExpression()), lambda.getParserPosition());
    }
}
