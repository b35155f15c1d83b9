package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * LIST_SUM, LIST_AVG, LIST_MIN, LIST_MAX, LIST_COUNT, LIST_PRODUCT and LIST_AGGREGATE ({@code sql.ListAggregateFunctions})
 * as {@link ListFunction#AGGREGATE} calls of the list and the aggregate's name, a bound constant.
 */
final class ListAggregateCalls {

    private ListAggregateCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        String aggregate = switch (name) {
            case "LIST_SUM", "LIST_AVG", "LIST_MIN", "LIST_MAX", "LIST_COUNT", "LIST_PRODUCT" ->
                    name.substring(5).toLowerCase(Locale.ROOT);
            case "LIST_AGGREGATE", "ARRAY_AGGREGATE", "LIST_AGGR" ->
                    ((RexLiteral) call.getOperands().get(1)).getValueAs(String.class).toLowerCase(Locale.ROOT);
            default -> null;
        };
        if (aggregate == null) {
            return null;
        }
        Expr list = translate.apply(call.getOperands().get(0));
        return new Expr.Call(Op.LIST, List.of(list, new Expr.Literal(aggregate, DataType.VARCHAR)),
                Types.of(call.getType()), true, ListFunction.AGGREGATE);
    }
}
