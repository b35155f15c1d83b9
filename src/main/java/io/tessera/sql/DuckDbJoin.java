package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.sql.parser.Token;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Locale;

/**
 * The join type of a DuckDB join that Calcite has no type for, as the parser reads it ({@code POSITIONAL JOIN},
 * {@code ASOF [LEFT] JOIN}): a join type literal of the nearest standard type (CROSS, INNER, LEFT, ...), so that
 * the parsed {@link SqlJoin} is an ordinary one, marked as this class for {@link PositionalJoins} and
 * {@link AsofJoins}, which rewrite it before anything else reads the tree.
 */
public final class DuckDbJoin extends SqlLiteral {

    /** The joins, each with the standard join type it is parsed as. */
    public enum Kind {
        POSITIONAL("POSITIONAL JOIN", JoinType.CROSS),
        ASOF("ASOF JOIN", JoinType.INNER),
        ASOF_LEFT("ASOF LEFT JOIN", JoinType.LEFT),
        ASOF_RIGHT("ASOF RIGHT JOIN", JoinType.RIGHT),
        ASOF_FULL("ASOF FULL JOIN", JoinType.FULL);

        final String words;
        final JoinType standard;

        Kind(String words, JoinType standard) {
            this.words = words;
            this.standard = standard;
        }
    }

    final Kind kind;

    private DuckDbJoin(Kind kind, SqlParserPos pos) {
        super(kind.standard, SqlTypeName.SYMBOL, pos);
        this.kind = kind;
    }

    public static DuckDbJoin of(Kind kind, SqlParserPos pos) {
        return new DuckDbJoin(kind, pos);
    }

    @Override
    public SqlLiteral clone(SqlParserPos pos) {
        return new DuckDbJoin(kind, pos);
    }

    /** The kind of DuckDB join {@code join} is, or null where it is a standard one. */
    static Kind kindOf(SqlJoin join) {
        return join.getJoinTypeNode() instanceof DuckDbJoin d ? d.kind : null;
    }

    /**
     * Whether the tokens ahead start a DuckDB join after a table: {@code POSITIONAL JOIN}, {@code ASOF JOIN},
     * {@code ASOF LEFT|RIGHT|FULL|INNER [OUTER] JOIN}; there POSITIONAL and ASOF are no alias of the table.
     */
    public static boolean startsJoin(Token first, Token second, Token third) {
        if (first.kind == TesseraParserImplConstants.IDENTIFIER) {
            return first.image.toUpperCase(Locale.ROOT).equals("POSITIONAL")
                    && second.kind == TesseraParserImplConstants.JOIN;
        }
        if (first.kind != TesseraParserImplConstants.ASOF) {
            return false;
        }
        return switch (second.kind) {
            case TesseraParserImplConstants.JOIN -> true;
            case TesseraParserImplConstants.INNER, TesseraParserImplConstants.LEFT, TesseraParserImplConstants.RIGHT,
                 TesseraParserImplConstants.FULL -> third.kind == TesseraParserImplConstants.JOIN
                    || third.kind == TesseraParserImplConstants.OUTER;
            default -> false;
        };
    }
}
