package io.tessera.optimize;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * Replaces every flattened join region ({@link MultiJoin}) of a plan by the join tree {@link JoinEnumerator} finds
 * cheapest: inner joins with the probe side left and the build side right, LEFT joins for the null-generating
 * relations, each conjunct applied at the lowest join where all its relations meet (a conjunct of one relation as
 * a filter on it, except over a null-generating relation, where it stays above the outer join), and a projection
 * that restores the region's field order.
 */
public final class JoinOrder {

    /**
     * The work (in {@link JoinCost}'s units, lookups in a cached perfect table) a plan for the JVM must save against the
     * cheapest plan that builds only over unique keys to be taken instead: a margin in work, not a factor. Flipping a
     * star join so that the fact side's few surviving rows are built and a dimension probes them saved a few thousand
     * units at SSB SF 1 (q2.3, q3.3) and ran 4-13 ms slower there, through what the cost does not yet see (the fact
     * pipeline ends in that build instead of its aggregation); the plans that save hundreds of thousands (TPC-H Q8,
     * Q10, Q18 at SF 1) ran 10-27% faster.
     */
    static final double UNIQUE_BUILD_MARGIN = 20_000;

    /**
     * The same margin as a share of the unique-key plan's cost, where that is larger: the work such a flip saves grows
     * with the data, so a margin in work alone lets it through at a larger scale (SSB q4.3 at SF 20 saved 0.04% of its
     * cost by building lineorder's surviving rows). TPC-H's plans above saved 1.8% (Q18) to 4.5% (Q8) at SF 1.
     */
    static final double UNIQUE_BUILD_FRACTION = 0.01;

    private final Estimates estimates;
    private final boolean uniqueBuilds;

    /**
     * @param uniqueBuilds whether inner joins build only over a side whose key is unique where some order allows it
     *                     (plans for the GPU, which builds no table with repeated keys yet)
     */
    public JoinOrder(Estimates estimates, boolean uniqueBuilds) {
        this.estimates = estimates;
        this.uniqueBuilds = uniqueBuilds;
    }

    /** {@code rel} with each join region ordered, inner regions first. */
    public RelNode apply(RelNode rel) {
        RelNode copy = Inputs.visited(rel, this::apply);
        return copy instanceof MultiJoin mj ? order(mj) : copy;
    }

    private RelNode order(MultiJoin mj) {
        if (mj.isFullOuterJoin()) {
            // a FULL join is flattened alone, as its two inputs and its condition: nothing to order
            RelNode full = LogicalJoin.create(mj.getInputs().get(0), mj.getInputs().get(1), List.of(),
                    mj.getJoinFilter(), java.util.Set.of(), JoinRelType.FULL);
            return mj.getPostJoinFilter() == null || mj.getPostJoinFilter().isAlwaysTrue() ? full
                    : LogicalFilter.create(full, mj.getPostJoinFilter());
        }
        JoinGraph g = new JoinGraph(mj, estimates);
        JoinEnumerator enumerator = new JoinEnumerator(g);
        JoinPlan best = uniqueBuilds ? enumerator.bestWithUniqueBuilds()
                : enumerator.bestPreferringUniqueBuilds(UNIQUE_BUILD_MARGIN, UNIQUE_BUILD_FRACTION);
        if (Boolean.getBoolean("tessera.debugJoins")) {
            StringBuilder sb = new StringBuilder("join region:");
            for (int i = 0; i < g.n; i++) {
                sb.append("\n  ").append(i).append(": ").append(Math.round(g.rows[i])).append(" rows ")
                        .append(g.inputs[i].getRowType().getFieldNames());
            }
            for (JoinGraph.Conjunct c : g.conjuncts) {
                sb.append("\n  ").append(c);
            }
            sb.append("\n  best: ").append(best).append(" cost ").append(best.cost());
            JoinPlan unique = enumerator.bestWithUniqueBuilds();
            sb.append("\n  with unique builds: ").append(unique).append(" cost ").append(unique.cost());
            System.err.println(sb);
        }
        Built tree = build(g, best, mj.getCluster().getRexBuilder());
        RexBuilder rb = mj.getCluster().getRexBuilder();
        // the region's fields in their original order
        List<RexNode> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<RelDataTypeField> out = tree.rel.getRowType().getFieldList();
        for (int f = 0; f < g.relationOfField.length; f++) {
            int local = tree.localField(g, f);
            fields.add(new RexInputRef(local, out.get(local).getType()));
            names.add(mj.getRowType().getFieldList().get(f).getName());
        }
        RelNode result = LogicalProject.create(tree.rel, List.of(), fields, names, java.util.Set.of());
        if (mj.getPostJoinFilter() != null && !mj.getPostJoinFilter().isAlwaysTrue()) {
            result = LogicalFilter.create(result, mj.getPostJoinFilter());
        }
        return result;
    }

