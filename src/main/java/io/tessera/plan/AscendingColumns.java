package io.tessera.plan;

import io.tessera.optimize.AscendingValues;

/**
 * Whether an expression reads a stored integer column whose values ascend with the row number ({@link
 * AscendingValues}): probing rows read in that order look up a perfect table's slots in ascending order, and a
 * grouping by it sees each group's rows together (agg=ordered). Only a guess, used for the order of a pipeline's
 * operations and a default genome, never for an answer.
 */
public final class AscendingColumns {

    private AscendingColumns() {
    }

    /** Whether an expression is a stored source column that ascends with the row number. */
    public static boolean ascendingSource(Expr e) {
        return e instanceof Expr.Ref r && r.slot().isSource() && r.slot().origin() != null
                && AscendingValues.ascends(r.slot().origin());
    }
}
