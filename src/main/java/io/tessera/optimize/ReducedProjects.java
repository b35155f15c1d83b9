package io.tessera.optimize;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.ReduceExpressionsRule;
import org.apache.calcite.rex.RexNode;


/**
 * Calcite's {@code PROJECT_REDUCE_EXPRESSIONS}, remembering the projections in which it found nothing to reduce, as
 * {@link ReducedFilters} does for filters: the optimizer's first Hep pass fires it on every projection again after
 * each change anywhere in the plan, and every prepare of a query on the same projections; in TPC-H's queries it
 * changed none of them, and simplifying their expressions again took about 1% of a warm prepare.
 *
 * <p>The key is the projection's expressions, each call and literal written with its type and every operator with its
 * class, and what {@link ReducedFilters#context} writes: the input's row type, the predicates known of it, the
 * session's time zone, the executor and the projection's class.
 */
final class ReducedProjects extends ReduceExpressionsRule.ProjectReduceExpressionsRule {

    static final ReducedProjects RULE = new ReducedProjects();

    private static final UnchangedCalls UNCHANGED = new UnchangedCalls();

    private ReducedProjects() {
        super(CoreRules.PROJECT_REDUCE_EXPRESSIONS.config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Project project = call.rel(0);
        if (LambdaExpressions.in(project.getProjects())) {
            return;
        }
        String key = key(project, call.getMetadataQuery().getPulledUpPredicates(project.getInput()));
        UNCHANGED.fire(call, key, super::onMatch);
    }

    /** The key of the rule's outcome; null where an expression holds a subquery or a window (not written). */
    private static String key(Project project, RelOptPredicateList predicates) {
        StringBuilder sb = new StringBuilder(256);
        for (RexNode e : project.getProjects()) {
            if (!ReducedFilters.write(sb, e)) {
                return null;
            }
            sb.append('\n');
        }
        return ReducedFilters.context(sb, project, predicates) ? sb.toString() : null;
    }
}
