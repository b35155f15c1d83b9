package io.tessera.sql;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code WHERE [NOT] EXISTS (SELECT ... FROM r WHERE c)}, where only {@code c} reads the outer row, becomes a semi
 * (anti) join of the outer rows with {@code r} on {@code c}. Calcite's own decorrelation would first compute the
 * subquery for every distinct key of {@code r} (an aggregate over all of {@code r}, TPC-H Q4 and Q22), or join it
 * with every distinct outer value where {@code c} correlates by more than equalities (Q21); a semi or anti join
 * instead either probes a table of {@code r} once per outer row, stopping at the first build row with the key that
 * meets the rest of {@code c}, or, where the outer rows are fewer, builds them and lets {@code r}'s rows mark those
 * they match. EXISTS is never NULL, so the rewrite holds in any conjunct of a WHERE; EXISTS elsewhere (in OR, CASE,
 * SELECT) is left to Calcite.
 */
final class ExistsJoins {
    private ExistsJoins() {
    }

    static RelNode rewrite(RelNode rel) {
        List<RelNode> inputs = new ArrayList<>();
        for (RelNode in : rel.getInputs()) {
            inputs.add(rewrite(in));
        }
        RelNode r = inputs.equals(rel.getInputs()) ? rel : rel.copy(rel.getTraitSet(), inputs);
        if (!(r instanceof LogicalFilter f) || f.getVariablesSet().size() != 1) {
            return r;
        }
        CorrelationId cor = f.getVariablesSet().iterator().next();
        RelNode input = f.getInput();
        List<RexNode> rest = new ArrayList<>();
        boolean changed = false;
        for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
            boolean negated = c.getKind() == SqlKind.NOT;
            RexNode e = negated ? ((RexCall) c).getOperands().get(0) : c;
            RelNode joined = e instanceof RexSubQuery sq && sq.getKind() == SqlKind.EXISTS
                    ? join(input, sq.rel, cor, negated ? JoinRelType.ANTI : JoinRelType.SEMI) : null;
            if (joined == null) {
                rest.add(c);
            } else {
                input = joined;
                changed = true;
            }
        }
        if (!changed) {
            return r;
        }
        if (rest.isEmpty()) {
            return input;
        }
        RexNode cond = RexUtil.composeConjunction(f.getCluster().getRexBuilder(), rest);
        return LogicalFilter.create(input, cond, com.google.common.collect.ImmutableSet.copyOf(f.getVariablesSet()));
    }

    /** The semi or anti join of {@code outer} with the subquery, or null when it is not of the shape above. */
    private static RelNode join(RelNode outer, RelNode sub, CorrelationId cor, JoinRelType type) {
        while (sub instanceof LogicalProject p) {
            sub = p.getInput();
        }
        if (!(sub instanceof LogicalFilter sf) || !sf.getVariablesSet().isEmpty()
                || RexUtil.SubQueryFinder.containsSubQuery(sf)
                || !RelOptUtil.getVariablesUsed(sf.getInput()).isEmpty()) {
            return null;
        }
        // conjuncts that read only the subquery's rows filter its side before the join
        List<RexNode> inner = new ArrayList<>();
        List<RexNode> correlated = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(sf.getCondition())) {
            (RexUtil.containsCorrelation(c) ? correlated : inner).add(c);
        }
        RelNode right = inner.isEmpty() ? sf.getInput()
                : LogicalFilter.create(sf.getInput(), RexUtil.composeConjunction(sf.getCluster().getRexBuilder(), inner));
        int nOuter = outer.getRowType().getFieldCount();
        RexNode cond = OuterFieldRefs.rewrite(RexUtil.composeConjunction(sf.getCluster().getRexBuilder(), correlated),
                cor, nOuter, outer.getRowType());
        if (cond == null) {
            return null;
        }
        return LogicalJoin.create(outer, right, List.of(), cond, Set.of(), type);
    }
}
