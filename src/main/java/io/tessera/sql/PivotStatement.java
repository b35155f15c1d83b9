package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.sql.parser.Token;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * DuckDB's PIVOT statement as the parser reads it, {@code PIVOT t ON c [IN (...)], ... USING agg, ... GROUP BY g,
 * ...}, standing in the FROM of a {@code SELECT *} until {@link PivotStatements} makes it the standard PIVOT: its
 * table, its ON items (each with the values IN lists, or null where the data gives them), its aggregates (none:
 * DuckDB's count(*)) and its GROUP BY names.
 */
public final class PivotStatement extends SqlCall {

    static final SqlOperator OPERATOR = new SqlSpecialOperator("PIVOT", SqlKind.OTHER) {
        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            throw SupportCheck.unsupported("DuckDB's PIVOT statement here", call.getParserPosition());
        }
    };

    final SqlNode table;
    final List<SqlNode> on;
    final List<SqlNodeList> in;
    final List<SqlNode> using;
    final List<SqlIdentifier> groupBy;

    private PivotStatement(SqlParserPos pos, SqlNode table, List<SqlNode> on, List<SqlNodeList> in,
                           List<SqlNode> using, List<SqlIdentifier> groupBy) {
        super(pos);
        this.table = table;
        this.on = List.copyOf(on);
        this.in = Collections.unmodifiableList(new ArrayList<>(in)); // null where the data gives the values
        this.using = List.copyOf(using);
        this.groupBy = List.copyOf(groupBy);
    }

    /**
     * Whether the token after PIVOT starts the statement's table (a name, a quoted name, a file's string, a
     * parenthesized query), not an operator after a column named {@code pivot}.
     */
    public static boolean startsTable(Token next) {
        return switch (next.kind) {
            case TesseraParserImplConstants.LPAREN, TesseraParserImplConstants.QUOTED_STRING,
                 TesseraParserImplConstants.QUOTED_IDENTIFIER -> true;
            case TesseraParserImplConstants.AND, TesseraParserImplConstants.OR, TesseraParserImplConstants.IS,
                 TesseraParserImplConstants.NOT, TesseraParserImplConstants.IN, TesseraParserImplConstants.LIKE,
                 TesseraParserImplConstants.ILIKE, TesseraParserImplConstants.RLIKE,
                 TesseraParserImplConstants.SIMILAR, TesseraParserImplConstants.BETWEEN,
                 TesseraParserImplConstants.COLLATE, TesseraParserImplConstants.OVERLAPS,
                 TesseraParserImplConstants.AS, TesseraParserImplConstants.FROM, TesseraParserImplConstants.OVER,
                 TesseraParserImplConstants.FILTER, TesseraParserImplConstants.WITHIN -> false;
            default -> !next.image.isEmpty()
                    && (Character.isLetter(next.image.charAt(0)) || next.image.charAt(0) == '_');
        };
    }

    /** The statement as the query the grammar returns: {@code SELECT * FROM} the statement. */
    public static SqlNode query(SqlParserPos pos, SqlNode table, List<SqlNode> on, List<SqlNodeList> in,
                                List<SqlNode> using, List<SqlIdentifier> groupBy) {
        PivotStatement pivot = new PivotStatement(pos, table, on, in, using, groupBy);
        return new SqlSelect(pos, SqlNodeList.EMPTY, SqlNodeList.of(SqlIdentifier.star(pos)), pivot, null, null,
                null, null, null, null, null, null, null);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    /** The table and the expressions, for the walks of the parsed tree before the statement is expanded. */
    @Override
    public List<SqlNode> getOperandList() {
        return List.of(table, new SqlNodeList(on, getParserPosition()), new SqlNodeList(using, getParserPosition()));
    }

    @Override
    public SqlNode clone(SqlParserPos pos) {
        return new PivotStatement(pos, table, on, in, using, groupBy);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("PIVOT");
        table.unparse(writer, 0, 0);
        if (!on.isEmpty()) {
            writer.keyword("ON");
            for (int i = 0; i < on.size(); i++) {
                writer.sep(",");
                on.get(i).unparse(writer, 0, 0);
                if (in.get(i) != null) {
                    writer.keyword("IN");
                    in.get(i).unparse(writer, 0, 0);
                }
            }
        }
        if (!using.isEmpty()) {
            writer.keyword("USING");
            new SqlNodeList(using, getParserPosition()).unparse(writer, 0, 0);
        }
        if (!groupBy.isEmpty()) {
            writer.keyword("GROUP BY");
            new SqlNodeList(groupBy, getParserPosition()).unparse(writer, 0, 0);
        }
    }
}
