package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.Interval;
import io.tessera.storage.IntervalText;
import io.tessera.storage.Timestamps;
import io.tessera.storage.TypeKind;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeFamily;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's INTERVAL in a Calcite plan as Tessera expressions: literals (Calcite's, with a unit, and DuckDB's text,
 * read when the query is planned), TIMESTAMP - TIMESTAMP, AGE, interval + interval, interval * integer, unary minus,
 * a TIMESTAMP plus an interval that is not a constant, comparisons (by length: 30 days equal 1 month), EXTRACT and
 * casts to and from VARCHAR. Every one is a {@link TemporalFunction} that the JVM runs on the interval's code
 * ({@link Interval#encode()}) and the GPU refuses with its reason. A TIMESTAMP or DATE plus a constant interval of
 * Calcite's stays with {@link RexTranslator}, which folds it into calendar arithmetic.
 */
final class IntervalCalls {

    private final TimestampCalls timestamps;

    IntervalCalls(TimestampCalls timestamps) {
        this.timestamps = timestamps;
    }

    static boolean isInterval(RexNode n) {
        SqlTypeFamily f = n.getType().getSqlTypeName().getFamily();
        return f == SqlTypeFamily.INTERVAL_DAY_TIME || f == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /**
     * A Calcite interval literal as DuckDB's value: YEAR and MONTH as months; a literal that starts at DAY as whole
     * days and the rest as microseconds; one of HOUR, MINUTE or SECOND as microseconds ({@code INTERVAL '36' HOUR}
     * is 36:00:00, as in DuckDB).
     */
    static Interval of(RexLiteral lit) {
        BigDecimal v = lit.getValueAs(BigDecimal.class);
        if (lit.getTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
            return new Interval(v.intValueExact(), 0, 0);
        }
        long micros = v.multiply(BigDecimal.valueOf(1000)).longValueExact();
        TimeUnit start = lit.getType().getIntervalQualifier().getStartUnit();
        return start == TimeUnit.DAY || start == TimeUnit.WEEK ? Interval.ofMicros(micros) : new Interval(0, 0, micros);
    }

    /** The expression of an interval call, or null when {@code call} is none of those this class lowers. */
    Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean nullable = call.getType().isNullable();
        List<RexNode> ops = call.getOperands();
        switch (name) {
            case "TESSERA_INTERVAL", "TESSERA_INTERVAL_OR_NULL", "::INTERVAL" -> {
                return parse(translate.apply(ops.get(0)), nullable);
            }
            case "TESSERA_INTERVAL_KEY" -> {
                return equalityKey(translate.apply(ops.get(0)));
            }
            case "TESSERA_INTERVAL_KEY_HASH" -> {
                Expr v = translate.apply(ops.get(0));
                return new Expr.Call(Op.LIST, List.of(v), DataType.BIGINT, v.nullable(), ListFunction.EQUALITY_HASH);
            }
            case "TESSERA_NESTED_CODE", "TESSERA_NESTED_OF_CODE" -> {
                Expr v = translate.apply(ops.get(0));
                DataType type = name.endsWith("OF_CODE") ? Types.of(call.getType()) : DataType.VARCHAR;
                return new Expr.Call(Op.LIST, List.of(v), type, v.nullable(), ListFunction.CODE);
            }
            case "TESSERA_INTERVAL_KEY_DAYS", "TESSERA_INTERVAL_KEY_MICROS" -> {
                Expr iv = translate.apply(ops.get(0));
                return call(name.endsWith("DAYS") ? TemporalFunction.INTERVAL_KEY_DAYS
                        : TemporalFunction.INTERVAL_KEY_MICROS, List.of(iv), DataType.BIGINT, iv.nullable());
            }
            case "TO_MILLENNIA", "TO_CENTURIES", "TO_DECADES", "TO_YEARS", "TO_QUARTERS", "TO_MONTHS", "TO_WEEKS",
                 "TO_DAYS", "TO_HOURS", "TO_MINUTES", "TO_SECONDS", "TO_MILLISECONDS", "TO_MICROSECONDS" -> {
                // the unit a bound value; seconds and milliseconds of a DOUBLE, the others of a BIGINT
                Expr n = translate.apply(ops.get(0));
                DataType of = name.equals("TO_SECONDS") || name.equals("TO_MILLISECONDS") ? DataType.DOUBLE
                        : DataType.BIGINT;
                Expr arg = n.type().equals(of) ? n : new Expr.Call(Op.CAST, List.of(n), of, n.nullable());
                return call(TemporalFunction.INTERVAL_OF_UNIT, List.of(new Expr.Literal(name.substring(3),
                        DataType.VARCHAR), arg), DataType.INTERVAL, nullable);
            }
            case "TESSERA_CHECKED_CAST" -> {
                return cast(call, translate, nullable);
            }
            case "DATE_ADD" -> {
                if (ops.get(1) instanceof RexLiteral) {
                    return null; // calendar arithmetic, folded (TimestampCalls)
                }
                return call(TemporalFunction.TIMESTAMP_PLUS_INTERVAL, List.of(timestamps.timestamp(
                        translate.apply(ops.get(0))), translate.apply(ops.get(1))), DataType.TIMESTAMP, nullable);
            }
            case "TESSERA_TIMESTAMP_DIFF" -> {
                Expr x = translate.apply(ops.get(0));
                Expr y = translate.apply(ops.get(1));
                if ((ZonedCalls.isZoned(x) || ZonedCalls.isZoned(y)) && !timestamps.zoned().fixedOffset()) {
                    // DuckDB counts the calendar days of the zone between them, some 23 or 25 hours long
                    throw new SqlError("unsupported: a TIMESTAMP WITH TIME ZONE minus a timestamp in time zone "
                            + timestamps.zoned().zoneId() + ", whose offset changes (UTC and fixed offsets are"
                            + " supported)");
                }
                return call(TemporalFunction.TIMESTAMP_DIFF, List.of(x, y), DataType.INTERVAL, nullable);
            }
            case "AGE" -> {
                // age(ts): from today's midnight (the day the query was planned, UTC), as DuckDB's current_date
                Expr end = ops.size() == 2 ? timestamps.timestamp(translate.apply(ops.get(0)))
                        : new Expr.Literal(Timestamps.ofDays(Timestamps.days(timestamps.now())), DataType.TIMESTAMP);
                Expr start = timestamps.timestamp(translate.apply(ops.get(ops.size() - 1)));
                return call(TemporalFunction.AGE, List.of(end, start), DataType.INTERVAL, nullable);
            }
            default -> {
            }
        }
        switch (call.getKind()) {
            case PLUS, MINUS -> {
                return sum(call, translate, nullable);
            }
            case TIMES -> {
                if (ops.size() != 2 || !isInterval(ops.get(0)) && !isInterval(ops.get(1))) {
                    return null;
                }
                boolean first = isInterval(ops.get(0));
                Expr iv = translate.apply(ops.get(first ? 0 : 1));
                Expr n = translate.apply(ops.get(first ? 1 : 0));
                if (n.type().kind() != TypeKind.INTEGER && n.type().kind() != TypeKind.BIGINT) {
                    throw new SqlError("unsupported: an INTERVAL times a " + n.type() + " (an integer is supported)");
                }
                return call(TemporalFunction.INTERVAL_TIMES, List.of(iv, n), DataType.INTERVAL, nullable);
            }
            case MINUS_PREFIX -> {
                return isInterval(ops.get(0))
                        ? call(TemporalFunction.INTERVAL_NEGATE, List.of(translate.apply(ops.get(0))), DataType.INTERVAL,
                        nullable) : null;
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL,
                 IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> {
                if (!isInterval(ops.get(0)) && !isInterval(ops.get(1))) {
                    return null;
                }
                Op op = RexTranslator.comparison(call.getKind());
                return new Expr.Call(op, List.of(key(compared(ops.get(0), translate)),
                        key(compared(ops.get(1), translate))), DataType.BOOLEAN, nullable);
            }
            case CAST -> {
                return cast(call, translate, nullable);
            }
            case EXTRACT -> {
                if (!isInterval(ops.get(1))) {
                    return null;
                }
                TimeUnitRange unit = ((RexLiteral) ops.get(0)).getValueAs(TimeUnitRange.class);
                Expr iv = translate.apply(ops.get(1));
                if (unit == TimeUnitRange.EPOCH) {
                    return call(TemporalFunction.INTERVAL_EPOCH, List.of(iv), DataType.DOUBLE, nullable);
                }
                String u = switch (unit) {
                    case MILLENNIUM, CENTURY, DECADE, YEAR, QUARTER, MONTH, DAY, HOUR, MINUTE, SECOND -> unit.name();
                    case MILLISECOND, MICROSECOND -> unit.name();
                    default -> throw new SqlError("unsupported: EXTRACT of " + unit.name() + " from an INTERVAL (as in"
                            + " DuckDB)");
                };
                return call(TemporalFunction.INTERVAL_PART, List.of(new Expr.Literal(u, DataType.VARCHAR), iv),
                        DataType.BIGINT, nullable);
            }
            default -> {
                return null;
            }
        }
    }

    /** A CAST to or from an INTERVAL: from and to VARCHAR as DuckDB's text; null for other casts. */
    private static Expr cast(RexCall call, Function<RexNode, Expr> translate, boolean nullable) {
        List<RexNode> ops = call.getOperands();
        boolean from = isInterval(ops.get(0));
        boolean to = isInterval(call);
        if (!from && !to) {
            return null;
        }
        if (to && isNullType(ops.get(0))) {
            return interval(ops.get(0), translate);
        }
        Expr arg = translate.apply(ops.get(0));
        if (from && to) {
            return arg;
        }
        return convert(arg, to ? DataType.INTERVAL : Types.of(call.getType()), nullable);
    }

    /**
     * A value to or from an INTERVAL (a list's element, a struct's field, as a top-level CAST converts it): to
     * VARCHAR as DuckDB's text, from VARCHAR read as DuckDB reads it; any other pair refused.
     */
    static Expr convert(Expr arg, DataType to, boolean nullable) {
        if (arg.type().isInterval() && to.isInterval()) {
            return arg;
        }
        if (arg.type().isInterval() && to.kind() == TypeKind.VARCHAR && !to.isNested()) {
            return call(TemporalFunction.INTERVAL_FORMAT, List.of(arg), DataType.VARCHAR, nullable);
        }
        if (to.isInterval() && arg.type().kind() == TypeKind.VARCHAR && !arg.type().isNested()) {
            return parse(arg, nullable);
        }
        throw new SqlError("unsupported: CAST from " + arg.type() + " to " + to);
    }

    /** interval +/- interval, and a TIMESTAMP +/- an interval that is not one of Calcite's constants. */
    private Expr sum(RexCall call, Function<RexNode, Expr> translate, boolean nullable) {
        List<RexNode> ops = call.getOperands();
        if (ops.size() != 2) {
            return null;
        }
        boolean minus = call.getKind() == org.apache.calcite.sql.SqlKind.MINUS;
        RexNode a = ops.get(0);
        RexNode b = ops.get(1);
        if (isInterval(a) && isInterval(b)) {
            Expr y = translate.apply(b);
            if (minus) {
                y = call(TemporalFunction.INTERVAL_NEGATE, List.of(y), DataType.INTERVAL, y.nullable());
            }
            return call(TemporalFunction.INTERVAL_ADD, List.of(translate.apply(a), y), DataType.INTERVAL, nullable);
        }
        RexNode interval = isInterval(b) ? b : !minus && isInterval(a) ? a : null;
        if (interval == null || interval instanceof RexLiteral) {
            return null; // not an interval's, or a constant RexTranslator folds into calendar arithmetic
        }
        Expr t = translate.apply(interval == b ? a : b);
        if (t.type().kind() == TypeKind.TIMESTAMP_TZ) { // on the session's clock, as a constant interval is added
            Expr iv = translate.apply(interval);
            if (minus) {
                iv = call(TemporalFunction.INTERVAL_NEGATE, List.of(iv), DataType.INTERVAL, iv.nullable());
            }
            return timestamps.zoned().instant(call(TemporalFunction.TIMESTAMP_PLUS_INTERVAL,
                    List.of(timestamps.zoned().local(t), iv), DataType.TIMESTAMP, nullable));
        }
        boolean date = t.type().kind() == TypeKind.DATE;
        if (t.type().kind() != TypeKind.TIMESTAMP && !date) {
            throw new SqlError("unsupported: a " + t.type() + " plus an INTERVAL that is not a constant with a unit"
                    + " (a TIMESTAMP or a DATE is supported)");
        }
        Expr iv = translate.apply(interval);
        if (minus) {
            iv = call(TemporalFunction.INTERVAL_NEGATE, List.of(iv), DataType.INTERVAL, iv.nullable());
        }
        if (date) {
            // DuckDB adds an interval to a DATE's midnight, a TIMESTAMP (whose range the sum must lie in); the type
            // the planner gave the sum may be a DATE, the day it falls on
            Expr midnight = new Expr.Call(Op.CAST, List.of(t), DataType.TIMESTAMP, t.nullable());
            Expr sum = call(TemporalFunction.TIMESTAMP_PLUS_INTERVAL, List.of(midnight, iv), DataType.TIMESTAMP,
                    nullable);
            DataType type = Types.of(call.getType());
            return type.kind() == TypeKind.DATE ? new Expr.Call(Op.CAST, List.of(sum), DataType.DATE, nullable) : sum;
        }
        return call(TemporalFunction.TIMESTAMP_PLUS_INTERVAL, List.of(t, iv), DataType.TIMESTAMP, nullable);
    }

    /** An interval read from text: when the text is a constant, now (an invalid one fails here, naming it). */
    private static Expr parse(Expr text, boolean nullable) {
        if (text.type().isInterval()) {
            return text;
        }
        if (text instanceof Expr.Literal lit) {
            if (lit.value() == null) {
                return new Expr.Literal(null, DataType.INTERVAL);
            }
            try {
                return new Expr.Literal(IntervalText.parse(lit.value().toString()).encode(), DataType.INTERVAL);
            } catch (IllegalArgumentException e) {
                throw new SqlError(e.getMessage());
            }
        }
        return call(TemporalFunction.INTERVAL_PARSE, List.of(text), DataType.INTERVAL, nullable);
    }

    /**
     * An operand compared with or cast to an INTERVAL: a value of the NULL type (a field of {@code {'a': NULL}}, which
     * Calcite compares with an INTERVAL uncast where it expands IS NOT DISTINCT FROM) a NULL interval.
     */
    private static Expr interval(RexNode n, Function<RexNode, Expr> translate) {
        return isNullType(n) ? new Expr.Literal(null, DataType.INTERVAL) : translate.apply(n);
    }

    /**
     * An operand of a comparison with an INTERVAL: text (which Calcite compares with an interval uncast, in
     * {@code x = '1 day'} and in an IN list) read as DuckDB reads it, as its CAST would.
     */
    private static Expr compared(RexNode n, Function<RexNode, Expr> translate) {
        if (org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(n.getType())) {
            return parse(translate.apply(n), n.getType().isNullable());
        }
        return interval(n, translate);
    }

    private static boolean isNullType(RexNode n) {
        return n.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.NULL;
    }

    /**
     * What equal values share, as a VARCHAR: an INTERVAL's length, a LIST's or STRUCT's key in which each interval is
     * its length.
     */
    static Expr equalityKey(Expr value) {
        return value.type().isNested() ? ListCalls.equalityKey(value) : key(value);
    }

    private static Expr key(Expr interval) {
        return call(TemporalFunction.INTERVAL_KEY, List.of(interval), DataType.VARCHAR, interval.nullable());
    }

    private static Expr call(TemporalFunction f, List<Expr> args, DataType type, boolean nullable) {
        return new Expr.Call(Op.TEMPORAL, args, type, nullable, f);
    }
}
