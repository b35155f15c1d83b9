package io.tessera.plan;

import io.tessera.sql.SqlError;
import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.List;
import java.util.function.Function;

/**
 * DuckDB's {@code TRY_CAST(x AS type)}: the CAST's value, NULL where the CAST would fail (text that is no such value,
 * a value beyond the type's range). An {@link Op#LIST} call of {@link ListFunction#TRY_CAST}, which converts the
 * value's text by the CAST's own conversions ({@code backend.jvm.lib.NestedCast}) and takes a failure as NULL; the
 * GPU refuses it as it refuses every such call. A LIST, STRUCT or MAP, whose parts DuckDB's TRY_CAST makes NULL one by
 * one, is refused.
 */
final class TryCasts {
    private TryCasts() {
    }

    /** The name the front end gives a TRY_CAST, which Calcite's constant reduction leaves alone. */
    static final String NAME = "TESSERA_TRY_CAST";

    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        Expr value = translate.apply(call.getOperands().get(0));
        DataType to = Types.of(call.getType());
        if (value.type().isNested() || to.isNested()) {
            throw new SqlError("unsupported: TRY_CAST from " + value.type() + " to " + to
                    + " (TRY_CAST of a LIST, STRUCT or MAP; CAST it)");
        }
        if (ListCalls.isNull(value)) {
            return new Expr.Literal(null, to);
        }
        if (value.type().equals(to)) {
            return value;
        }
        return new Expr.Call(Op.LIST, List.of(value), to, true, ListFunction.TRY_CAST);
    }
}
