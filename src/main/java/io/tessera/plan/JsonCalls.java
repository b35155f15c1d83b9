package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * DuckDB's JSON functions ({@code sql.JsonFunctions}) as {@link TextFunction} calls of the JSON text and the path:
 * a path left out is the document's root ('$'); JSON_EXTRACT_PATH and JSON_EXTRACT_PATH_TEXT are JSON_EXTRACT and
 * JSON_EXTRACT_STRING.
 */
final class JsonCalls {

    private static final Map<String, TextFunction> NAMES = Map.of(
            "JSON_VALID", TextFunction.JSON_VALID,
            "JSON_TYPE", TextFunction.JSON_TYPE,
            "JSON_EXTRACT", TextFunction.JSON_EXTRACT,
            "JSON_EXTRACT_PATH", TextFunction.JSON_EXTRACT,
            "JSON_EXTRACT_STRING", TextFunction.JSON_EXTRACT_STRING,
            "JSON_EXTRACT_PATH_TEXT", TextFunction.JSON_EXTRACT_STRING,
            "JSON_ARRAY_LENGTH", TextFunction.JSON_ARRAY_LENGTH,
            "JSON_KEYS", TextFunction.JSON_KEYS);

    private JsonCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = TextCalls.named(call, NAMES);
        if (f == null) {
            return null;
        }
        List<Expr> args = TextCalls.operands(call, translate);
        if (args.size() == 1 && f != TextFunction.JSON_VALID) {
            args.add(new Expr.Literal("$", DataType.VARCHAR));
        }
        return TextCalls.call(f, args, call);
    }
}
