package io.tessera.sql;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;

/**
 * DuckDB's list comprehension {@code [result for x[, i] in list [if condition]]}, as the grammar reads it: without a
 * condition the call {@code list_apply(list, lambda x: result)}, as DuckDB makes it; with one
 * {@link LambdaFunctions#COMPREHENSION} of the list and both lambdas, of the same parameters.
 */
public final class ListComprehensions {

    private ListComprehensions() {
    }

    /** {@code results} holds what the brackets held before FOR: one expression, or it is no comprehension. */
    public static SqlNode of(SqlParserPos pos, SqlNodeList results, List<SqlIdentifier> parameters, SqlNode list,
                             SqlNode condition) {
        if (results.size() != 1) {
            throw new SqlError("a list comprehension has one expression before FOR" + SupportCheck.at(pos));
        }
        SqlNode result = new KeywordLambda(pos, copy(parameters, pos), results.get(0));
        if (condition == null) {
            return LambdaFunctions.lookup("LIST_APPLY").createCall(pos, list, result);
        }
        return LambdaFunctions.COMPREHENSION.createCall(pos, list, result,
                new KeywordLambda(pos, copy(parameters, pos), condition));
    }

    private static SqlNodeList copy(List<SqlIdentifier> parameters, SqlParserPos pos) {
        SqlNodeList copy = new SqlNodeList(pos);
        for (SqlIdentifier p : parameters) {
            copy.add(p.clone(p.getParserPosition()));
        }
        return copy;
    }
}
