package io.tessera.plan;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code SUBSTRING(x, 1, n)} or {@code LEFT(x, n)} compared for equality with constants (TPC-H Q22's country codes)
 * as comparisons of {@code x} itself, so that no string is cut per row and a dictionary column compares its codes
 * with bounds looked up once per query. In code point order the strings whose first n code points are a constant
 * of n code points are one range, [constant, constant with its last code point raised by one); a shorter constant
 * equals only the string {@code x} that is that constant; a longer one equals none. Both sides are NULL for a NULL
 * {@code x}, so the rewrite keeps SQL's three-valued result. Constants with a character at or above U+D800 are left
 * as they are: below it UTF-16 order, which Calcite's literals use, is code point order.
 */
final class PrefixComparisons {

    private PrefixComparisons() {
    }

    /**
     * {@code subject = c1 OR subject = c2 OR ...} over {@code x}, or null when {@code subject} is not a prefix of a
     * string or a constant is one this rewrite leaves alone (or no constant can match).
     */
    static RexNode equalAny(RexBuilder b, RexNode subject, List<RexLiteral> constants) {
        if (!(subject instanceof RexCall call)) {
            return null;
        }
        long n = prefixLength(call);
        if (n < 1) {
            return null;
        }
        RexNode x = call.getOperands().get(0);
        List<RexNode> terms = new ArrayList<>();
        for (RexLiteral lit : constants) {
            String c = lit.isNull() ? null : lit.getValueAs(String.class);
            if (c == null || !belowSurrogates(c)) {
                return null;
            }
            if (c.length() > n) {
                continue; // no prefix of n code points is longer
            }
            if (c.length() < n) {
                terms.add(b.makeCall(SqlStdOperatorTable.EQUALS, x, b.makeLiteral(c)));
                continue;
            }
            char last = c.charAt(c.length() - 1);
            if (last + 1 >= 0xD800) {
                return null;
            }
            String above = c.substring(0, c.length() - 1) + (char) (last + 1);
            terms.add(b.makeCall(SqlStdOperatorTable.AND,
                    b.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, x, b.makeLiteral(c)),
                    b.makeCall(SqlStdOperatorTable.LESS_THAN, x, b.makeLiteral(above))));
        }
        if (terms.isEmpty()) {
            return null;
        }
        return terms.size() == 1 ? terms.get(0) : b.makeCall(SqlStdOperatorTable.OR, terms);
    }

    /** n of {@code SUBSTRING(x, 1, n)} or {@code LEFT(x, n)} with constant positions, else -1. */
    private static long prefixLength(RexCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<RexNode> ops = call.getOperands();
        return switch (name) {
            case "SUBSTRING", "SUBSTR" -> ops.size() == 3 && constant(ops.get(1)) == 1 ? constant(ops.get(2)) : -1;
            case "LEFT" -> ops.size() == 2 ? constant(ops.get(1)) : -1;
            default -> -1;
        };
    }

    /** A non-NULL integer constant below 2^31, else -1. */
    private static long constant(RexNode node) {
        if (!(node instanceof RexLiteral lit) || lit.isNull()
                || !(lit.getValue() instanceof BigDecimal)) {
            return -1;
        }
        BigDecimal v = lit.getValueAs(BigDecimal.class);
        return v.scale() <= 0 && v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) < 0 && v.signum() >= 0
                ? v.longValueExact() : -1;
    }

    private static boolean belowSurrogates(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0xD800) {
                return false;
            }
        }
        return true;
    }
}
