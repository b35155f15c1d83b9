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
 * GPU refuses it as it refuses every such call. Between LIST, STRUCT or MAP types, and from text to one, DuckDB's
 * TRY_CAST makes NULL only the parts that do not convert ({@code TRY_CAST(['1', 'x'] AS INTEGER[])} is {@code [1,
 * NULL]}), which the same call does (a MAP whose key does not convert is NULL); a cast that no value could make (a
 * STRUCT to one with no field name in common) is refused as the CAST is; one between kinds (a LIST to a number,
 * a number to a STRUCT, inside a list too) is NULL, as DuckDB's. A LIST, STRUCT or MAP to text is its CAST, which
 * cannot fail.
 */
final class TryCasts {
    private TryCasts() {
    }

    /** The name the front end gives a TRY_CAST, which Calcite's constant reduction leaves alone. */
    static final String NAME = "TESSERA_TRY_CAST";

    private static boolean sameKind(DataType from, DataType to) {
        return from.isList() && to.isList() && from.isMap() == to.isMap() || from.isStruct() && to.isStruct();
    }

    /**
     * Refuses, as DuckDB's binder does, a STRUCT to STRUCT cast with no field name in common, at any depth; parts of
     * other kinds ({@code [1]} as {@code STRUCT(a INTEGER)[]}) are left to be NULL.
     */
    private static void checkNames(DataType from, DataType to) {
        if (from.isList() && to.isList()) {
            checkNames(from.element(), to.element());
        } else if (from.isStruct() && to.isStruct()) {
            boolean byPosition = from.isUnnamedStruct() && from.fields().size() == to.fields().size();
            boolean matched = false;
            for (int i = 0; i < to.fields().size(); i++) {
                int p = byPosition ? i + 1 : io.tessera.storage.StructCodec.position(from, to.fields().get(i).name());
                if (p > 0) {
                    checkNames(from.fields().get(p - 1).type(), to.fields().get(i).type());
                    matched = true;
                }
            }
            if (!matched) {
                throw new SqlError("CAST from " + from + " to " + to + ": a STRUCT to STRUCT cast needs a field name"
                        + " in common");
            }
        }
    }

    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        Expr value = translate.apply(call.getOperands().get(0));
        DataType to = Types.of(call.getType());
        if (ListCalls.isNull(value)) {
            return new Expr.Literal(null, to);
        }
        if (value.type().equals(to)) {
            return value;
        }
        DataType from = value.type();
        if (from.isNested() && to.isText()) {
            return ListCalls.text(value);
        }
        if ((from.isNested() || to.isNested()) && !from.isText()) {
            if (!sameKind(from, to)) {
                return new Expr.Literal(null, to); // no value converts: DuckDB's TRY_CAST([1] AS INTEGER) is NULL
            }
            checkNames(from, to);
        }
        return new Expr.Call(Op.LIST, List.of(value), to, true, ListFunction.TRY_CAST);
    }
}
