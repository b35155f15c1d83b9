package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
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
        if (!(r instanceof LogicalCorrelate correlate)) {
            return r;
        }
        LogicalCorrelate c = correlate;
        RelNode oneRow = withoutOneRowSorts(c.getRight());
        if (oneRow != c.getRight()) {
            // an ORDER BY or LIMIT over the aggregate's one row changes nothing, and would hide the aggregate below
            c = c.copy(c.getTraitSet(), c.getLeft(), oneRow, c.getCorrelationId(), c.getRequiredColumns(),
                    c.getJoinType());
        }
        if (c.getJoinType() == JoinRelType.INNER && aggregatesWithoutGroups(c.getRight())) {
            // a lateral subquery aggregating without GROUP BY or HAVING gives one row for every outer row, matched or
            // not: decorrelated as an inner join it would lose the outer rows no inner row matches, so it is joined as
            // a left one, its counts made 0 below
            RelNode right = c.getRight();
            if (right instanceof LogicalProject p && (!(p.getInput() instanceof Aggregate)
                    || p.getProjects().stream().anyMatch(RexUtil::containsCorrelation))) {
                throw new SqlError("unsupported: a LATERAL subquery that aggregates without GROUP BY and computes over"
                        + " its aggregates with the outer query's columns");
            }
            c = c.copy(c.getTraitSet(), c.getLeft(), right, c.getCorrelationId(), c.getRequiredColumns(),
                    JoinRelType.LEFT);
        } else if (c.getJoinType() != JoinRelType.LEFT) {
            return r;
        }
        RelNode right = c.getRight();
        List<RexNode> exprs = null;
        if (right instanceof LogicalProject p) {
            for (RexNode e : p.getProjects()) {
                if (RexUtil.containsCorrelation(e)) {
                    return withRowType(c, correlate.getRowType());
                }
            }
            exprs = p.getProjects();
            right = p.getInput();
        }
        if (!(right instanceof Aggregate a) || !a.getGroupSet().isEmpty() || a.getGroupType() != Aggregate.Group.SIMPLE
                || a.getAggCallList().stream().noneMatch(ScalarCounts::zeroOverNoRows)) {
            return withRowType(c, correlate.getRowType());
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
        List<RelDataTypeField> want = correlate.getRowType().getFieldList();
        for (int i = 0; i < top.size(); i++) {
            top.set(i, typed(rb, want.get(i).getType(), top.get(i)));
        }
        return LogicalProject.create(nc, List.of(), top, c.getRowType().getFieldNames(), c.getVariablesSet());
    }

    /** Whether {@code right} is an aggregate without groups below projections only: one row for any input. */
    private static boolean aggregatesWithoutGroups(RelNode right) {
        while (right instanceof LogicalProject p) {
            right = p.getInput();
        }
        return right instanceof Aggregate a && a.getGroupSet().isEmpty() && a.getGroupType() == Aggregate.Group.SIMPLE;
    }

    /**
     * {@code right} without the sorts over an aggregate without groups that keep its one row (no OFFSET, a LIMIT of
     * at least 1 or none), projections between them kept; {@code right} itself where there are none.
     */
    private static RelNode withoutOneRowSorts(RelNode right) {
        if (right instanceof Sort s && keepsOneRow(s)) {
            RelNode below = withoutOneRowSorts(s.getInput());
            return aggregatesWithoutGroups(below) ? below : right;
        }
        if (right instanceof LogicalProject p) {
            RelNode below = withoutOneRowSorts(p.getInput());
            return below == p.getInput() ? p : p.copy(p.getTraitSet(), List.of(below));
        }
        return right;
    }

    private static boolean keepsOneRow(Sort s) {
        boolean noOffset = s.offset == null
                || s.offset instanceof RexLiteral o && o.getValueAs(Long.class) != null && o.getValueAs(Long.class) == 0;
        boolean fetchOne = s.fetch == null
                || s.fetch instanceof RexLiteral f && f.getValueAs(Long.class) != null && f.getValueAs(Long.class) >= 1;
        return noOffset && fetchOne;
    }

    /**
     * {@code c}, or where it was an inner correlation made a left one (whose right columns may be NULL), {@code c}
     * under a projection giving each column the type it had ({@code want}), as the nodes above it read them.
     */
    private static RelNode withRowType(LogicalCorrelate c, RelDataType want) {
        if (c.getRowType().equals(want)) {
            return c;
        }
        RexBuilder rb = c.getCluster().getRexBuilder();
        List<RexNode> columns = new ArrayList<>();
        for (RelDataTypeField f : want.getFieldList()) {
            columns.add(typed(rb, f.getType(), rb.makeInputRef(c, f.getIndex())));
        }
        return LogicalProject.create(c, List.of(), columns, want.getFieldNames(), java.util.Set.of());
    }

    /** {@code e} as a value of {@code type}, its nullability included. */
    static RexNode typed(RexBuilder rb, RelDataType type, RexNode e) {
        return e.getType().equals(type) ? e : rb.makeCast(type, e, true, false);
    }

    /** COUNT (and the SUM0 that counts become) gives 0 over no rows, where other aggregates give NULL. */
    private static boolean zeroOverNoRows(AggregateCall call) {
        SqlKind k = call.getAggregation().getKind();
        return k == SqlKind.COUNT || k == SqlKind.SUM0;
    }
}
