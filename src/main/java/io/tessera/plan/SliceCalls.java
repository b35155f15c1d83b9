package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * {@code array_slice} and {@code list_slice} (their names in {@code sql.SliceFunctions}) as {@link ListFunction#SLICE}
 * calls: the list or string, then begin, end and step as BIGINTs (a step of 1 where none is given).
 */
final class SliceCalls {
    private SliceCalls() {
    }

    /** The lowered call, or null when it is no slice. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (!name.equals("ARRAY_SLICE") && !name.equals("LIST_SLICE")) {
            return null;
        }
        DataType type = Types.of(call.getType());
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            Expr a = translate.apply(o);
            if (a instanceof Expr.Literal l && l.value() == null) {
                return new Expr.Literal(null, type); // a NULL argument: NULL
            }
            args.add(args.isEmpty() ? a : ListCalls.as(a, DataType.BIGINT));
        }
        if (args.size() == 3) {
            args.add(new Expr.Literal(1L, DataType.BIGINT));
        }
        return new Expr.Call(Op.LIST, args, type, call.getType().isNullable(), ListFunction.SLICE);
    }
}
