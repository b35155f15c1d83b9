package io.tessera.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.logical.LogicalProject;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Calcite's decorrelator over a plan and, where it leaves a correlation in place or fails, over each input of the
 * nodes above the correlations on their own. The decorrelator gives up on a whole plan when one node above a
 * correlation has no rule of its own (a UNION, INTERSECT or EXCEPT whose branches each hold a correlated scalar
 * subquery), though every branch alone decorrelates; a node that is not a Correlate binds no correlation variable,
 * so its inputs are whole queries that can be decorrelated apart.
 */
final class PartwiseDecorrelation {

    private PartwiseDecorrelation() {
    }

    /**
     * {@code rel} decorrelated by {@code decorrelator}, whole or by parts. Where neither removes every correlation
     * the decorrelator's plan of the whole is kept (the caller refuses the correlation left, or drops one over rows
     * proved empty), and its failure is thrown where it failed.
     */
    static RelNode decorrelate(RelNode rel, UnaryOperator<RelNode> decorrelator) {
        RuntimeException failure = null;
        RelNode whole = null;
        try {
            whole = decorrelator.apply(rel);
            if (!holdsCorrelate(whole)) {
                return whole;
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        if (!(rel instanceof Correlate) && holdsCorrelate(rel)) {
            RelNode parts = byParts(rel, decorrelator);
            if (!holdsCorrelate(parts)) {
                return parts;
            }
        }
        if (whole == null) {
            throw failure;
        }
        return whole;
    }

    /** {@code rel}, no Correlate itself, with each input that holds one decorrelated on its own. */
    private static RelNode byParts(RelNode rel, UnaryOperator<RelNode> decorrelator) {
        return RecursiveUnions.withInputs(rel, input -> holdsCorrelate(input) ? part(input, decorrelator) : input);
    }

    /** An input decorrelated whole, else by parts, else as it was (its correlation is left to be refused). */
    private static RelNode part(RelNode input, UnaryOperator<RelNode> decorrelator) {
        RelNode whole = attempt(input, decorrelator);
        if (whole != null) {
            return whole;
        }
        if (!(input instanceof Correlate c)) {
            return byParts(input, decorrelator);
        }
        // a Correlate over rows that are themselves correlated (two correlated subqueries of one SELECT list, one
        // the decorrelator cannot take with the other): its left input binds none of its variables, so it is
        // decorrelated on its own first, then the Correlate again over it
        RelNode left = holdsCorrelate(c.getLeft()) ? part(c.getLeft(), decorrelator) : c.getLeft();
        if (left == c.getLeft()) {
            return input;
        }
        RelNode over = c.copy(c.getTraitSet(), List.of(left, c.getRight()));
        RelNode decorrelated = attempt(over, decorrelator);
        return decorrelated != null ? decorrelated : over; // else left as it is, to be refused
    }

    /** A part decorrelated whole under {@link #kept}; null where the decorrelator fails or leaves a correlation. */
    private static RelNode attempt(RelNode part, UnaryOperator<RelNode> decorrelator) {
        try {
            RelNode whole = decorrelator.apply(kept(part));
            return holdsCorrelate(whole) ? null : whole;
        } catch (RuntimeException e) {
            return null; // tried otherwise by the caller
        }
    }

    /**
     * {@code rel} under a projection of its own columns: the decorrelator passes the columns a correlation adds up
     * through a Sort or a Filter at the top of what it is given, which would change the part's row type.
     */
    private static RelNode kept(RelNode rel) {
        return LogicalProject.create(rel, List.of(),
                rel.getCluster().getRexBuilder().identityProjects(rel.getRowType()), rel.getRowType());
    }

    static boolean holdsCorrelate(RelNode rel) {
        return RuleTargets.any(rel, Correlate.class::isInstance);
    }
}
