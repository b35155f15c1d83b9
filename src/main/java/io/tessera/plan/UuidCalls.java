package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * DuckDB's UUID functions ({@code sql.UuidFunctions}) as {@link TextFunction} calls of a UUID: text is CAST to one
 * first, so that text that is no UUID fails as the CAST does.
 */
final class UuidCalls {

    private static final Map<String, TextFunction> NAMES = Map.of(
            "UUID_EXTRACT_VERSION", TextFunction.UUID_VERSION,
            "UUID_EXTRACT_TIMESTAMP", TextFunction.UUID_TIMESTAMP,
            "UUIDV7", TextFunction.RANDOM_UUID_V7);

    private UuidCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = TextCalls.named(call, NAMES);
        if (f == null) {
            return null;
        }
        DataType type = Types.of(call.getType());
        if (f == TextFunction.RANDOM_UUID_V7) {
            return new Expr.Call(Op.FUNCTION, List.of(), type, false, f);
        }
        Expr a = translate.apply(call.getOperands().get(0));
        if (a instanceof Expr.Literal l && l.value() == null) {
            return new Expr.Literal(null, type);
        }
        if (!a.type().equals(DataType.UUID)) {
            a = new Expr.Call(Op.CAST, List.of(a), DataType.UUID, a.nullable());
        }
        return TextCalls.call(f, List.of(a), call);
    }
}
