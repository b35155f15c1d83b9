package io.tessera.sql;

import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * DuckDB's {@code lambda x, i: body}, the same lambda as {@code (x, i) -> body}: a lambda of its own class only so
 * that a result column is named with the form written ({@link LambdaNames}). Made by the grammar, and for a list
 * comprehension's result and condition ({@link ListComprehensions}).
 */
public final class KeywordLambda extends SqlLambda {

    public KeywordLambda(SqlParserPos pos, SqlNodeList parameters, SqlNode expression) {
        super(pos, parameters, expression);
    }
}
