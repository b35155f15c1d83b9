package io.tessera.plan;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What the families of {@link TextFunction} calls share as they lower a Calcite call: the function a SQL name stands
 * for, the operands translated, and the FUNCTION call of the result's type.
 */
final class TextCalls {

    private TextCalls() {
    }

    /** A family of SQL functions lowered to {@link Expr}s: null for a call of another family. */
    @FunctionalInterface
    interface Lowering {
        Expr lower(RexCall call, Function<RexNode, Expr> translate);
    }

    /** The function that the call's name (any case) stands for in {@code names}, or null. */
    static TextFunction named(RexCall call, Map<String, TextFunction> names) {
        return names.get(call.getOperator().getName().toUpperCase(Locale.ROOT));
    }

    /** Each operand of the call, translated. */
    static List<Expr> operands(RexCall call, Function<RexNode, Expr> translate) {
        List<Expr> args = new ArrayList<>(call.getOperands().size());
        for (RexNode o : call.getOperands()) {
            args.add(translate.apply(o));
        }
        return args;
    }

    /** {@code f} of {@code args}, typed and nullable as the Calcite call is. */
    static Expr call(TextFunction f, List<Expr> args, RexCall call) {
        return new Expr.Call(Op.FUNCTION, args, Types.of(call.getType()), call.getType().isNullable(), f);
    }
}