    /** A built subtree: its relational expression and the graph's relations in its field order. */
    private record Built(RelNode rel, List<Integer> relations) {
        /** Where global field {@code f} of the graph is in this subtree's row. */
        int localField(JoinGraph g, int f) {
            int offset = 0;
            int r = g.relationOfField[f];
            for (int rel : relations) {
                if (rel == r) {
                    return offset + f - g.fieldStart[r];
                }
                offset += g.fieldStart[rel + 1] - g.fieldStart[rel];
            }
            throw new IllegalStateException("field " + f + " is not in this subtree");
        }
    }

    private Built build(JoinGraph g, JoinPlan p, RexBuilder rb) {
        if (p.isLeaf()) {
            int i = p.leaf();
            RelNode in = g.inputs[i];
            Built leaf = new Built(in, List.of(i));
            if ((g.nullGenerating & (1L << i)) == 0) {
                List<RexNode> own = new ArrayList<>();
                for (JoinGraph.Conjunct c : g.conjuncts) {
                    if (c.relations() == 1L << i) {
                        own.add(localize(g, leaf, c.condition(), in.getRowType(), rb));
                    }
                }
                if (!own.isEmpty()) {
                    return new Built(LogicalFilter.create(in, RexUtil.composeConjunction(rb, own)), leaf.relations);
                }
            }
            return leaf;
        }
        Built probe = build(g, p.probe(), rb);
        Built build = build(g, p.build(), rb);
        List<Integer> rels = new ArrayList<>(probe.relations);
        rels.addAll(build.relations);
        Built joined = new Built(null, rels);
        long set = p.set();
        List<JoinGraph.Conjunct> applied = new ArrayList<>();
        java.util.BitSet classes = new java.util.BitSet();
        for (JoinGraph.Conjunct c : g.conjuncts) {
            boolean newlyCovered = (c.relations() & ~set) == 0 && (c.relations() & ~p.probe().set()) != 0
                    && (c.relations() & ~p.build().set()) != 0;
            boolean outerOwn = p.outer() && c.relations() == p.build().set();
            if (newlyCovered && c.eqClass() >= 0) {
                // one equality per class of columns: each side's columns of the class are equal already
                if (!classes.get(c.eqClass())) {
                    classes.set(c.eqClass());
                    applied.add(g.classes.equality(g, c.eqClass(), p.probe(), p.build()));
                }
            } else if (newlyCovered || outerOwn) {
                applied.add(c);
            }
        }
        // the join condition reads both inputs as they are (before a LEFT join makes the build side nullable)
        org.apache.calcite.rel.type.RelDataType inputs = rb.getTypeFactory().builder()
                .addAll(probe.rel.getRowType().getFieldList()).addAll(build.rel.getRowType().getFieldList())
                .uniquify().build();
        RelNode rel;
        if (p.outer()) {
            RexNode on = localize(g, joined, g.outerCondition[p.build().leaf()], inputs, rb);
            rel = LogicalJoin.create(probe.rel, build.rel, List.of(), on, java.util.Set.of(), JoinRelType.LEFT);
            if (!applied.isEmpty()) {
                List<RexNode> above = new ArrayList<>();
                for (JoinGraph.Conjunct c : applied) {
                    above.add(localize(g, joined, c.condition(), rel.getRowType(), rb));
                }
                rel = LogicalFilter.create(rel, RexUtil.composeConjunction(rb, above));
            }
        } else {
            List<RexNode> on = new ArrayList<>();
            for (JoinGraph.Conjunct c : applied) {
                on.add(localize(g, joined, c.condition(), inputs, rb));
            }
            rel = LogicalJoin.create(probe.rel, build.rel, List.of(), RexUtil.composeConjunction(rb, on),
                    java.util.Set.of(), JoinRelType.INNER);
        }
        return new Built(rel, rels);
    }

    /**
     * A condition over the graph's fields, rewritten over the fields of {@code tree} whose types are {@code row}'s
     * (nullable above an outer join): calls over a field that became nullable get their type derived again.
     */
    private static RexNode localize(JoinGraph g, Built tree, RexNode condition,
                                    org.apache.calcite.rel.type.RelDataType row, RexBuilder rb) {
        return condition.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                int local = tree.localField(g, ref.getIndex());
                return new RexInputRef(local, row.getFieldList().get(local).getType());
            }

            @Override
            public RexNode visitCall(org.apache.calcite.rex.RexCall call) {
                List<RexNode> ops = visitList(call.getOperands(), new boolean[1]);
                boolean sameTypes = true;
                for (int i = 0; i < ops.size(); i++) {
                    sameTypes &= ops.get(i).getType().equals(call.getOperands().get(i).getType());
                }
                if (sameTypes) {
                    return call.clone(call.getType(), ops);
                }
                boolean nullable = ops.stream().anyMatch(o -> o.getType().isNullable());
                org.apache.calcite.rel.type.RelDataType type = call.getKind() == org.apache.calcite.sql.SqlKind.CAST
                        ? rb.getTypeFactory().createTypeWithNullability(call.getType(), nullable)
                        : rb.deriveReturnType(call.getOperator(), ops);
                return call.clone(type, ops);
            }
        });
    }
}
