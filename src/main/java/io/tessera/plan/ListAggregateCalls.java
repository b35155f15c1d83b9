package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * LIST_SUM, LIST_AVG, LIST_MIN, LIST_MAX, LIST_COUNT, LIST_PRODUCT and LIST_AGGREGATE ({@code sql.ListAggregateFunctions})
 * as {@link ListFunction#AGGREGATE} calls of the list and the aggregate's name, a bound constant; LIST_AGGREGATE's
 * string_agg and ARRAY_TO_STRING as {@link ListFunction#JOIN} calls of the list as a VARCHAR[] (each element its
 * text, as DuckDB's CAST writes it) and the separator, a constant (a comma where it is NULL or not given).
 */
final class ListAggregateCalls {

    private ListAggregateCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean ours = switch (name) {
            case "ARRAY_TO_STRING", "LIST_SUM", "LIST_AVG", "LIST_MIN", "LIST_MAX", "LIST_COUNT", "LIST_PRODUCT",
                 "LIST_AGGREGATE", "ARRAY_AGGREGATE", "LIST_AGGR" -> true;
            default -> false;
        };
        if (ours && call.getOperands().get(0).getType().getSqlTypeName()
                == org.apache.calcite.sql.type.SqlTypeName.NULL) {
            return new Expr.Literal(null, Types.of(call.getType())); // of a NULL that is no list yet: NULL
        }
        if (name.equals("ARRAY_TO_STRING")) {
            return join(call, translate, 1, true);
        }
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
        if (aggregate.equals("string_agg") || aggregate.equals("group_concat") || aggregate.equals("listagg")) {
            return join(call, translate, 2, false);
        }
        Expr list = translate.apply(call.getOperands().get(0));
        return new Expr.Call(Op.LIST, List.of(list, new Expr.Literal(aggregate, DataType.VARCHAR)),
                Types.of(call.getType()), true, ListFunction.AGGREGATE);
    }

    /** The elements' texts joined by the separator at {@code separatorAt} (a constant, if there). */
    private static Expr join(RexCall call, Function<RexNode, Expr> translate, int separatorAt, boolean emptyText) {
        Expr list = translate.apply(call.getOperands().get(0));
        if (list.type().element().isNested()) {
            throw new SqlError("unsupported: " + call.getOperator().getName().toLowerCase(java.util.Locale.ROOT)
                    + " of a list of " + list.type().element() + " (it joins the texts of elements that are not LISTs,"
                    + " STRUCTs or MAPs)");
        }
        DataType texts = DataType.list(DataType.VARCHAR);
        if (!list.type().equals(texts)) {
            list = new Expr.Call(Op.LIST, List.of(list), texts, list.nullable(), ListFunction.CAST);
        }
        String separator = call.getOperands().size() > separatorAt
                ? ((RexLiteral) call.getOperands().get(separatorAt)).getValueAs(String.class) : null;
        return new Expr.Call(Op.LIST, List.of(list, new Expr.Literal(separator == null ? "," : separator,
                DataType.VARCHAR), new Expr.Literal(emptyText, DataType.BOOLEAN)), DataType.VARCHAR, true,
                ListFunction.JOIN);
    }
}
