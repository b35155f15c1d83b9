package io.tessera.backend.lower;

import io.tessera.plan.Expr;
import io.tessera.storage.DataType;

/**
 * SMALLINT and TINYINT are computed as 32-bit integers: a call whose result can leave their range is checked against
 * it, failing as a CAST to the type would.
 */
public record NarrowRange(long min, long max, DataType type) {

    /** The range check a call's result needs, or null when it needs none. */
    public static NarrowRange of(Expr.Call c) {
        DataType t = c.type();
        return t.isNarrowInteger() && c.op().canLeaveNarrowRange() ? new NarrowRange(t.minValue(), t.maxValue(), t) : null;
    }
}
