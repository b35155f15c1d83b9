package io.tessera.optimize;

import io.tessera.sql.SqlFrontEnd;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexSubQuery;


/**
 * Calcite's {@code FILTER_REDUCE_EXPRESSIONS}, remembering the filters in which it found nothing to reduce. The
 * optimizer's Hep passes fire it on every filter again after each change anywhere in the plan, the pass after join
 * order fires it once more, and every prepare of a query fires it on the same filters; in TPC-H's queries those
 * calls changed nothing, and simplifying their conditions again took 0.2 to 1.4 ms of each prepare (Q22's most).
 *
 * <p>What the rule does with a filter follows from the filter's condition, its input's row type (nullability
 * included), the predicates known of its input, the executor and the session's time zone (which the cluster's
 * {@code RexBuilder} casts in): those make the key, every call and literal written with its type and every operator
 * with its class, so that two conditions that print alike but differ in a type never share an answer.
 */
final class ReducedFilters extends ReduceExpressionsRule.FilterReduceExpressionsRule {

    static final ReducedFilters RULE = new ReducedFilters();

    private static final UnchangedCalls UNCHANGED = new UnchangedCalls();

    private ReducedFilters() {
        super(CoreRules.FILTER_REDUCE_EXPRESSIONS.config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        if (LambdaExpressions.in(filter.getCondition())) {
            return;
        }
        String key = key(filter, call.getMetadataQuery().getPulledUpPredicates(filter.getInput()));
        UNCHANGED.fire(call, key, super::onMatch);
    }

    /** The key of the rule's outcome; null where an expression holds a subquery or a window (not written). */
    private static String key(Filter filter, RelOptPredicateList predicates) {
        StringBuilder sb = new StringBuilder(256);
        if (!write(sb, filter.getCondition())) {
            return null;
        }
        return context(sb, filter, predicates) ? sb.append(filter.getVariablesSet()).toString() : null;
    }

    /**
     * Appends what a reduction's outcome depends on besides the expressions: {@code rel}'s input row type, the
     * predicates known of it, the session's time zone, the executor and {@code rel}'s class; false: a predicate
     * cannot be written.
     */
    static boolean context(StringBuilder sb, RelNode rel, RelOptPredicateList predicates) {
        RelOptCluster cluster = rel.getCluster();
        RexExecutor executor = cluster.getPlanner().getExecutor();
        sb.append("\nover ").append(rel.getInput(0).getRowType().getFullTypeString())
                .append("\nknown");
        for (RexNode p : predicates.pulledUpPredicates) {
            sb.append(' ');
            if (!write(sb, p)) {
                return false;
            }
        }
        sb.append("\nzone ").append(SqlFrontEnd.timeZone(cluster))
                .append("\nexecutor ").append(executor == null ? "none" : executor.getClass().getName())
                .append("\nrel ").append(rel.getClass().getName());
        return true;
    }

    /** Writes {@code e} with each call's operator class and type, and each leaf's type; false: it cannot. */
    static boolean write(StringBuilder sb, RexNode e) {
        if (e instanceof RexSubQuery || e instanceof RexOver) {
            return false;
        }
        if (e instanceof RexCall call) {
            sb.append(call.getOperator().getName()).append('#').append(call.getOperator().getClass().getName())
                    .append(':').append(call.getType().getFullTypeString()).append('(');
            for (int i = 0; i < call.getOperands().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                if (!write(sb, call.getOperands().get(i))) {
                    return false;
                }
            }
            sb.append(')');
        } else {
            sb.append(e).append(':').append(e.getType().getFullTypeString());
        }
        return true;
    }
}
