package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's GREATEST and LEAST as {@link Op#GREATEST} and {@link Op#LEAST} calls of arguments cast to the call's type,
 * and the numeric functions of {@link NumericFunction} as {@link Op#NUMERIC} calls.
 */
final class NumericCalls {
    private NumericCalls() {
    }

    /** The expression of a call this class lowers, or null when it is not one. */
    static Expr lower(RexCall call, RexBuilder rex, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<RexNode> ops = call.getOperands();
        boolean nullable = call.getType().isNullable();
        if (name.equals("GREATEST") || name.equals("LEAST")) {
            List<Expr> args = new ArrayList<>();
            for (RexNode o : ops) {
                RelDataType to = rex.getTypeFactory().createTypeWithNullability(call.getType(),
                        o.getType().isNullable());
                args.add(translate.apply(o.getType().equals(to) ? o : rex.makeCast(to, o, true, false)));
            }
            if (args.size() == 1) {
                return args.get(0);
            }
            return new Expr.Call(name.equals("GREATEST") ? Op.GREATEST : Op.LEAST, args, Types.of(call.getType()),
                    nullable);
        }
        NumericFunction f = switch (name) {
            case "LOG10" -> NumericFunction.LOG10;
            case "LOG2" -> NumericFunction.LOG2;
            case "LOG" -> ops.size() == 1 ? NumericFunction.LOG10 : NumericFunction.LOG;
            case "BIT_COUNT" -> NumericFunction.BIT_COUNT;
            case "GCD" -> NumericFunction.GCD;
            case "LCM" -> NumericFunction.LCM;
            case "EVEN" -> NumericFunction.EVEN;
            case "ISNAN" -> NumericFunction.ISNAN;
            case "ISINF" -> NumericFunction.ISINF;
            case "ISFINITE" -> NumericFunction.ISFINITE;
            case "RANDOM" -> NumericFunction.RANDOM;
            case "FACTORIAL" -> NumericFunction.FACTORIAL;
            default -> null;
        };
        if (f == null) {
            return null;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : ops) {
            Expr a = translate.apply(o);
            if (f == NumericFunction.GCD || f == NumericFunction.LCM || f == NumericFunction.FACTORIAL) {
                a = a.type().equals(DataType.BIGINT) ? a : new Expr.Call(Op.CAST, List.of(a), DataType.BIGINT, a.nullable());
            }
            args.add(a);
        }
        return new Expr.Call(Op.NUMERIC, args, Types.of(call.getType()), nullable, f);
    }
}
