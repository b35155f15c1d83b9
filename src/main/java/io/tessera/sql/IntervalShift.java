package io.tessera.sql;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;

/**
 * A call {@code x + i}, {@code i + x} or {@code x - i} of a type with a constant, non-NULL interval i, taken apart for
 * the folds of date and time arithmetic ({@link ConstantFolding}, {@link DateComparisons}): the other operand, the
 * interval and whether it is subtracted.
 */
record IntervalShift(RexNode operand, RexLiteral interval, boolean minus) {

    /** {@code call} taken apart when it is such a call typed {@code type}; else null. */
    static IntervalShift of(RexCall call, SqlTypeName type) {
        boolean minus = call.getKind() == SqlKind.MINUS;
        if ((call.getKind() != SqlKind.PLUS && !minus) || call.getOperands().size() != 2
                || call.getType().getSqlTypeName() != type) {
            return null;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        if (!minus && isInterval(a)) {
            RexNode t = a;
            a = b;
            b = t;
        }
        return b instanceof RexLiteral interval && !interval.isNull() && isInterval(interval)
                ? new IntervalShift(a, interval, minus) : null;
    }

    /** The interval's value as Calcite keeps it (months, or milliseconds), negated when it is subtracted. */
    BigDecimal amount() {
        BigDecimal v = interval.getValueAs(BigDecimal.class);
        return minus ? v.negate() : v;
    }

    /** Whether the interval counts months (else days to seconds, in milliseconds). */
    boolean months() {
        return interval.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    static boolean isInterval(RexNode n) {
        SqlTypeFamily f = n.getType().getSqlTypeName().getFamily();
        return f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }
}
