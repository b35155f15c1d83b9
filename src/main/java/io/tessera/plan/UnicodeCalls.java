package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * DuckDB's grapheme and normal form functions ({@code sql.UnicodeFunctions}) as {@link TextFunction} calls, their
 * counts as BIGINTs.
 */
final class UnicodeCalls {

    private static final Map<String, TextFunction> NAMES = Map.of(
            "LENGTH_GRAPHEME", TextFunction.LENGTH_GRAPHEME,
            "LEFT_GRAPHEME", TextFunction.LEFT_GRAPHEME,
            "RIGHT_GRAPHEME", TextFunction.RIGHT_GRAPHEME,
            "SUBSTRING_GRAPHEME", TextFunction.SUBSTRING_GRAPHEME,
            "NFC_NORMALIZE", TextFunction.NFC_NORMALIZE);

    private UnicodeCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = TextCalls.named(call, NAMES);
        if (f == null) {
            return null;
        }
        List<Expr> args = TextCalls.operands(call, translate);
        for (int i = 1; i < args.size(); i++) { // the counts after the text
            Expr a = args.get(i);
            if (!(a instanceof Expr.Literal l && l.value() == null) && !a.type().equals(DataType.BIGINT)) {
                args.set(i, new Expr.Call(Op.CAST, List.of(a), DataType.BIGINT, a.nullable()));
            }
        }
        return TextCalls.call(f, args, call);
    }
}
