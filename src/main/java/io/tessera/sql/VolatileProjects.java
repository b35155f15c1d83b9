package io.tessera.sql;

import com.google.common.collect.ImmutableList;
import org.apache.calcite.plan.Context;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptSchema;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.FilterAggregateTransposeRule;
import org.apache.calcite.rel.rules.FilterJoinRule;
import org.apache.calcite.rel.rules.FilterProjectTransposeRule;
import org.apache.calcite.rel.rules.ProjectJoinTransposeRule;
import org.apache.calcite.rel.rules.ProjectMergeRule;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Calcite's rules and RelBuilder as Tessera runs them, keeping a projection that computes a call giving a new value
 * each time ({@link VolatileCalls}: random(), nextval, ...) apart from the operators that read its columns: merged, or
 * with a filter moved below it, each read would compute the call again, and one row's copies of the column would
 * differ. Where such a projection is built, read a column once as a whole, it still merges, as Calcite merges
 * others. A filter or join condition that calls one itself stays where it was written, over the rows it was written
 * over (moved below a join or an aggregation, it would draw per input row).
 */
public final class VolatileProjects {

    private VolatileProjects() {
    }

    /** Calcite's PROJECT_MERGE, except where the lower projection's volatile columns would be computed again. */
    public static final RelOptRule PROJECT_MERGE = new ProjectMergeRule(CoreRules.PROJECT_MERGE.config
            .withDescription("VolatileProjects:ProjectMerge").as(ProjectMergeRule.Config.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            Project top = call.rel(0);
            return super.matches(call) && VolatileCalls.mergeable(top.getProjects(), call.rel(1));
        }
    };

    /** Calcite's FILTER_PROJECT_TRANSPOSE, except for a filter that reads a volatile column of the projection. */
    public static final RelOptRule FILTER_PROJECT_TRANSPOSE = new FilterProjectTransposeRule(
            CoreRules.FILTER_PROJECT_TRANSPOSE.config.withDescription("VolatileProjects:FilterProjectTranspose")
                    .as(FilterProjectTransposeRule.Config.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            Filter filter = call.rel(0);
            return !VolatileCalls.readBy(filter.getCondition(), call.rel(1));
        }
    };

    /** Calcite's FILTER_AGGREGATE_TRANSPOSE, except for a filter that calls a volatile function. */
    public static final RelOptRule FILTER_AGGREGATE_TRANSPOSE = new FilterAggregateTransposeRule(
            CoreRules.FILTER_AGGREGATE_TRANSPOSE.config.withDescription("VolatileProjects:FilterAggregateTranspose")
                    .as(FilterAggregateTransposeRule.Config.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            Filter filter = call.rel(0);
            return !VolatileCalls.in(filter.getCondition());
        }
    };

    /**
     * Calcite's PROJECT_JOIN_TRANSPOSE, except for a projection that calls a volatile function, and keeping above an
     * outer join what {@link NullPaddedSides} keeps there.
     */
    public static final RelOptRule PROJECT_JOIN_TRANSPOSE = new ProjectJoinTransposeRule(
            CoreRules.PROJECT_JOIN_TRANSPOSE.config.withDescription("VolatileProjects:ProjectJoinTranspose")
                    .as(ProjectJoinTransposeRule.Config.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            Project project = call.rel(0);
            return !VolatileCalls.in(project.getProjects());
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            NullPaddedSides.onMatch(config, call, super::onMatch);
        }
    };

    /** Calcite's FILTER_INTO_JOIN, except for a filter that calls a volatile function. */
    public static final RelOptRule FILTER_INTO_JOIN = new FilterJoinRule.FilterIntoJoinRule(
            CoreRules.FILTER_INTO_JOIN.config.withDescription("VolatileProjects:FilterIntoJoin")
                    .as(FilterJoinRule.FilterIntoJoinRule.FilterIntoJoinRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            Filter filter = call.rel(0);
            return !VolatileCalls.in(filter.getCondition());
        }
    };

    /** Calcite's JOIN_CONDITION_PUSH, except for a join condition that calls a volatile function. */
    public static final RelOptRule JOIN_CONDITION_PUSH = new FilterJoinRule.JoinConditionPushRule(
            CoreRules.JOIN_CONDITION_PUSH.config.withDescription("VolatileProjects:JoinConditionPush")
                    .as(FilterJoinRule.JoinConditionPushRule.JoinConditionPushRuleConfig.class)) {
        @Override
        public boolean matches(RelOptRuleCall call) {
            Join join = call.rel(0);
            return !VolatileCalls.in(join.getCondition());
        }
    };

    /** Whether Calcite's rules may move {@code rel} above a join: it is no projection computing a volatile column. */
    public static boolean movable(RelNode rel) {
        return !(rel instanceof Project project) || VolatileCalls.columns(project).isEmpty();
    }

    /** RelBuilders (for conversion, decorrelation, trimming and Tessera's passes) that keep such projections apart. */
    public static final RelBuilderFactory BUILDERS = (cluster, schema) ->
            new Builder(Contexts.of(RelFactories.DEFAULT_STRUCT), cluster, schema);

    /**
     * Calcite's RelBuilder, whose {@code project} merges the new projection into a projection below it, except where
     * that would compute a volatile column of the lower one again: then the new one is built over it.
     */
    private static final class Builder extends RelBuilder {
        private final Context context;
        private final RelOptSchema schema;
        private final RelBuilder.Config config;

        Builder(Context context, RelOptCluster cluster, RelOptSchema schema) {
            super(context, cluster, schema);
            this.context = context;
            this.schema = schema;
            this.config = context.maybeUnwrap(RelBuilder.Config.class).orElse(RelBuilder.Config.DEFAULT);
        }

        @Override
        public RelBuilder project(Iterable<? extends RexNode> nodes, Iterable<? extends String> fieldNames,
                                  boolean force, Iterable<CorrelationId> variablesSet) {
            List<RexNode> exprs = ImmutableList.copyOf(nodes);
            if (size() > 0 && !mergeable(exprs, peek())) {
                // a builder that never merges (a negative bloat), for this projection only
                RelBuilder apart = RelBuilder.proto(Contexts.of(config.withBloat(-1), context))
                        .create(getCluster(), schema);
                apart.push(build()).project(exprs, fieldNames, force, variablesSet);
                return push(apart.build());
            }
            return super.project(exprs, fieldNames, force, variablesSet);
        }

        /**
         * Whether {@code exprs} may be merged into {@code below}, and the merged expressions into the projection below
         * that, and so on (Calcite's builder merges down a chain of projections).
         */
        private static boolean mergeable(List<RexNode> exprs, RelNode below) {
            while (below instanceof Project p) {
                if (!VolatileCalls.mergeable(exprs, p)) {
                    return false;
                }
                exprs = RelOptUtil.pushPastProject(exprs, p);
                below = p.getInput().stripped();
            }
            return true;
        }

        @Override
        public RelBuilder transform(UnaryOperator<RelBuilder.Config> transform) {
            // Calcite's transform makes a plain RelBuilder; this one stays a Builder
            return new Builder(Contexts.of(transform.apply(config), context), getCluster(), schema);
        }
    }
}
