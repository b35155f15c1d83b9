package io.tessera.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The conjuncts of a WHERE that compare a column with a number ({@code id > 2500}, {@code 10 >= x}), as bounds on
 * the rows a query uses from its only FROM item ({@link FileReference.Bound}); anything else bounds nothing. The
 * WHERE still filters every row: a bound only lets a reader leave out rows that cannot pass it.
 */
final class FileBounds {

    private FileBounds() {
    }

    static List<FileReference.Bound> of(SqlNode where) {
        List<FileReference.Bound> out = new ArrayList<>();
        collect(where, out);
        return out;
    }

    private static void collect(SqlNode node, List<FileReference.Bound> out) {
        if (!(node instanceof SqlCall call)) {
            return;
        }
        if (call.getKind() == SqlKind.AND) {
            for (SqlNode operand : call.getOperandList()) {
                collect(operand, out);
            }
            return;
        }
        String op = switch (call.getKind()) {
            case LESS_THAN -> "<";
            case LESS_THAN_OR_EQUAL -> "<=";
            case GREATER_THAN -> ">";
            case GREATER_THAN_OR_EQUAL -> ">=";
            case EQUALS -> "=";
            default -> null;
        };
        if (op == null || call.operandCount() != 2) {
            return;
        }
        String column = column(call.operand(0));
        BigDecimal value = number(call.operand(1));
        if (column == null || value == null) {
            column = column(call.operand(1));
            value = number(call.operand(0));
            op = switch (op) {
                case "<" -> ">";
                case "<=" -> ">=";
                case ">" -> "<";
                case ">=" -> "<=";
                default -> op;
            };
        }
        if (column != null && value != null) {
            out.add(new FileReference.Bound(column, op, value));
        }
    }

    /**
     * An unqualified column name, in lower case; null for anything else (a qualified name may be an outer query's
     * column, and an unqualified one is the FROM item's when it has such a column).
     */
    private static String column(SqlNode n) {
        return n instanceof SqlIdentifier id && id.isSimple() && !id.isStar()
                ? id.getSimple().toLowerCase(Locale.ROOT) : null;
    }

    /** An exact number, or minus one; null for anything else. */
    private static BigDecimal number(SqlNode n) {
        if (n instanceof SqlNumericLiteral lit && lit.isExact()) {
            return lit.getValueAs(BigDecimal.class);
        }
        if (n instanceof SqlCall c && c.getKind() == SqlKind.MINUS_PREFIX && c.operandCount() == 1) {
            BigDecimal v = number(c.operand(0));
            return v == null ? null : v.negate();
        }
        return null;
    }
}
