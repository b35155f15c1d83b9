package io.tessera.sql;

import io.tessera.storage.Timestamps;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * {@code range(start, stop, step)} and {@code generate_series} of TIMESTAMPs in FROM: a DATE or TIMESTAMP constant
 * for start and stop (a DATE its midnight), an interval constant of one unit for the step ({@code INTERVAL 1 DAY},
 * {@code INTERVAL '2' HOUR}), as DuckDB takes them.
 */
final class SeriesTimestamps {

    private SeriesTimestamps() {
    }

    /** Whether a series' first argument is a DATE or TIMESTAMP constant. */
    static boolean isTemporal(SqlNode arg) {
        SqlNode n = resolved(arg);
        return n instanceof SqlLiteral lit && (lit.getTypeName() == SqlTypeName.DATE
                || lit.getTypeName() == SqlTypeName.TIMESTAMP);
    }

    /** A DATE or TIMESTAMP literal as the parser leaves it (its type resolved only when validated), resolved. */
    private static SqlNode resolved(SqlNode arg) {
        if (arg instanceof SqlUnknownLiteral u) {
            String tag = u.tag.toUpperCase(java.util.Locale.ROOT);
            if (tag.equals("DATE") || tag.equals("TIMESTAMP")) {
                try {
                    return u.resolve(SqlTypeName.valueOf(tag));
                } catch (RuntimeException e) {
                    throw new SqlError("invalid " + tag + " '" + u.getValue() + "' in a series"
                            + SupportCheck.at(u.getParserPosition()), e);
                }
            }
        }
        return arg;
    }

    static Series of(String function, List<SqlNode> args, SqlParserPos pos) {
        LocalDateTime start = time(function, args.get(0));
        LocalDateTime stop = time(function, args.get(1));
        Series.Interval step = interval(function, args.get(2));
        if (step.months() == 0 && step.days() == 0 && step.micros() == 0) {
            throw new SqlError(function + " at line " + pos.getLineNum() + ", column " + pos.getColumnNum()
                    + ": interval cannot be 0!");
        }
        boolean inclusive = function.equals("generate_series");
        boolean up = step.ascends();
        long count = 0;
        for (LocalDateTime t = start; up ? t.isBefore(stop) || inclusive && t.equals(stop)
                : t.isAfter(stop) || inclusive && t.equals(stop); t = step.after(t)) {
            if (++count > Series.MAX_ROWS) {
                throw new SqlError(function + " at line " + pos.getLineNum() + ", column " + pos.getColumnNum()
                        + " makes more than the " + Series.MAX_ROWS + " rows a series in FROM may have");
            }
        }
        return new Series(function, Timestamps.micros(start), 0, count, pos, step);
    }

    private static LocalDateTime time(String function, SqlNode node) {
        SqlNode arg = resolved(node);
        if (arg instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.DATE) {
            return LocalDate.ofEpochDay(lit.getValueAs(DateString.class).getDaysSinceEpoch()).atStartOfDay();
        }
        if (arg instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.TIMESTAMP) {
            return LocalDateTime.parse(lit.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
        }
        throw unsupported(function, arg, "a DATE or TIMESTAMP constant");
    }

    /** An interval constant of one unit as months, days and microseconds. */
    private static Series.Interval interval(String function, SqlNode arg) {
        SqlIntervalQualifier q;
        long n;
        if (arg instanceof SqlIntervalLiteral lit) {
            SqlIntervalLiteral.IntervalValue v = lit.getValueAs(SqlIntervalLiteral.IntervalValue.class);
            q = v.getIntervalQualifier();
            try {
                n = Long.parseLong(v.getIntervalLiteral().trim()) * v.getSign();
            } catch (NumberFormatException e) {
                throw unsupported(function, arg, "an interval of one unit (INTERVAL 1 DAY)");
            }
        } else if (arg instanceof SqlCall c && c.getKind() == SqlKind.INTERVAL && c.operandCount() == 2
                && c.operand(1) instanceof SqlIntervalQualifier iq && c.operand(0) instanceof SqlLiteral num
                && num.getValue() instanceof BigDecimal d && d.scale() <= 0) {
            q = iq;
            n = d.longValueExact();
        } else {
            throw unsupported(function, arg, "an interval of one unit (INTERVAL 1 DAY)");
        }
        if (q.timeUnitRange.endUnit != null && q.timeUnitRange.endUnit != q.timeUnitRange.startUnit) {
            throw unsupported(function, arg, "an interval of one unit (INTERVAL 1 DAY)");
        }
        TimeUnit unit = q.timeUnitRange.startUnit;
        return switch (unit) {
            case YEAR -> new Series.Interval(Math.toIntExact(n * 12), 0, 0);
            case MONTH -> new Series.Interval(Math.toIntExact(n), 0, 0);
            case WEEK -> new Series.Interval(0, Math.toIntExact(n * 7), 0);
            case DAY -> new Series.Interval(0, Math.toIntExact(n), 0);
            case HOUR -> new Series.Interval(0, 0, n * Timestamps.MICROS_PER_HOUR);
            case MINUTE -> new Series.Interval(0, 0, n * Timestamps.MICROS_PER_MINUTE);
            case SECOND -> new Series.Interval(0, 0, n * Timestamps.MICROS_PER_SECOND);
            case MILLISECOND -> new Series.Interval(0, 0, n * 1000);
            case MICROSECOND -> new Series.Interval(0, 0, n);
            default -> throw unsupported(function, arg, "an interval of one unit (INTERVAL 1 DAY)");
        };
    }

    private static SqlError unsupported(String function, SqlNode arg, String wanted) {
        SqlParserPos p = arg.getParserPosition();
        return new SqlError("unsupported: " + function + " of TIMESTAMPs at line " + p.getLineNum() + ", column "
                + p.getColumnNum() + " takes " + wanted + ", not " + arg);
    }
}
