package io.tessera.optimize;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Computes a decorrelated subquery's aggregate only for the keys the outer query can use (semi-join reduction, the
 * idea of magic sets). A join on the group keys of an aggregation keeps only the groups whose key the other side
 * has; when some relation of the other side holds far fewer of those key values than the aggregation's input (Q17:
 * the average quantity per part, wanted for the 2,000 parts of one brand and container out of 2 million; Q2, Q20
 * likewise), the relation of the aggregation's input that the key comes from is first semi-joined with that
 * relation: groups whose key cannot match are never formed. A group's rows share its key, so each group is kept or
 * dropped whole, and the answer stays the same.
 */
final class SemiJoinReduction {

    /** Reduce only when the reducing relation has at most this fraction of the aggregation's key values. */
    static final double WORTH = 0.5;

    private final Estimates estimates;
    private final RexBuilder rb;

    private SemiJoinReduction(Estimates estimates, RexBuilder rb) {
        this.estimates = estimates;
        this.rb = rb;
    }

    static RelNode apply(RelNode rel, Estimates estimates) {
        return new SemiJoinReduction(estimates, rel.getCluster().getRexBuilder()).visit(rel);
    }

    private RelNode visit(RelNode rel) {
        RelNode copy = Inputs.visited(rel, this::visit);
        if (copy instanceof Join j) {
            RelNode reduced = reduce(j, false);
            if (reduced == j && j.getJoinType() == JoinRelType.INNER) {
                reduced = reduce(j, true);
            }
            return reduced;
        }
        return copy;
    }

    /** A field's origin: a relation without joins under a chain of filters and projections, and its field there. */
    private record Origin(RelNode leaf, int field) {
    }

    /**
     * {@code j} with its aggregation side reduced; {@code aggregateLeft}: the aggregation is the left input (an inner
     * join only), else the right one.
     */
    private RelNode reduce(Join j, boolean aggregateLeft) {
        JoinRelType t = j.getJoinType();
        if (t != JoinRelType.INNER && t != JoinRelType.LEFT && t != JoinRelType.SEMI && t != JoinRelType.ANTI) {
            return j;
        }
        RelNode aggSide = aggregateLeft ? j.getLeft() : j.getRight();
        RelNode outer = aggregateLeft ? j.getRight() : j.getLeft();
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        List<Boolean> filterNulls = new ArrayList<>();
        RelOptUtil.splitJoinCondition(j.getLeft(), j.getRight(), j.getCondition(), leftKeys, rightKeys, filterNulls,
                new ArrayList<>());
        List<Integer> aggKeys = aggregateLeft ? leftKeys : rightKeys;
        List<Integer> outerKeys = aggregateLeft ? rightKeys : leftKeys;
        Aggregate agg = aggregateUnder(aggSide);
        if (agg == null || agg.getGroupSet().isEmpty() || agg.getGroupSets().size() > 1) {
            return j;
        }
        double bestRatio = WORTH;
        Origin bestReducer = null;
        Origin bestTarget = null;
        int bestKey = -1;
        for (int k = 0; k < aggKeys.size(); k++) {
            if (!filterNulls.get(k)) {
                // IS NOT DISTINCT FROM: a NULL group key matches a NULL outer key, which the semi join would drop
                continue;
            }
            int groupKey = groupKeyOf(aggSide, agg, aggKeys.get(k));
            if (groupKey < 0) {
                continue;
            }
            Origin target = origin(agg.getInput(), agg.getGroupSet().nth(groupKey));
            if (target == null) {
                continue;
            }
            double aggValues = estimates.column(target.leaf, target.field).distinct();
            for (Origin r : candidates(outer, outerKeys.get(k))) {
                double ratio = estimates.column(r.leaf, r.field).distinct() / aggValues;
                if (ratio < bestRatio && r.leaf != target.leaf) {
                    bestRatio = ratio;
                    bestReducer = r;
                    bestTarget = target;
                    bestKey = groupKey;
                }
            }
        }
        if (bestReducer == null) {
            return j;
        }
        Origin target = bestTarget;
        Origin reducer = bestReducer;
        RelNode newAggSide = alongGroupKey(aggSide, agg, bestKey, leaf -> semiJoin(leaf, target.field, reducer));
        List<RelNode> ins = aggregateLeft ? List.of(newAggSide, j.getRight()) : List.of(j.getLeft(), newAggSide);
        return j.copy(j.getTraitSet(), ins);
    }

    /** {@code leaf}'s rows whose field {@code field} equals field {@code reducer.field} of some row of the reducer. */
    private RelNode semiJoin(RelNode leaf, int field, Origin reducer) {
        int nLeaf = leaf.getRowType().getFieldCount();
        RexNode on = rb.makeCall(org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
                new RexInputRef(field, leaf.getRowType().getFieldList().get(field).getType()),
                new RexInputRef(nLeaf + reducer.field,
                        reducer.leaf.getRowType().getFieldList().get(reducer.field).getType()));
        return LogicalJoin.create(leaf, reducer.leaf, List.of(), on, java.util.Set.of(), JoinRelType.SEMI);
    }

