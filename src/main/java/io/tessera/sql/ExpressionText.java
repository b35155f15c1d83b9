package io.tessera.sql;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The text of an expression a definition keeps (a column's DEFAULT, a CHECK's condition), and the expression parsed
 * again from it: nodes of its own for each use.
 */
final class ExpressionText {

    private ExpressionText() {
    }

    /**
     * The text of {@code expression} in the statement {@code sql}: as written where its position gives text that
     * parses to the same expression, else as Calcite writes the expression.
     */
    static String of(SqlNode expression, String sql) {
        SqlParserPos pos = expression.getParserPosition();
        int from = LeadingTokens.offset(sql, pos.getLineNum(), pos.getColumnNum());
        int to = LeadingTokens.offset(sql, pos.getEndLineNum(), pos.getEndColumnNum()) + 1;
        if (from >= 0 && to <= sql.length() && from < to) {
            String written = sql.substring(from, to).strip();
            try {
                if (parse(written).toString().equals(expression.toString())) {
                    return written;
                }
            } catch (SqlError e) {
                // not the whole expression: as Calcite writes it
            }
        }
        return expression.toString();
    }

    /** An expression parsed from its text. */
    static SqlNode parse(String text) {
        try {
            return SqlParser.create(text, SqlFrontEnd.PARSER).parseExpression();
        } catch (SqlParseException e) {
            throw ParseErrors.of(e, text);
        }
    }
}
