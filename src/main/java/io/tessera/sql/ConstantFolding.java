package io.tessera.sql;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * Folds the constant arithmetic benchmark texts write into literals while planning: a date plus or minus an
 * interval ({@code date '1994-01-01' + interval '1' year}, a TIMESTAMP, which a DATE compared with it is compared
 * with as a DATE: {@link DateComparisons}) and the sum, difference or product of two exact numbers
 * ({@code 0.06 - 0.01}). Calcite leaves these calls alone (Tessera plans without its expression executor, see
 * {@link CheckedCasts}), and a bound that stays a call per row hides the range from the filter rules that fuse
 * {@code x >= lo AND x < hi} into one search. Months are added as {@link LocalDate#plusMonths} does (the last day of
 * a shorter month when the day does not exist), as at run time; a number that does not fit the call's type is left
 * to the run-time check and its error.
 */
final class ConstantFolding {

    private ConstantFolding() {
    }

    static RelNode fold(RelNode rel) {
        RexBuilder rex = rel.getCluster().getRexBuilder();
        RexShuttle folder = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall c = (RexCall) super.visitCall(call);
                RexNode folded = foldCall(rex, c);
                return folded != null ? folded : c;
            }
        };
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return super.visit(other).accept(folder);
            }
        });
    }

    /** The date literal {@code call} evaluates to, or null when it is not date +/- interval of constants. */
    private static RexNode foldCall(RexBuilder rex, RexCall call) {
        RexNode number = foldExact(rex, call);
        if (number != null) {
            return number;
        }
        RexNode times = foldIntervalTimes(rex, call);
        if (times != null) {
            return times;
        }
        RexNode date = foldDate(rex, call);
        if (date != null) {
            return date;
        }
        RexNode timestamp = foldTimestamp(rex, call);
        if (timestamp != null) {
            return timestamp;
        }
        RexNode sum = DateComparisons.dateSum(rex, call);
        return sum != null ? sum : DateComparisons.asDates(rex, call);
    }

    /**
     * DuckDB's {@code interval 3 day}, which Calcite converts to an interval literal of one day times 3, as the literal
     * {@code interval '3' day} is; null for any other call.
     */
    private static RexNode foldIntervalTimes(RexBuilder rex, RexCall call) {
        if (call.getKind() != SqlKind.TIMES || call.getOperands().size() != 2 || !isInterval(call)
                || call.getType().getIntervalQualifier() == null) {
            return null;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        RexNode interval = isInterval(a) ? a : b;
        RexNode times = interval == a ? b : a;
        if (!(interval instanceof RexLiteral iv) || iv.isNull() || !(times instanceof RexLiteral n) || n.isNull()
                || !SqlTypeName.INT_TYPES.contains(n.getType().getSqlTypeName())) {
            return null;
        }
        BigDecimal product = iv.getValueAs(BigDecimal.class).multiply(n.getValueAs(BigDecimal.class));
        return rex.makeIntervalLiteral(product, call.getType().getIntervalQualifier());
    }

    /**
     * The TIMESTAMP literal of a constant date's or timestamp's midnight plus or minus a constant interval
     * ({@code date '1998-12-01' - interval '90' day} is a TIMESTAMP, as in DuckDB), or null.
     */
    private static RexNode foldTimestamp(RexBuilder rex, RexCall call) {
        IntervalShift shift = IntervalShift.of(call, SqlTypeName.TIMESTAMP);
        LocalDateTime t = shift == null ? null : DateComparisons.timestampConstant(shift.operand());
        if (t == null) {
            return null;
        }
        BigDecimal amount = shift.amount();
        LocalDateTime result = shift.months()
                ? t.plusMonths(amount.longValueExact())
                : t.plus(amount.longValueExact(), java.time.temporal.ChronoUnit.MILLIS);
        if (result.getYear() < 1 || result.getYear() > 9999) {
            return null; // past the years Calcite's TIMESTAMP literal holds: computed when the query runs
        }
        int precision = Math.min(call.getType().getPrecision(), 9);
        if (result.getNano() % (long) Math.pow(10, 9 - precision) != 0) {
            return null; // a fraction of a second the call's type does not hold: computed when the query runs
        }
        TimestampString text = new TimestampString(result.getYear(), result.getMonthValue(), result.getDayOfMonth(),
                result.getHour(), result.getMinute(), result.getSecond()).withNanos(result.getNano());
        return rex.makeTimestampLiteral(text, call.getType().getPrecision());
    }

    /** The exact literal of {@code a + b}, {@code a - b} or {@code a * b} over exact literals, or null. */
    private static RexNode foldExact(RexBuilder rex, RexCall call) {
        SqlKind k = call.getKind();
        if ((k != SqlKind.PLUS && k != SqlKind.MINUS && k != SqlKind.TIMES) || call.getOperands().size() != 2
                || !SqlTypeName.EXACT_TYPES.contains(call.getType().getSqlTypeName())
                || !(call.getOperands().get(0) instanceof RexLiteral a) || !(call.getOperands().get(1) instanceof RexLiteral b)
                || a.isNull() || b.isNull()
                || !SqlTypeName.EXACT_TYPES.contains(a.getTypeName()) || !SqlTypeName.EXACT_TYPES.contains(b.getTypeName())) {
            return null;
        }
        BigDecimal x = a.getValueAs(BigDecimal.class);
        BigDecimal y = b.getValueAs(BigDecimal.class);
        BigDecimal v = switch (k) {
            case PLUS -> x.add(y);
            case MINUS -> x.subtract(y);
            default -> x.multiply(y);
        };
        int scale = Math.max(call.getType().getScale(), 0);
        try {
            v = v.setScale(scale, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException inexact) {
            return null;
        }
        int maxDigits = switch (call.getType().getSqlTypeName()) {
            case TINYINT -> 2;
            case SMALLINT -> 4;
            case INTEGER -> 9;
            case BIGINT -> 18;
            default -> call.getType().getPrecision();
        };
        if (v.precision() > maxDigits) {
            return null; // may be out of the type's range: the run-time check decides and says so
        }
        return rex.makeLiteral(v, call.getType());
    }

    private static RexNode foldDate(RexBuilder rex, RexCall call) {
        IntervalShift shift = IntervalShift.of(call, SqlTypeName.DATE);
        if (shift == null || !(shift.operand() instanceof RexLiteral date) || date.isNull()
                || date.getTypeName() != SqlTypeName.DATE) {
            return null;
        }
        BigDecimal amount = shift.amount();
        LocalDate d = LocalDate.ofEpochDay(date.getValueAs(DateString.class).getDaysSinceEpoch());
        LocalDate result;
        if (shift.months()) {
            result = d.plusMonths(amount.longValueExact());
        } else {
            BigDecimal[] days = amount.divideAndRemainder(BigDecimal.valueOf(86_400_000L));
            if (days[1].signum() != 0) {
                return null; // not whole days: left to the physical planner, which says so
            }
            result = d.plusDays(days[0].longValueExact());
        }
        if (result.getYear() < 1 || result.getYear() > 9999) {
            return null; // past the years Calcite's DATE literal holds: computed when the query runs, range checked
        }
        return rex.makeDateLiteral(DateString.fromDaysSinceEpoch((int) result.toEpochDay()));
    }

    private static boolean isInterval(RexNode n) {
        return IntervalShift.isInterval(n);
    }
}
