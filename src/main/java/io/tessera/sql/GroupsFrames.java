package io.tessera.sql;

import io.tessera.sql.parser.TesseraParserImplConstants;
import io.tessera.sql.parser.Token;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Window frames in GROUPS (offsets counted in peer groups), which Calcite's windows lack: the grammar reads
 * {@code GROUPS} beside ROWS and RANGE, and {@link #window} makes the window Calcite carries. A GROUPS frame without
 * offsets is the RANGE frame of the same bounds (CURRENT ROW reaches the peers in both); one with an offset becomes a
 * ROWS frame whose offsets are wrapped in {@link #OFFSET}, which the plan reads back as a GROUPS frame
 * ({@code plan.WindowPlanning}).
 */
public final class GroupsFrames {

    /** The frame unit the grammar reads as GROUPS, held in the window's ROWS-or-RANGE literal until {@link #window}. */
    private enum Unit { GROUPS }

    /**
     * An offset of a GROUPS frame: the offset itself, which the window planning reads as a count of peer groups.
     * Not deterministic, so that constant reduction keeps the call; not in any operator table, so no query can name
     * it.
     */
    public static final SqlOperator OFFSET = new SqlSpecialOperator("GROUPS_OFFSET", SqlKind.OTHER_FUNCTION, 0, true,
            ReturnTypes.ARG0, null, OperandTypes.ANY) {
        @Override
        public boolean isDeterministic() {
            return false;
        }

        @Override
        public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
            return validator.deriveType(scope, call.operand(0)); // the offset's type, no function looked up by name
        }

        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
            call.operand(0).unparse(writer, leftPrec, rightPrec);
        }
    };

    private GroupsFrames() {
    }

    /** The unit GROUPS, as the grammar hands it to {@link #window}. */
    public static SqlLiteral unit(SqlParserPos pos) {
        return SqlLiteral.createSymbol(Unit.GROUPS, pos);
    }

    /**
     * Whether {@code GROUPS} opens a window's frame rather than naming the window: a name is followed by the end of
     * the specification or by its next clause.
     */
    public static boolean startsFrame(Token first, Token second) {
        if (first.kind != TesseraParserImplConstants.GROUPS) {
            return false;
        }
        return switch (second.kind) {
            case TesseraParserImplConstants.RPAREN, TesseraParserImplConstants.PARTITION,
                 TesseraParserImplConstants.ORDER, TesseraParserImplConstants.ROWS, TesseraParserImplConstants.RANGE,
                 TesseraParserImplConstants.GROUPS, TesseraParserImplConstants.ALLOW,
                 TesseraParserImplConstants.DISALLOW -> false;
            default -> true;
        };
    }

    /** The window of a specification as {@link SqlWindow#create} makes it, a GROUPS frame made one Calcite carries. */
    public static SqlWindow window(SqlIdentifier declName, SqlIdentifier refName, SqlNodeList partitionList,
                                   SqlNodeList orderList, SqlLiteral unit, SqlNode lowerBound, SqlNode upperBound,
                                   SqlLiteral allowPartial, SqlLiteral exclude, SqlParserPos pos) {
        if (!(unit.getValue() instanceof Unit)) {
            return SqlWindow.create(declName, refName, partitionList, orderList, unit, lowerBound, upperBound,
                    allowPartial, exclude, pos);
        }
        boolean offsets = hasOffset(lowerBound) || hasOffset(upperBound);
        if (!offsets) {
            return new Unoffset(pos, declName, refName, partitionList, orderList,
                    SqlLiteral.createBoolean(false, unit.getParserPosition()), lowerBound, upperBound, allowPartial,
                    exclude);
        }
        SqlLiteral rows = SqlLiteral.createBoolean(true, unit.getParserPosition());
        return SqlWindow.create(declName, refName, partitionList, orderList, rows, wrapped(lowerBound),
                wrapped(upperBound), allowPartial, exclude, pos);
    }

    /** Whether a window as the grammar made it has a GROUPS frame (for its column's name, which says GROUPS). */
    static boolean isGroups(SqlWindow w) {
        return w instanceof Unoffset || isOffset(w.getLowerBound()) || isOffset(w.getUpperBound());
    }

    /** A bound's offset as written: n of {@code GROUPS_OFFSET(n)}, any other offset as it is. */
    static SqlNode offset(SqlNode n) {
        return n instanceof SqlCall c && c.getOperator() == OFFSET ? c.operand(0) : n;
    }

    /** A GROUPS window without offsets: the RANGE window of the same bounds, known as GROUPS by its name. */
    private static final class Unoffset extends SqlWindow {
        Unoffset(SqlParserPos pos, SqlIdentifier declName, SqlIdentifier refName, SqlNodeList partitionList,
                 SqlNodeList orderList, SqlLiteral isRows, SqlNode lowerBound, SqlNode upperBound,
                 SqlLiteral allowPartial, SqlLiteral exclude) {
            super(pos, declName, refName, partitionList, orderList, isRows, lowerBound, upperBound, allowPartial,
                    exclude);
        }
    }

    /**
     * Refuses a frame in a window that refines a named one, and a GROUPS frame with an offset in a window without
     * ORDER BY: Calcite drops the frame of such a window for the whole partition, but every row is then a peer of
     * every other, and a frame of the groups before or after the current one is empty.
     */
    static void check(SqlWindow w) {
        if (w.getRefName() != null && w.getLowerBound() != null) {
            // Calcite's copy of the named window would drop this frame
            throw SupportCheck.unsupported("a frame in a window that refines a named window (write the frame in the "
                    + "WINDOW clause)", w.getParserPosition());
        }
        boolean groups = isOffset(w.getLowerBound()) || isOffset(w.getUpperBound());
        if (groups && w.getOrderList().isEmpty() && w.getRefName() == null) {
            throw SupportCheck.unsupported("a GROUPS frame with an offset and no ORDER BY", w.getParserPosition());
        }
    }

    private static boolean isOffset(SqlNode bound) {
        return hasOffset(bound) && ((SqlCall) bound).operand(0) instanceof SqlCall c && c.getOperator() == OFFSET;
    }

    private static boolean hasOffset(SqlNode bound) {
        return bound instanceof SqlCall c && (c.getKind() == SqlKind.PRECEDING || c.getKind() == SqlKind.FOLLOWING);
    }

    /** n PRECEDING or n FOLLOWING with n wrapped in {@link #OFFSET}; any other bound as it is. */
    private static SqlNode wrapped(SqlNode bound) {
        if (!hasOffset(bound)) {
            return bound;
        }
        SqlCall c = (SqlCall) bound;
        SqlNode n = c.operand(0);
        SqlNode offset = OFFSET.createCall(n.getParserPosition(), n);
        return c.getKind() == SqlKind.PRECEDING ? SqlWindow.createPreceding(offset, c.getParserPosition())
                : SqlWindow.createFollowing(offset, c.getParserPosition());
    }
}
