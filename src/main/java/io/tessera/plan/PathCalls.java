package io.tessera.plan;

import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * DuckDB's path functions ({@code sql.PathFunctions}) as {@link TextFunction} calls of the path, (for
 * PARSE_FILENAME) whether to trim the extension, and the separator option: the options a call leaves out, or passes
 * as NULL, are their defaults (false, 'both_slash').
 */
final class PathCalls {

    private static final Map<String, TextFunction> NAMES = Map.of(
            "PARSE_PATH", TextFunction.PARSE_PATH,
            "PARSE_DIRNAME", TextFunction.PARSE_DIRNAME,
            "PARSE_DIRPATH", TextFunction.PARSE_DIRPATH,
            "PARSE_FILENAME", TextFunction.PARSE_FILENAME);

    private PathCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = TextCalls.named(call, NAMES);
        if (f == null) {
            return null;
        }
        List<RexNode> ops = call.getOperands();
        Expr path = translate.apply(ops.get(0));
        Expr trim = null;
        Expr separator = null;
        for (RexNode o : ops.subList(1, ops.size())) {
            Expr a = translate.apply(o);
            boolean isTrim = a.type().kind() == TypeKind.BOOLEAN
                    || a instanceof Expr.Literal l && l.value() == null && trim == null && separator == null
                    && ops.size() == 3;
            if (isTrim) {
                trim = a;
            } else {
                separator = a;
            }
        }
        List<Expr> args = new ArrayList<>();
        args.add(path);
        if (f == TextFunction.PARSE_FILENAME) {
            args.add(orDefault(trim, new Expr.Literal(false, DataType.BOOLEAN)));
        }
        args.add(orDefault(separator, new Expr.Literal("both_slash", DataType.VARCHAR)));
        return TextCalls.call(f, args, call);
    }

    /** The option, its default where it is left out or NULL. */
    private static Expr orDefault(Expr option, Expr.Literal fallback) {
        if (option == null || option instanceof Expr.Literal l && l.value() == null) {
            return fallback;
        }
        if (!option.nullable()) {
            return option;
        }
        return new Expr.Call(Op.COALESCE, List.of(option, fallback), fallback.type(), false);
    }
}
