package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's JSON functions ({@code sql.JsonFunctions}) as {@link TextFunction} calls of the JSON text and the path:
 * a path left out is the document's root ('$'); JSON_EXTRACT_PATH and JSON_EXTRACT_PATH_TEXT are JSON_EXTRACT and
 * JSON_EXTRACT_STRING.
 */
final class JsonCalls {

    private JsonCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = switch (call.getOperator().getName().toUpperCase(Locale.ROOT)) {
            case "JSON_VALID" -> TextFunction.JSON_VALID;
            case "JSON_TYPE" -> TextFunction.JSON_TYPE;
            case "JSON_EXTRACT", "JSON_EXTRACT_PATH" -> TextFunction.JSON_EXTRACT;
            case "JSON_EXTRACT_STRING", "JSON_EXTRACT_PATH_TEXT" -> TextFunction.JSON_EXTRACT_STRING;
            case "JSON_ARRAY_LENGTH" -> TextFunction.JSON_ARRAY_LENGTH;
            case "JSON_KEYS" -> TextFunction.JSON_KEYS;
            default -> null;
        };
        if (f == null) {
            return null;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            args.add(translate.apply(o));
        }
        if (args.size() == 1 && f != TextFunction.JSON_VALID) {
            args.add(new Expr.Literal("$", DataType.VARCHAR));
        }
        return new Expr.Call(Op.FUNCTION, args, Types.of(call.getType()), call.getType().isNullable(), f);
    }
}
