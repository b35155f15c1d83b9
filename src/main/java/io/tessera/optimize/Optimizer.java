package io.tessera.optimize;

import io.tessera.sql.GroupingSetsRewrite;
import io.tessera.sql.RuleTargets;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.sql.VolatileCalls;
import io.tessera.sql.VolatileProjects;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.JoinProjectTransposeRule;
import org.apache.calcite.rel.rules.JoinToMultiJoinRule;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;

import java.util.List;

/**
 * The optimizer stage between the SQL front end and the physical planner: pushes filters towards the scans,
 * flattens each region of joins and orders it by estimated cost ({@link JoinOrder}), prunes unused columns and
 * hands the physical planner the plan with its {@link Estimates}.
 */
public final class Optimizer {

    private Optimizer() {
    }

    // Calcite's rules that pull projections above a join, for inner joins only (a semi or anti join's row type is its
    // left input's, which the rule does not expect), and only projections without a volatile column (random(): above
    // the join it would be computed per joined row, and again in the join condition reading it)
    private static final RelOptRule PULL_PROJECTS_BOTH = CoreRules.JOIN_PROJECT_BOTH_TRANSPOSE.config
            .withOperandSupplier(b0 -> b0.operand(LogicalJoin.class).predicate(Optimizer::inner).inputs(
                    b1 -> b1.operand(LogicalProject.class).predicate(VolatileProjects::movable).anyInputs(),
                    b2 -> b2.operand(LogicalProject.class).predicate(VolatileProjects::movable).anyInputs()))
            .as(JoinProjectTransposeRule.Config.class).toRule();
    private static final RelOptRule PULL_PROJECTS_LEFT = CoreRules.JOIN_PROJECT_LEFT_TRANSPOSE.config
            .withOperandSupplier(b0 -> b0.operand(LogicalJoin.class).predicate(Optimizer::inner).inputs(
                    b1 -> b1.operand(LogicalProject.class).predicate(VolatileProjects::movable).anyInputs()))
            .as(JoinProjectTransposeRule.Config.class).toRule();
    private static final RelOptRule PULL_PROJECTS_RIGHT = CoreRules.JOIN_PROJECT_RIGHT_TRANSPOSE.config
            .withOperandSupplier(b0 -> b0.operand(LogicalJoin.class).predicate(Optimizer::inner).inputs(
                    // the rule pulls a projection that is the left input too, which this operand matches as any node
                    b1 -> b1.operand(RelNode.class).predicate(VolatileProjects::movable).anyInputs(),
                    b2 -> b2.operand(LogicalProject.class).predicate(VolatileProjects::movable).anyInputs()))
            .as(JoinProjectTransposeRule.Config.class).toRule();

    // a join region holds at most JoinGraph.MAX_RELATIONS relations (a bit each): a larger one is flattened in parts,
    // the joins above a full region staying binary until a new region starts above them, and each part ordered alone
    private static final RelOptRule JOIN_TO_MULTI_JOIN = CoreRules.JOIN_TO_MULTI_JOIN.config
            .withOperandSupplier(b0 -> b0.operand(LogicalJoin.class).predicate(Optimizer::fitsOneRegion).inputs(
                    b1 -> b1.operand(RelNode.class).anyInputs(),
                    b2 -> b2.operand(RelNode.class).anyInputs()))
            .as(JoinToMultiJoinRule.Config.class).toRule();

    private static boolean fitsOneRegion(Join j) {
        return regionSize(j.getLeft()) + regionSize(j.getRight()) <= JoinGraph.MAX_RELATIONS;
    }

    private static int regionSize(RelNode input) {
        return input.stripped() instanceof MultiJoin mj ? mj.getInputs().size() : 1;
    }

    private static boolean inner(Join j) {
        return j.getJoinType() == JoinRelType.INNER;
    }

    /** A logical plan ready for the physical planner, its output column names and the estimates of its operators. */
    public record OptimizedPlan(RelNode rel, List<String> fieldNames, Estimates estimates) {
    }

    public static OptimizedPlan optimize(SqlFrontEnd.LogicalPlan logical) {
        return optimize(logical, EstimateSkew.NONE, false);
    }

