package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's TIME_BUCKET ({@code sql.TimeBucketFunctions}) as an {@link Op#TEMPORAL} call on TIMESTAMP microseconds: a
 * DATE as its midnight (the result CAST back), a TIME as its time on 1970-01-01 (the result's time of day), a
 * TIMESTAMP WITH TIME ZONE as its instant, bucketed in UTC as DuckDB does by default, or on the clocks of the time
 * zone a third argument names.
 */
final class TimeBucketCalls {

    private TimeBucketCalls() {
    }

    /** The expression of a TIME_BUCKET call, or null where the call is another. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate, TimestampCalls timestamps) {
        if (!call.getOperator().getName().toUpperCase(Locale.ROOT).equals("TIME_BUCKET")) {
            return null;
        }
        boolean nullable = call.getType().isNullable();
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            args.add(translate.apply(o));
        }
        DataType result = Types.of(call.getType());
        for (Expr a : args) {
            if (a instanceof Expr.Literal l && l.value() == null) {
                return new Expr.Literal(null, result);
            }
        }
        List<Expr> in = new ArrayList<>();
        in.add(args.get(0));
        in.add(micros(args.get(1), timestamps));
        TemporalFunction f = TemporalFunction.TIME_BUCKET;
        if (args.size() == 3) {
            Expr third = args.get(2);
            if (SqlTypeUtil.isCharacter(call.getOperands().get(2).getType())) {
                // a time zone's name, a value (an INTERVAL is a VARCHAR code too, but not of a character type)
                in.add(third);
                f = TemporalFunction.TIME_BUCKET_ZONE;
            } else {
                boolean origin = third.type().kind() != TypeKind.VARCHAR; // an INTERVAL is a VARCHAR code
                in.add(origin ? micros(third, timestamps) : third);
                f = origin ? TemporalFunction.TIME_BUCKET_ORIGIN : TemporalFunction.TIME_BUCKET_OFFSET;
            }
        }
        DataType computed = result.kind() == TypeKind.TIMESTAMP_TZ ? DataType.TIMESTAMP_TZ : DataType.TIMESTAMP;
        Expr bucket = new Expr.Call(Op.TEMPORAL, in, computed, nullable, f);
        return switch (result.kind()) {
            case DATE -> new Expr.Call(Op.CAST, List.of(bucket), DataType.DATE, nullable);
            // a TIME's bucket is that of its time on 1970-01-01, taken back to a time of day, as DuckDB's
            case TIME -> new Expr.Call(Op.CAST, List.of(bucket), DataType.TIME, nullable);
            default -> bucket;
        };
    }

    private static Expr micros(Expr e, TimestampCalls timestamps) {
        return switch (e.type().kind()) {
            case TIMESTAMP_TZ -> ZonedCalls.utc(e);
            case DATE, TIMESTAMP -> timestamps.timestamp(e);
            case TIME -> e; // microseconds since midnight: those of its time on 1970-01-01
            default -> throw new SqlError("unsupported: TIME_BUCKET of a " + e.type()
                    + " (a DATE, TIME, TIMESTAMP or TIMESTAMP WITH TIME ZONE)");
        };
    }
}