    /**
     * {@code rel} (the aggregation {@code agg} under projections and filters) with the relation that group key
     * {@code groupKey} comes from ({@link #origin}) replaced by {@code reduce}'s result, and only the nodes on the way
     * to it copied. Only that occurrence changes: the same relation may occur elsewhere in the aggregation's input
     * (a self join, whose scans Calcite shares as one node), where its rows are not tied to the group key.
     */
    private static RelNode alongGroupKey(RelNode rel, Aggregate agg, int groupKey, UnaryOperator<RelNode> reduce) {
        if (rel == agg) {
            RelNode input = alongOrigin(agg.getInput(), agg.getGroupSet().nth(groupKey), reduce);
            return agg.copy(agg.getTraitSet(), List.of(input));
        }
        return rel.copy(rel.getTraitSet(), List.of(alongGroupKey(rel.getInput(0), agg, groupKey, reduce)));
    }

    /** {@code rel} with the origin of its field {@code f} (the route {@link #origin} takes) replaced by {@code reduce}'s result. */
    private static RelNode alongOrigin(RelNode rel, int f, UnaryOperator<RelNode> reduce) {
        if (!containsJoin(rel)) {
            return reduce.apply(rel);
        }
        if (rel instanceof Project p) {
            int in = ((RexInputRef) p.getProjects().get(f)).getIndex();
            return p.copy(p.getTraitSet(), List.of(alongOrigin(p.getInput(), in, reduce)));
        }
        if (rel instanceof Filter fl) {
            return fl.copy(fl.getTraitSet(), List.of(alongOrigin(fl.getInput(), f, reduce)));
        }
        Join j = (Join) rel;
        int nLeft = j.getLeft().getRowType().getFieldCount();
        return f < nLeft
                ? j.copy(j.getTraitSet(), List.of(alongOrigin(j.getLeft(), f, reduce), j.getRight()))
                : j.copy(j.getTraitSet(), List.of(j.getLeft(), alongOrigin(j.getRight(), f - nLeft, reduce)));
    }

    /** The aggregation under filters and projections of {@code rel}, or null. */
    private static Aggregate aggregateUnder(RelNode rel) {
        while (rel instanceof Project || rel instanceof Filter) {
            rel = rel.getInput(0);
        }
        return rel instanceof Aggregate a ? a : null;
    }

    /** Which group key (its position in the group set) field {@code f} of {@code rel} is, or -1. */
    private static int groupKeyOf(RelNode rel, Aggregate agg, int f) {
        while (rel != agg) {
            if (rel instanceof Project p) {
                if (!(p.getProjects().get(f) instanceof RexInputRef r)) {
                    return -1;
                }
                f = r.getIndex();
            }
            rel = rel.getInput(0);
        }
        return f < agg.getGroupSet().cardinality() ? f : -1;
    }

    /** Where field {@code f} of {@code rel} comes from unchanged, through projections, filters and inner joins. */
    private static Origin origin(RelNode rel, int f) {
        while (true) {
            if (!containsJoin(rel)) {
                return new Origin(rel, f);
            }
            if (rel instanceof Project p) {
                if (!(p.getProjects().get(f) instanceof RexInputRef r)) {
                    return null;
                }
                f = r.getIndex();
                rel = p.getInput();
            } else if (rel instanceof Filter fl) {
                rel = fl.getInput();
            } else if (rel instanceof Join j && (j.getJoinType() == JoinRelType.INNER
                    || j.getJoinType() == JoinRelType.SEMI || j.getJoinType() == JoinRelType.ANTI)) {
                int nLeft = j.getLeft().getRowType().getFieldCount();
                if (f < nLeft) {
                    rel = j.getLeft();
                } else {
                    f -= nLeft;
                    rel = j.getRight();
                }
            } else {
                return null;
            }
        }
    }

    private static boolean containsJoin(RelNode rel) {
        if (rel instanceof Join) {
            return true;
        }
        for (RelNode in : rel.getInputs()) {
            if (containsJoin(in)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The relations without joins inside {@code rel} that hold every value field {@code f} takes in {@code rel}'s rows:
     * its own origin and, through the equalities of inner and semi joins on the way, the origins of the fields it is
     * equal to.
     */
    private static List<Origin> candidates(RelNode rel, int f) {
        List<Origin> out = new ArrayList<>();
        collect(rel, f, out, 0);
        return out;
    }

    private static void collect(RelNode rel, int f, List<Origin> out, int depth) {
        if (depth > 16) {
            return;
        }
        if (!containsJoin(rel)) {
            out.add(new Origin(rel, f));
        } else if (rel instanceof Project p) {
            if (p.getProjects().get(f) instanceof RexInputRef r) {
                collect(p.getInput(), r.getIndex(), out, depth + 1);
            }
        } else if (rel instanceof Filter fl) {
            collect(fl.getInput(), f, out, depth + 1);
        } else if (rel instanceof Join j && (j.getJoinType() == JoinRelType.INNER || j.getJoinType() == JoinRelType.SEMI)) {
            int nLeft = j.getLeft().getRowType().getFieldCount();
            JoinInfo info = j.analyzeCondition();
            if (f < nLeft) {
                collect(j.getLeft(), f, out, depth + 1);
                int k = info.leftKeys.indexOf(f);
                if (k >= 0) {
                    collect(j.getRight(), info.rightKeys.get(k), out, depth + 1);
                }
            } else {
                collect(j.getRight(), f - nLeft, out, depth + 1);
                int k = info.rightKeys.indexOf(f - nLeft);
                if (k >= 0) {
                    collect(j.getLeft(), info.leftKeys.get(k), out, depth + 1);
                }
            }
        }
    }
}
