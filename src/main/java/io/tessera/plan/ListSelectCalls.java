package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * DuckDB's list functions that pick, pair or rearrange elements, and the distances of two lists of numbers (typed
 * in {@code sql.ListSelectFunctions}), as {@link ListFunction} calls: ZIP, SELECT, WHERE, GRADE_UP, RESIZE and
 * DISTANCE.
 */
final class ListSelectCalls {
    private ListSelectCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        DataType type = Types.of(call.getType());
        boolean nullable = call.getType().isNullable();
        List<RexNode> ops = call.getOperands();
        return switch (name) {
            case "LIST_ZIP", "ARRAY_ZIP" -> zip(call, type, translate);
            case "LIST_SELECT", "ARRAY_SELECT", "LIST_WHERE", "ARRAY_WHERE" -> {
                Expr list = ListCalls.as(translate.apply(ops.get(0)), type);
                Expr by = translate.apply(ops.get(1));
                yield new Expr.Call(Op.LIST, List.of(list, by), type, nullable,
                        name.endsWith("SELECT") ? ListFunction.SELECT : ListFunction.WHERE);
            }
            case "LIST_GRADE_UP", "ARRAY_GRADE_UP", "GRADE_UP" -> {
                Expr list = translate.apply(ops.get(0));
                // the order arguments read as list_sort reads them: a sort of the list, or NULL
                Expr sort = SplitSortCalls.sort(call, name.toLowerCase(Locale.ROOT), list, false);
                if (!(sort instanceof Expr.Call sorted)) {
                    yield new Expr.Literal(null, type);
                }
                Expr descending = new Expr.Literal(sorted.detail() == ListFunction.REVERSE_SORT, DataType.BOOLEAN);
                yield new Expr.Call(Op.LIST, List.of(list, sorted.args().get(1), descending), type, list.nullable(),
                        ListFunction.GRADE_UP);
            }
            case "LIST_RESIZE", "ARRAY_RESIZE" -> {
                Expr list = ListCalls.as(translate.apply(ops.get(0)), type);
                Expr size = ListCalls.as(translate.apply(ops.get(1)), DataType.BIGINT);
                Expr fill = ops.size() > 2 ? ListCalls.as(translate.apply(ops.get(2)), type.element())
                        : new Expr.Literal(null, type.element());
                yield new Expr.Call(Op.LIST, List.of(list, size, fill), type, nullable, ListFunction.RESIZE);
            }
            case "LIST_INNER_PRODUCT", "LIST_DOT_PRODUCT", "LIST_NEGATIVE_INNER_PRODUCT", "LIST_NEGATIVE_DOT_PRODUCT",
                 "LIST_DISTANCE", "LIST_COSINE_SIMILARITY", "LIST_COSINE_DISTANCE" -> {
                // both lists' numbers as DOUBLEs; the measure, named by DuckDB's first name, a constant
                String measure = switch (name) {
                    case "LIST_DOT_PRODUCT" -> "LIST_INNER_PRODUCT";
                    case "LIST_NEGATIVE_DOT_PRODUCT" -> "LIST_NEGATIVE_INNER_PRODUCT";
                    default -> name;
                };
                List<Expr> args = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    args.add(ListCalls.as(translate.apply(ops.get(i)), DataType.list(DataType.DOUBLE)));
                }
                args.add(new Expr.Literal(measure.toLowerCase(Locale.ROOT), DataType.VARCHAR));
                yield new Expr.Call(Op.LIST, args, DataType.DOUBLE, nullable, ListFunction.DISTANCE);
            }
            default -> null;
        };
    }

    /**
     * list_zip: each list (a NULL one as empty) and the constant flag that cuts the result at the shortest list;
     * never NULL.
     */
    private static Expr zip(RexCall call, DataType type, Function<RexNode, Expr> translate) {
        List<RexNode> ops = call.getOperands();
        boolean flagged = ops.size() > 1 && ops.getLast().getType().getSqlTypeName() == SqlTypeName.BOOLEAN;
        boolean truncate = false;
        if (flagged) {
            if (!(ops.getLast() instanceof RexLiteral flag)) {
                throw new io.tessera.sql.SqlError("unsupported: list_zip with a truncate flag that is not a constant"
                        + " BOOLEAN");
            }
            truncate = Boolean.TRUE.equals(flag.getValueAs(Boolean.class));
        }
        List<Expr> args = new ArrayList<>();
        int lists = flagged ? ops.size() - 1 : ops.size();
        for (int i = 0; i < lists; i++) {
            DataType field = type.element().fields().get(i).type();
            args.add(ListCalls.as(translate.apply(ops.get(i)), DataType.list(field)));
        }
        args.add(new Expr.Literal(truncate, DataType.BOOLEAN));
        return new Expr.Call(Op.LIST, args, type, false, ListFunction.ZIP);
    }
}
