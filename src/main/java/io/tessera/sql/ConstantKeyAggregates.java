package io.tessera.sql;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexLiteral;

/**
 * An uncorrelated aggregation whose every group key is a constant ({@code SELECT DISTINCT true FROM r WHERE c}, as
 * Calcite writes an uncorrelated EXISTS beside a correlated one in an OR), held in a scan of a stand-in table while
 * the query is decorrelated. Calcite's decorrelator rebuilds every aggregation it passes, leaving out constant keys,
 * and one with no key left is a global aggregation: one row even over no rows, so the EXISTS of an empty subquery
 * was true. It has nothing to decorrelate in such an aggregation; {@link #restore} puts it back as it was.
 */
final class ConstantKeyAggregates {

    /** The name of such an aggregation's stand-in table. */
    private static final String STAND_IN = "constant_keys";

    private ConstantKeyAggregates() {
    }

    /** {@code rel} with each such aggregation held in a stand-in scan. */
    static RelNode hide(RelNode rel, CalciteCatalogReader catalog) {
        if (rel instanceof Aggregate a && constantKeys(a) && !PartwiseDecorrelation.holdsCorrelate(a)
                && RelOptUtil.getVariablesUsed(a).isEmpty()) {
            return StandInTable.scan(STAND_IN, a, catalog);
        }
        return RecursiveUnions.withInputs(rel, input -> hide(input, catalog));
    }

    /** {@code rel} with the aggregations {@link #hide} held put back in place. */
    static RelNode restore(RelNode rel) {
        return StandInTable.restore(rel, STAND_IN);
    }

    /** Whether {@code a} groups by keys only, each a constant of the projection below it. */
    private static boolean constantKeys(Aggregate a) {
        if (a.getGroupCount() == 0 || !(a.getInput() instanceof Project p)) {
            return false;
        }
        for (int key : a.getGroupSet()) {
            if (!(p.getProjects().get(key) instanceof RexLiteral)) {
                return false;
            }
        }
        return true;
    }
}
