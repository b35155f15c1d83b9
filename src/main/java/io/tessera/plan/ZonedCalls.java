package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import io.tessera.storage.ZonedTimestamps;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

/**
 * What TIMESTAMP WITH TIME ZONE values need of the session's time zone, as calls that take the zone's name as a bound
 * VARCHAR value: casts to and from TIMESTAMP, DATE and VARCHAR (DuckDB's: a TIMESTAMP is a clock's time in the
 * session's zone), and the clock time that EXTRACT, DATE_PART, DATE_TRUNC and the TIMESTAMP functions take apart.
 */
final class ZonedCalls {

    private final Expr.Literal zone;
    private final ZoneId zoneId;

    ZonedCalls(ZoneId zone) {
        this.zone = new Expr.Literal(zone.getId(), DataType.VARCHAR);
        this.zoneId = zone;
    }

    static boolean isZoned(Expr e) {
        return e.type().kind() == TypeKind.TIMESTAMP_TZ;
    }

    /**
     * A CAST to or from TIMESTAMP WITH TIME ZONE from or to another type, lowered; null when neither or both sides are
     * one.
     */
    Expr cast(Expr arg, DataType to, boolean nullable) {
        boolean from = isZoned(arg);
        if (from == (to.kind() == TypeKind.TIMESTAMP_TZ)) {
            return null;
        }
        if (from) {
            return switch (to.kind()) {
                case TIMESTAMP -> local(arg);
                case DATE -> new Expr.Call(Op.CAST, List.of(local(arg)), to, nullable);
                case VARCHAR -> call(TemporalFunction.FORMAT_ZONED, arg, DataType.VARCHAR);
                default -> throw refused(arg.type(), to);
            };
        }
        return switch (arg.type().kind()) {
            case TIMESTAMP -> instant(arg);
            case DATE -> instant(new Expr.Call(Op.CAST, List.of(arg), DataType.TIMESTAMP, arg.nullable()));
            case VARCHAR -> call(TemporalFunction.PARSE_ZONED, arg, DataType.TIMESTAMP_TZ);
            default -> throw refused(arg.type(), to);
        };
    }

    /**
     * The two operands of a comparison, one a TIMESTAMP WITH TIME ZONE, the other a TIMESTAMP or DATE cast to one (as
     * DuckDB compares them: the TIMESTAMP a clock of the session's zone); other pairs as they are.
     */
    List<Expr> compared(List<Expr> args) {
        Expr a = args.get(0);
        Expr b = args.get(1);
        Expr other = isZoned(a) ? b : a;
        TypeKind k = other.type().kind();
        if (k != TypeKind.TIMESTAMP && k != TypeKind.DATE) {
            return args;
        }
        Expr cast = cast(other, DataType.TIMESTAMP_TZ, other.nullable());
        return isZoned(a) ? List.of(a, cast) : List.of(cast, b);
    }

    /**
     * A lowered LIST or STRUCT expression with what a TIMESTAMP WITH TIME ZONE inside needs of the session's zone:
     * a scalar CAST of an element or a field (made by {@link ListCalls#as}) lowered as a top-level one, and a CAST
     * between nested types, a nested value's text and a nested value read from text ({@link ListFunction#CAST},
     * {@link ListFunction#TEXT}, {@link ListFunction#FROM_TEXT}) given the zone's name as a second argument. Other expressions as they are.
     */
    Expr inNested(Expr e) {
        if (!(e instanceof Expr.Call c)) {
            return e;
        }
        List<Expr> args = new java.util.ArrayList<>();
        for (Expr a : c.args()) {
            args.add(inNested(a));
        }
        if (c.op() == Op.CAST && args.size() == 1) {
            Expr lowered = cast(args.get(0), c.type(), c.nullable());
            if (lowered != null) {
                return lowered;
            }
        }
        if (c.op() == Op.LIST && (c.detail() == ListFunction.CAST || c.detail() == ListFunction.TEXT
                || c.detail() == ListFunction.FROM_TEXT || c.detail() == ListFunction.TRY_CAST)
                && args.size() == 1 && (ListCalls.mentions(c.type(), TypeKind.TIMESTAMP_TZ)
                || ListCalls.mentions(args.get(0).type(), TypeKind.TIMESTAMP_TZ))) {
            args.add(zone);
        }
        return args.equals(c.args()) ? c : new Expr.Call(c.op(), args, c.type(), c.nullable(), c.detail());
    }

    private static SqlError refused(DataType from, DataType to) {
        return new SqlError("unsupported: CAST from " + from + " to " + to + " (a TIMESTAMP WITH TIME ZONE casts to"
                + " and from TIMESTAMP, DATE and VARCHAR)");
    }

    /** Whether the session's zone keeps one offset (UTC, +02:00): its calendar days are all 24 hours long. */
    boolean fixedOffset() {
        return zoneId.getRules().isFixedOffset();
    }

    String zoneId() {
        return zoneId.getId();
    }

    /** The TIMESTAMP a clock of the session's zone shows at an instant. */
    Expr local(Expr instant) {
        return call(TemporalFunction.TO_LOCAL, instant, DataType.TIMESTAMP);
    }

    /** The instant's TIMESTAMP in UTC: the same microseconds (EPOCH and its kin count from 1970-01-01 UTC). */
    static Expr utc(Expr instant) {
        return new Expr.Call(Op.TEMPORAL, List.of(instant, new Expr.Literal(ZoneOffset.UTC.getId(), DataType.VARCHAR)),
                DataType.TIMESTAMP, instant.nullable(), TemporalFunction.TO_LOCAL);
    }

    /** The instant when a clock of the session's zone shows a TIMESTAMP. */
    Expr instant(Expr local) {
        return call(TemporalFunction.FROM_LOCAL, local, DataType.TIMESTAMP_TZ);
    }

    /**
     * The call, or its value where the argument is a constant (a comparison with a TIMESTAMP literal stays a
     * comparison with a constant, which the GPU runs too).
     */
    private Expr call(TemporalFunction f, Expr arg, DataType type) {
        if (arg instanceof Expr.Literal l && l.value() != null && f != TemporalFunction.PARSE_ZONED) {
            long v = ((Number) l.value()).longValue();
            return switch (f) {
                case TO_LOCAL -> new Expr.Literal(ZonedTimestamps.toLocal(v, zoneId), type);
                case FROM_LOCAL -> new Expr.Literal(ZonedTimestamps.fromLocal(v, zoneId), type);
                default -> new Expr.Literal(ZonedTimestamps.format(v, zoneId), type);
            };
        }
        return new Expr.Call(Op.TEMPORAL, List.of(arg, zone), type, arg.nullable(), f);
    }
}
