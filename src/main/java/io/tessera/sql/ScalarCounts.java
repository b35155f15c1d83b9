package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.util.ArrayList;
import java.util.List;

/**
 * The count of a correlated subquery over no rows is 0, after decorrelation too. A subquery whose aggregate has no
 * GROUP BY ({@code (SELECT count(*) FROM t2 WHERE t2.a > t1.a)}, NOT IN's row counts) gives exactly one row per
 * outer row; decorrelated, it becomes a LEFT join with the subquery grouped by the correlated values, where an outer
 * row no inner row matches finds no group and gets a NULL count (the "count bug"). Before decorrelation, this wraps
 * each COUNT of such a subquery, above the correlation, in {@code CASE WHEN c IS NULL THEN 0 ELSE c END}: the same
 * value while the subquery always gives its row, and 0 where the join finds none. A projection between the
 * correlation and the aggregate moves above the correlation with it (the aggregate's one row makes that exact).
 */
final class ScalarCounts {
    private ScalarCounts() {
    }

    static RelNode fix(RelNode rel) {
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode in : rel.getInputs()) {
            inputs.add(fix(in));
        }
        RelNode r = inputs.equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), inputs);
        if (!(r instanceof LogicalCorrelate c) || c.getJoinType() != JoinRelType.LEFT) {
            return r;
        }
        RelNode right = c.getRight();
        List<RexNode> exprs = null;
        if (right instanceof LogicalProject p) {
            for (RexNode e : p.getProjects()) {
                if (RexUtil.containsCorrelation(e)) {
                    return r;
                }
            }
            exprs = p.getProjects();
            right = p.getInput();
        }
        if (!(right instanceof Aggregate a) || !a.getGroupSet().isEmpty() || a.getGroupType() != Aggregate.Group.SIMPLE
                || a.getAggCallList().stream().noneMatch(ScalarCounts::zeroOverNoRows)) {
            return r;
        }
        RexBuilder rb = c.getCluster().getRexBuilder();
        LogicalCorrelate nc = c.copy(c.getTraitSet(), c.getLeft(), a, c.getCorrelationId(), c.getRequiredColumns(),
                JoinRelType.LEFT);
        int nLeft = c.getLeft().getRowType().getFieldCount();
        List<RexNode> aggFields = new ArrayList<>();
        for (int i = 0; i < a.getRowType().getFieldCount(); i++) {
            RexNode ref = rb.makeInputRef(nc, nLeft + i);
            AggregateCall call = a.getAggCallList().get(i);
            aggFields.add(zeroOverNoRows(call)
                    ? rb.makeCall(SqlStdOperatorTable.CASE, rb.makeCall(SqlStdOperatorTable.IS_NULL, ref),
                    rb.makeZeroLiteral(ref.getType()), ref)
                    : ref);
        }
        List<RexNode> top = new ArrayList<>();
        for (int i = 0; i < nLeft; i++) {
            top.add(rb.makeInputRef(nc, i));
        }
        if (exprs == null) {
            top.addAll(aggFields);
        } else {
            for (RexNode e : exprs) {
                top.add(e.accept(new RexShuttle() {
                    @Override
                    public RexNode visitInputRef(RexInputRef ref) {
                        return aggFields.get(ref.getIndex());
                    }
                }));
            }
        }
        List<RelDataTypeField> want = c.getRowType().getFieldList();
        for (int i = 0; i < top.size(); i++) {
            top.set(i, rb.ensureType(want.get(i).getType(), top.get(i), true));
        }
        return LogicalProject.create(nc, List.of(), top, c.getRowType().getFieldNames(), c.getVariablesSet());
    }

    /** COUNT (and the SUM0 that counts become) gives 0 over no rows, where other aggregates give NULL. */
    private static boolean zeroOverNoRows(AggregateCall call) {
        SqlKind k = call.getAggregation().getKind();
        return k == SqlKind.COUNT || k == SqlKind.SUM0;
    }
}
