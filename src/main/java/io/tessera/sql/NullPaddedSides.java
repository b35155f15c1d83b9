package io.tessera.sql;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.rules.ProjectJoinTransposeRule;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Which expressions of a projection over an outer join Calcite's PROJECT_JOIN_TRANSPOSE may compute below the join.
 * Calcite pushes an expression of one side's columns that is NULL whenever they are (strong), also to the side the
 * join pads with NULLs; but an expression typed NOT NULL there (COALESCE(x, 0) <> 21 reduced to CAST(x AS INTEGER NOT
 * NULL) <> 21 under a CASE that tests x IS NOT NULL first) becomes, read above the join, a column that may be NULL,
 * and the projection changes type. Such an expression stays above the join, computed from the columns pushed below.
 */
final class NullPaddedSides {

    private NullPaddedSides() {
    }

    /**
     * Fires PROJECT_JOIN_TRANSPOSE ({@code config}'s) for {@code call}, a projection over a join: over an inner join
     * as {@code inner} fires it, over an outer join with a condition that keeps such expressions above the join.
     */
    static void onMatch(ProjectJoinTransposeRule.Config config, RelOptRuleCall call,
                        java.util.function.Consumer<RelOptRuleCall> inner) {
        Join join = call.rel(1);
        if (!join.getJoinType().generatesNullsOnLeft() && !join.getJoinType().generatesNullsOnRight()) {
            inner.accept(call);
            return;
        }
        ImmutableBitSet padded = padded(join);
        config.withPreserveExprCondition(e -> !(e instanceof RexOver) && !notNullOver(e, padded)).toRule()
                .onMatch(call);
    }

    /** The columns of {@code join}'s output that it may pad with NULLs. */
    private static ImmutableBitSet padded(Join join) {
        int left = join.getLeft().getRowType().getFieldCount();
        int all = join.getRowType().getFieldCount();
        ImmutableBitSet.Builder b = ImmutableBitSet.builder();
        if (join.getJoinType().generatesNullsOnLeft()) {
            b.set(0, left);
        }
        if (join.getJoinType().generatesNullsOnRight()) {
            b.set(left, all);
        }
        return b.build();
    }

    /** Whether {@code e} is typed NOT NULL and reads only columns the join may pad. */
    private static boolean notNullOver(RexNode e, ImmutableBitSet padded) {
        ImmutableBitSet read = RelOptUtil.InputFinder.bits(e);
        return !e.getType().isNullable() && !read.isEmpty() && padded.contains(read);
    }
}