    /**
     * As above, with every stored table's estimated rows multiplied by {@code skew}'s factor (tests);
     * {@code forGpu}: inner joins build over sides whose keys are unique wherever an order allows it, since the GPU
     * backend builds no hash table with repeated keys yet (a plan for the JVM builds the smaller side); and DISTINCT
     * aggregates are computed by two aggregations ({@link DistinctAggregateSplit}).
     */
    public static OptimizedPlan optimize(SqlFrontEnd.LogicalPlan logical, EstimateSkew skew, boolean forGpu) {
        RelNode rel = logical.rel();
        int volatileCalls = VolatileCalls.count(rel);
        // one set of estimates for every pass: they are kept per operator instance, and an operator no pass
        // changed (a filtered scan, whose sample is evaluated once) keeps its estimate from pass to pass
        Estimates estimates = new Estimates(skew);
        RelBuilder builder = VolatileProjects.BUILDERS.create(rel.getCluster(), logical.catalog());
        // a WHERE over many tables of FROM placed on the joins at once, where the rules below move it step by step
        rel = CrossJoinConditions.apply(rel);
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP,
                ReducedFilters.RULE, ReducedProjects.RULE,
                VolatileProjects.FILTER_INTO_JOIN, VolatileProjects.JOIN_CONDITION_PUSH,
                VolatileProjects.FILTER_PROJECT_TRANSPOSE, VolatileProjects.FILTER_AGGREGATE_TRANSPOSE,
                CoreRules.FILTER_MERGE, VolatileProjects.PROJECT_MERGE, CoreRules.PROJECT_REMOVE,
                CoreRules.AGGREGATE_PROJECT_MERGE, CoreRules.UNION_TO_DISTINCT);
        // an inner join with a relation only its keys are read from, whose keys are unique (IN decorrelated as a join
        // with the distinct keys), is a semi join: the relation's rows need not be built with a payload or grouped.
        // Only where a join reads an aggregation: the projection rules found nothing left by the pass above, which
        // ran them to a fixed point
        if (RuleTargets.joinsAnAggregate(rel)) {
            rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, CoreRules.PROJECT_TO_SEMI_JOIN,
                    CoreRules.JOIN_TO_SEMI_JOIN, VolatileProjects.PROJECT_MERGE, CoreRules.PROJECT_REMOVE);
        }
        // a subquery's aggregation computed only for the keys the outer query can use
        rel = SemiJoinReduction.apply(rel, estimates);
        // an aggregation per preserved row of a left join computed over the other side before the join
        rel = EagerAggregation.apply(rel, estimates);
        // projections between inner joins move above them, so that a region of joins is one flat set of inputs
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, PULL_PROJECTS_BOTH, PULL_PROJECTS_LEFT, PULL_PROJECTS_RIGHT,
                VolatileProjects.PROJECT_MERGE, CoreRules.PROJECT_REMOVE);
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, JOIN_TO_MULTI_JOIN,
                CoreRules.PROJECT_MULTI_JOIN_MERGE, CoreRules.FILTER_MULTI_JOIN_MERGE);
        rel = new JoinOrder(estimates, forGpu).apply(rel);
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, VolatileProjects.FILTER_INTO_JOIN,
                VolatileProjects.JOIN_CONDITION_PUSH, VolatileProjects.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_MERGE,
                VolatileProjects.PROJECT_MERGE, CoreRules.PROJECT_REMOVE, ReducedFilters.RULE);
        // a total over the rows that a grouped aggregation also reads, from that aggregation's groups
        rel = ScalarAggregateRollup.apply(rel, builder);
        // what a join's inputs compute is computed below it, once per input row (a build side's payload)
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, VolatileProjects.PROJECT_JOIN_TRANSPOSE,
                VolatileProjects.PROJECT_MERGE, CoreRules.PROJECT_REMOVE);
        rel = new RelFieldTrimmer(null, builder).trim(rel);
        rel = SqlFrontEnd.hep(rel, HepMatchOrder.BOTTOM_UP, VolatileProjects.PROJECT_MERGE, CoreRules.PROJECT_REMOVE);
        rel = GroupingSetsRewrite.rewrite(rel);
        // INTERVAL keys grouped by their length, as DuckDB groups them (1 month with 30 days)
        rel = IntervalGroups.apply(rel, builder);
        if (forGpu) {
            // DISTINCT aggregates as two aggregations, whose group tables the GPU holds
            rel = DistinctAggregateSplit.apply(rel, builder);
            // a group key that may be NULL as two that never are, whose group tables the GPU holds
            rel = NullableGroupKeys.apply(rel, builder);
        }
        VolatileCalls.checkNotRepeated(rel, volatileCalls);
        return new OptimizedPlan(rel, logical.fieldNames(), estimates);
    }
}
