package io.tessera.sql;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * A DATE compared with a constant TIMESTAMP, compared as a DATE with a constant DATE. DuckDB's DATE +/- INTERVAL is
 * a TIMESTAMP, so {@code l_shipdate <= date '1998-12-01' - interval '90' day} compares the column's midnight with a
 * timestamp; computed so, each row's date would be widened to a timestamp and the filter would no longer be a range
 * of the column that statistics, zone maps, join filters and the GPU read. The comparison is the same as one of the
 * date with the timestamp's day: at midnight with that day itself; otherwise {@code d < t} and {@code d <= t} are
 * {@code d <= day(t)}, {@code d > t} and {@code d >= t} are {@code d > day(t)}. An equality with a time of day is
 * left as it is (false for every date, but NULL for a NULL one: the row-wise form says both). Two dates' midnights
 * compare as the dates, and a date's midnight plus whole days or months is the midnight of a DATE sum
 * ({@link #dateSum}), so that {@code o_orderdate < lo + interval '100' day} of DATEs stays a comparison of DATEs.
 */
final class DateComparisons {

    private DateComparisons() {
    }

    /** {@code call} as a comparison of DATEs, or null when it is not a DATE compared with a constant TIMESTAMP. */
    static RexNode asDates(RexBuilder rex, RexCall call) {
        SqlKind kind = call.getKind();
        if (!isOrderComparison(kind) && kind != SqlKind.EQUALS && kind != SqlKind.NOT_EQUALS
                || call.getOperands().size() != 2) {
            return null;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        if (widenedDate(a) != null && widenedDate(b) != null) { // two dates' midnights compare as the dates
            return rex.makeCall(call.getType(), operator(kind), List.of(widenedDate(a), widenedDate(b)));
        }
        RexNode date = widenedDate(a);
        LocalDateTime t = timestampConstant(b);
        if (date == null || t == null) {
            date = widenedDate(b);
            t = timestampConstant(a);
            kind = kind.reverse();
        }
        if (date == null || t == null) {
            return null;
        }
        LocalDate day = t.toLocalDate();
        boolean midnight = t.toLocalTime().equals(java.time.LocalTime.MIDNIGHT);
        if (!midnight && !isOrderComparison(kind)) {
            return null;
        }
        if (!midnight) {
            kind = kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL
                    ? SqlKind.LESS_THAN_OR_EQUAL : SqlKind.GREATER_THAN;
        }
        RexNode dayLiteral = rex.makeDateLiteral(DateString.fromDaysSinceEpoch((int) day.toEpochDay()));
        return rex.makeCall(call.getType(), operator(kind), List.of(date, dayLiteral));
    }

    /**
     * {@code CAST(d AS TIMESTAMP) +/- i} for a DATE d and a constant interval i of months or of whole days:
     * {@code CAST(d +/- i AS TIMESTAMP)}, the sum a DATE's, as the range rules, the estimates and the GPU read it
     * (the date's midnight plus whole days or months is the midnight of the date plus them); else null.
     */
    static RexNode dateSum(RexBuilder rex, RexCall call) {
        IntervalShift shift = IntervalShift.of(call, SqlTypeName.TIMESTAMP);
        RexNode date = shift == null ? null : widenedDate(shift.operand());
        if (date == null || !wholeDaysOrMonths(shift)) {
            return null;
        }
        RexLiteral interval = shift.interval();
        var types = rex.getTypeFactory();
        RexNode sum = rex.makeCall(types.createTypeWithNullability(types.createSqlType(SqlTypeName.DATE),
                call.getType().isNullable()), call.getOperator(), List.of(date, interval));
        return rex.makeCast(call.getType(), sum);
    }

    private static boolean wholeDaysOrMonths(IntervalShift shift) {
        return shift.months() || shift.interval().getValueAs(java.math.BigDecimal.class)
                .remainder(java.math.BigDecimal.valueOf(86_400_000L)).signum() == 0;
    }

    /** The value of a constant TIMESTAMP: a TIMESTAMP literal or a DATE literal cast to TIMESTAMP; else null. */
    static LocalDateTime timestampConstant(RexNode n) {
        if (n.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP) {
            return null;
        }
        if (n instanceof RexLiteral lit && !lit.isNull()) {
            // from its text, which keeps the microseconds that its milliseconds since 1970 would drop
            return LocalDateTime.parse(lit.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
        }
        RexNode date = widenedDate(n);
        if (date instanceof RexLiteral lit && !lit.isNull()) {
            return LocalDate.ofEpochDay(lit.getValueAs(DateString.class).getDaysSinceEpoch()).atStartOfDay();
        }
        return null;
    }

    /** x where {@code n} is CAST(x AS TIMESTAMP) of a DATE x; else null. */
    private static RexNode widenedDate(RexNode n) {
        if (n.getKind() == SqlKind.CAST && n.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            RexNode x = ((RexCall) n).getOperands().get(0);
            return x.getType().getSqlTypeName() == SqlTypeName.DATE ? x : null;
        }
        return null;
    }

    private static boolean isOrderComparison(SqlKind kind) {
        return kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL || kind == SqlKind.GREATER_THAN
                || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    }

    private static SqlOperator operator(SqlKind kind) {
        return switch (kind) {
            case LESS_THAN -> SqlStdOperatorTable.LESS_THAN;
            case LESS_THAN_OR_EQUAL -> SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
            case GREATER_THAN -> SqlStdOperatorTable.GREATER_THAN;
            case GREATER_THAN_OR_EQUAL -> SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
            case EQUALS -> SqlStdOperatorTable.EQUALS;
            case NOT_EQUALS -> SqlStdOperatorTable.NOT_EQUALS;
            default -> throw new IllegalArgumentException(kind.toString());
        };
    }
}
