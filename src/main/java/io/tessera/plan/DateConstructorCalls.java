package io.tessera.plan;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's MAKE_DATE, MAKE_TIME, MAKE_TIMESTAMP, TO_TIMESTAMP, LAST_DAY and EPOCH_MS of an integer
 * ({@code sql.DateConstructors}) as {@link Op#TEMPORAL} calls: a DATE result is the CAST of the TIMESTAMP of its
 * midnight, seconds are passed as DOUBLEs.
 */
final class DateConstructorCalls {

    private DateConstructorCalls() {
    }

    private static final java.util.Set<String> NAMES = java.util.Set.of("MAKE_DATE", "MAKE_TIME", "MAKE_TIMESTAMP",
            "MAKE_TIMESTAMP_MS", "TO_TIMESTAMP", "LAST_DAY", "EPOCH_MS");

    /** The expression of a call lowered here, or null where it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate, TimestampCalls timestamps) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (!NAMES.contains(name)) {
            return null; // before translating any operand: another call's may be none (TRIM's flag)
        }
        boolean nullable = call.getType().isNullable();
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            args.add(translate.apply(o));
        }
        return switch (name) {
            case "MAKE_DATE" -> date(temporal(TemporalFunction.MAKE_DATE, args, DataType.TIMESTAMP, nullable));
            case "MAKE_TIME" -> temporal(TemporalFunction.MAKE_TIME, secondsLast(args), DataType.TIME, nullable);
            case "MAKE_TIMESTAMP" -> args.size() == 1
                    ? temporal(TemporalFunction.FROM_EPOCH_US, args, DataType.TIMESTAMP, nullable)
                    : temporal(TemporalFunction.MAKE_TIMESTAMP, secondsLast(args), DataType.TIMESTAMP, nullable);
            case "MAKE_TIMESTAMP_MS" -> temporal(TemporalFunction.FROM_EPOCH_MS, args, DataType.TIMESTAMP, nullable);
            case "TO_TIMESTAMP" -> temporal(TemporalFunction.TO_TIMESTAMP, secondsLast(args), DataType.TIMESTAMP_TZ,
                    nullable);
            case "LAST_DAY" -> date(temporal(TemporalFunction.LAST_DAY, List.of(timestamps.timestamp(args.get(0))),
                    DataType.TIMESTAMP, nullable));
            case "EPOCH_MS" -> args.get(0).type().kind() == TypeKind.INTEGER || args.get(0).type().kind() == TypeKind.BIGINT
                    ? temporal(TemporalFunction.FROM_EPOCH_MS, args, DataType.TIMESTAMP, nullable) : null;
            default -> null;
        };
    }

    /** The arguments with the last (seconds) as a DOUBLE. */
    private static List<Expr> secondsLast(List<Expr> args) {
        List<Expr> out = new ArrayList<>(args);
        Expr s = out.get(out.size() - 1);
        if (s.type().kind() != TypeKind.DOUBLE) {
            out.set(out.size() - 1, new Expr.Call(Op.CAST, List.of(s), DataType.DOUBLE, s.nullable()));
        }
        return out;
    }

    private static Expr date(Expr timestamp) {
        return new Expr.Call(Op.CAST, List.of(timestamp), DataType.DATE, timestamp.nullable());
    }

    private static Expr temporal(TemporalFunction f, List<Expr> args, DataType type, boolean nullable) {
        return new Expr.Call(Op.TEMPORAL, args, type, nullable, f);
    }
}
