package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.Timestamps;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The functions of TIMESTAMP values in a Calcite plan as Tessera expressions: NOW and CURRENT_TIMESTAMP as one
 * constant for the whole query (the moment it was planned, UTC), DATE_TRUNC and DATE_PART / EXTRACT of a
 * TIMESTAMP, EPOCH, STRFTIME, STRPTIME, DATE_DIFF, DATE_SUB and DATE_ADD. Units must be constants; a format is a
 * value bound at run time (never code). A DATE argument of a TIMESTAMP function is cast to its midnight.
 */
final class TimestampCalls {

    private final long now;
    private final ZonedCalls zoned;

    /**
     * {@code nowMicros}: what NOW gives everywhere in this query; {@code zoned}: the session's time zone, in which a
     * TIMESTAMP WITH TIME ZONE is taken apart.
     */
    TimestampCalls(long nowMicros, ZonedCalls zoned) {
        this.now = nowMicros;
        this.zoned = zoned;
    }

    /** The session's time zone's calls. */
    ZonedCalls zoned() {
        return zoned;
    }

    /** The moment this query was planned (what NOW gives), UTC microseconds. */
    long now() {
        return now;
    }

    /** The expression of a call this class lowers, or null when it is not one. */
    Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean nullable = call.getType().isNullable();
        List<RexNode> ops = call.getOperands();
        switch (name) {
            case "NOW", "CURRENT_TIMESTAMP" -> {
                return new Expr.Literal(now, DataType.TIMESTAMP_TZ);
            }
            case "LOCALTIMESTAMP" -> { // the session's clock now
                return zoned.local(new Expr.Literal(now, DataType.TIMESTAMP_TZ));
            }
            case "LOCALTIME" -> { // its time of day
                return new Expr.Call(Op.CAST, List.of(zoned.local(new Expr.Literal(now, DataType.TIMESTAMP_TZ))),
                        DataType.TIME, false);
            }
            case "DATE_TRUNC" -> {
                Expr t = translate.apply(ops.get(1));
                if (ZonedCalls.isZoned(t)) { // truncated on the session's clock
                    return zoned.instant(new Expr.Call(Op.DATE_TRUNC, List.of(zoned.local(t)), DataType.TIMESTAMP,
                            nullable, truncUnit(unitText(ops.get(0), name))));
                }
                if (t.type().kind() == TypeKind.TIME) {
                    throw new SqlError("unsupported: DATE_TRUNC of a TIME (as in DuckDB: a DATE, TIMESTAMP or"
                            + " TIMESTAMP WITH TIME ZONE)");
                }
                if (t.type().kind() != TypeKind.TIMESTAMP) {
                    return null; // a DATE's: TextDateCalls
                }
                return new Expr.Call(Op.DATE_TRUNC, List.of(t), DataType.TIMESTAMP, nullable,
                        truncUnit(unitText(ops.get(0), name)));
            }
            case "DATE_PART", "DATEPART" -> {
                String unit = unitText(ops.get(0), name);
                Expr t = translate.apply(ops.get(1));
                if (ZonedCalls.isZoned(t)) {
                    t = unit.equals("epoch") ? ZonedCalls.utc(t) : zoned.local(t);
                }
                if (t.type().kind() == TypeKind.TIME) {
                    return unit.equals("epoch")
                            ? temporal(TemporalFunction.EPOCH, List.of(t), DataType.DOUBLE, nullable) // since midnight
                            : part(timeUnit(partUnit(unit), unit), t, nullable);
                }
                if (unit.equals("epoch")) {
                    return temporal(TemporalFunction.EPOCH, List.of(timestamp(t)), DataType.DOUBLE, nullable);
                }
                return t.type().kind() == TypeKind.TIMESTAMP ? part(partUnit(unit), t, nullable) : null;
            }
            case "EPOCH", "EPOCH_MS", "EPOCH_US" -> {
                TemporalFunction f = TemporalFunction.valueOf(name);
                Expr t = translate.apply(ops.get(0));
                return temporal(f, List.of(timestamp(ZonedCalls.isZoned(t) ? ZonedCalls.utc(t) : t)),
                        f == TemporalFunction.EPOCH ? DataType.DOUBLE : DataType.BIGINT, nullable);
            }
            case "STRFTIME" -> {
                return temporal(TemporalFunction.STRFTIME, List.of(timestamp(translate.apply(ops.get(0))),
                        translate.apply(ops.get(1))), DataType.VARCHAR, nullable);
            }
            case "TRY_STRPTIME", "STRPTIME" -> {
                List<Expr> args = List.of(translate.apply(ops.get(0)), translate.apply(ops.get(1)));
                if (args.stream().anyMatch(a -> a instanceof Expr.Literal l && l.value() == null)) {
                    return new Expr.Literal(null, DataType.TIMESTAMP); // a NULL of no type: not a string to read
                }
                return temporal(TemporalFunction.valueOf(name), args, DataType.TIMESTAMP,
                        nullable || name.equals("TRY_STRPTIME"));
            }
            case "JULIAN" -> {
                Expr t = translate.apply(ops.get(0));
                if (t.type().kind() == TypeKind.TIME) {
                    throw new SqlError("No function matches julian(TIME): it takes a DATE, TIMESTAMP or TIMESTAMP"
                            + " WITH TIME ZONE");
                }
                // the day count of 1970-01-01 (2440588) plus the days since (on the session's clock), as DuckDB
                Expr epoch = temporal(TemporalFunction.EPOCH,
                        List.of(timestamp(ZonedCalls.isZoned(t) ? zoned.local(t) : t)), DataType.DOUBLE, nullable);
                Expr days = new Expr.Call(Op.DIV, List.of(epoch, new Expr.Literal(86400.0, DataType.DOUBLE)),
                        DataType.DOUBLE, nullable);
                return new Expr.Call(Op.ADD, List.of(days, new Expr.Literal(2440588.0, DataType.DOUBLE)),
                        DataType.DOUBLE, nullable);
            }
            case "DATE_DIFF", "DATEDIFF", "DATE_SUB", "DATESUB" -> {
                String unit = diffUnit(unitText(ops.get(0), name));
                TemporalFunction f = name.startsWith("DATE_D") || name.equals("DATEDIFF") ? TemporalFunction.DATE_DIFF
                        : TemporalFunction.DATE_SUB;
                return temporal(f, List.of(new Expr.Literal(unit, DataType.VARCHAR),
                        timestamp(translate.apply(ops.get(1))), timestamp(translate.apply(ops.get(2)))),
                        DataType.BIGINT, nullable);
            }
            case "DATE_ADD" -> {
                return RexTranslator.addInterval(timestamp(translate.apply(ops.get(0))), ops.get(1), false);
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * EXTRACT of a TIMESTAMP, a TIMESTAMP WITH TIME ZONE (on the session's clock; its epoch the instant's) or a TIME by
     * Calcite's unit name, and EPOCH of a DATE (DuckDB's DOUBLE of seconds, as {@code epoch(x)}); null for a DATE's
     * other parts (TextDateCalls).
     */
    Expr extract(String calciteUnit, Expr arg, boolean nullable) {
        if (ZonedCalls.isZoned(arg)) {
            arg = calciteUnit.equals("EPOCH") ? ZonedCalls.utc(arg) : zoned.local(arg);
        }
        if (calciteUnit.equals("EPOCH") && (arg.type().kind() == TypeKind.DATE || arg.type().kind() == TypeKind.TIMESTAMP)) {
            return temporal(TemporalFunction.EPOCH, List.of(timestamp(arg)), DataType.DOUBLE, nullable); // as epoch(x)
        }
        if (arg.type().kind() == TypeKind.TIME) {
            if (calciteUnit.equals("EPOCH")) {
                return temporal(TemporalFunction.EPOCH, List.of(arg), DataType.DOUBLE, nullable);
            }
            return part(timeUnit(calciteUnit, calciteUnit.toLowerCase(Locale.ROOT)), arg, nullable);
        }
        if (arg.type().kind() != TypeKind.TIMESTAMP) {
            return null;
        }
        return part(switch (calciteUnit) {
            case "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND" -> calciteUnit;
            default -> TextDateCalls.extractUnit(calciteUnit);
        }, arg, nullable);
    }

    private static Expr part(String unit, Expr ts, boolean nullable) {
        return temporal(TemporalFunction.PART, List.of(new Expr.Literal(unit, DataType.VARCHAR), ts), DataType.BIGINT,
                nullable);
    }

    private static Expr temporal(TemporalFunction f, List<Expr> args, DataType type, boolean nullable) {
        return new Expr.Call(Op.TEMPORAL, args, type, nullable, f);
    }

    /**
     * A DATE as the TIMESTAMP of its midnight; a TIMESTAMP as it is; a TIMESTAMP WITH TIME ZONE as the session's clock
     * shows it.
     */
    Expr timestamp(Expr e) {
        return switch (e.type().kind()) {
            case TIMESTAMP -> e;
            case TIMESTAMP_TZ -> zoned.local(e);
            case DATE -> new Expr.Call(Op.CAST, List.of(e), DataType.TIMESTAMP, e.nullable());
            default -> throw new SqlError("unsupported: a " + e.type() + " where a DATE or TIMESTAMP is expected");
        };
    }

    private static String unitText(RexNode unit, String what) {
        if (!(unit instanceof RexLiteral lit) || lit.isNull()) {
            throw new SqlError("unsupported: " + what + " with a unit that is not a constant string");
        }
        return lit.getValueAs(String.class).strip().toLowerCase(Locale.ROOT);
    }

    /** A unit of a TIME's part: a time of day's only, as DuckDB has them (named as written where it is not one). */
    private static String timeUnit(String unit, String written) {
        return switch (unit) {
            case "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND" -> unit;
            default -> throw new SqlError("unsupported: the part '" + written + "' of a TIME (a TIME has hour, minute,"
                    + " second, millisecond, microsecond and epoch)");
        };
    }

    /** The units of a time of day, then a date's (DATE_PART's spellings). */
    private static String partUnit(String u) {
        return switch (u) {
            case "hour", "hours", "h", "hr", "hrs" -> "HOUR";
            case "minute", "minutes", "m", "min", "mins" -> "MINUTE";
            case "second", "seconds", "s", "sec", "secs" -> "SECOND";
            case "millisecond", "milliseconds", "ms", "msec", "msecs" -> "MILLISECOND";
            case "microsecond", "microseconds", "us", "usec", "usecs" -> "MICROSECOND";
            default -> TextDateCalls.partUnit(u);
        };
    }

    /** DATE_TRUNC's units of a TIMESTAMP: a date's (its midnight) and a time of day's. */
    private static String truncUnit(String u) {
        return switch (u) {
            case "hour", "hours", "h", "hr", "hrs" -> "HOUR";
            case "minute", "minutes", "m", "min", "mins" -> "MINUTE";
            case "second", "seconds", "s", "sec", "secs" -> "SECOND";
            case "millisecond", "milliseconds", "ms", "msec", "msecs" -> "MILLISECOND";
            case "microsecond", "microseconds", "us", "usec", "usecs" -> "MICROSECOND";
            default -> TextDateCalls.truncUnit(u);
        };
    }

    /** DATE_DIFF's and DATE_SUB's units. */
    private static String diffUnit(String u) {
        String unit = truncUnit(u);
        return switch (unit) {
            case "MILLENNIUM", "CENTURY", "DECADE", "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE",
                 "SECOND", "MILLISECOND", "MICROSECOND" -> unit;
            default -> throw new SqlError("unsupported: DATE_DIFF('" + u + "')");
        };
    }

    /** The moment a query is planned, as a TIMESTAMP (UTC). */
    static long nowMicros() {
        java.time.Instant i = java.time.Instant.now();
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), Timestamps.MICROS_PER_SECOND), i.getNano() / 1000);
    }
}
