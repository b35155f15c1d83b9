package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexUtil;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Whether a plan holds a node that one of the Hep passes could rewrite, so that a pass with nothing to match is not
 * run: a Hep pass puts every node of the plan into its graph and walks it once per rule even where no rule's operand
 * matches, which took 2 to 3% of a warm prepare for the front end's subquery pass alone. The tests are the rules' own
 * operands, so a skipped pass is one that would have fired no rule.
 */
public final class RuleTargets {

    private RuleTargets() {
    }

    /** What {@code FILTER_SUB_QUERY_TO_CORRELATE}, {@code PROJECT_...} and {@code JOIN_...} match: a subquery. */
    public static boolean holdsSubQuery(RelNode rel) {
        return any(rel, r -> r instanceof Filter f && RexUtil.SubQueryFinder.containsSubQuery(f)
                || r instanceof Project p && RexUtil.SubQueryFinder.containsSubQuery(p)
                || r instanceof Join j && RexUtil.SubQueryFinder.containsSubQuery(j));
    }

    /** What {@code PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW} matches: a logical projection with a window function. */
    public static boolean holdsWindow(RelNode rel) {
        return any(rel, r -> r instanceof LogicalProject p && p.containsOver());
    }

    /**
     * What {@code PROJECT_TO_SEMI_JOIN} and {@code JOIN_TO_SEMI_JOIN} match: a join whose right input is an
     * aggregation.
     */
    public static boolean joinsAnAggregate(RelNode rel) {
        return any(rel, r -> r instanceof Join j && j.getRight().stripped() instanceof Aggregate);
    }

    /** Whether a node of {@code rel}'s tree passes {@code test}; a node reached twice is tested once. */
    static boolean any(RelNode rel, Predicate<RelNode> test) {
        return any(rel, test, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static boolean any(RelNode rel, Predicate<RelNode> test, Set<RelNode> seen) {
        if (!seen.add(rel)) {
            return false;
        }
        if (test.test(rel)) {
            return true;
        }
        for (RelNode in : rel.getInputs()) {
            if (any(in, test, seen)) {
                return true;
            }
        }
        return false;
    }
}
