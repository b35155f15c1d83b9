package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's grapheme and normal form functions ({@code sql.UnicodeFunctions}) as {@link TextFunction} calls, their
 * counts as BIGINTs.
 */
final class UnicodeCalls {

    private UnicodeCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = switch (call.getOperator().getName().toUpperCase(Locale.ROOT)) {
            case "LENGTH_GRAPHEME" -> TextFunction.LENGTH_GRAPHEME;
            case "LEFT_GRAPHEME" -> TextFunction.LEFT_GRAPHEME;
            case "RIGHT_GRAPHEME" -> TextFunction.RIGHT_GRAPHEME;
            case "SUBSTRING_GRAPHEME" -> TextFunction.SUBSTRING_GRAPHEME;
            case "NFC_NORMALIZE" -> TextFunction.NFC_NORMALIZE;
            default -> null;
        };
        if (f == null) {
            return null;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            Expr a = translate.apply(o);
            boolean count = !args.isEmpty() && !(a instanceof Expr.Literal l && l.value() == null);
            args.add(count && !a.type().equals(DataType.BIGINT)
                    ? new Expr.Call(Op.CAST, List.of(a), DataType.BIGINT, a.nullable()) : a);
        }
        return new Expr.Call(Op.FUNCTION, args, Types.of(call.getType()), call.getType().isNullable(), f);
    }
}
