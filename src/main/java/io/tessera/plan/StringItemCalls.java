package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.List;
import java.util.function.Function;

/**
 * {@code s[i]} of a string lowered to SUBSTRING(s, i, 1): DuckDB's rules for SUBSTRING give exactly its character
 * index (1-based, negative from the end, 0 and positions outside the string an empty string), over code points.
 */
final class StringItemCalls {
    private StringItemCalls() {
    }

    /** The lowered call, or null when {@code call} is not an index into a string. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        if (call.getKind() != SqlKind.ITEM || !SqlTypeUtil.inCharFamily(call.getOperands().get(0).getType())) {
            return null;
        }
        Expr text = translate.apply(call.getOperands().get(0));
        Expr index = translate.apply(call.getOperands().get(1));
        if (index instanceof Expr.Literal l && l.value() == null) {
            return new Expr.Literal(null, DataType.VARCHAR);
        }
        return new Expr.Call(Op.FUNCTION, List.of(text, index, new Expr.Literal(1L, DataType.BIGINT)),
                DataType.VARCHAR, call.getType().isNullable(), TextFunction.SUBSTRING);
    }
}
