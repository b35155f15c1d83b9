package io.tessera.optimize;

import java.util.BitSet;
import java.util.function.Supplier;

/**
 * A join tree the enumerator considers: a relation of the graph ({@code leaf} >= 0), or a join whose {@code probe}
 * side streams through a hash table built over its {@code build} side. {@code outer}: the build side is a
 * null-generating relation joined by its outer condition. {@link #distinct}: per field of the graph, the estimated
 * distinct values of that field in this tree's rows (only the fields of its relations are meaningful).
 * {@link #unique}: the fields of the graph known to hold no value twice in this tree's rows. {@link #domain}: per
 * field, how many values its distinct ones were drawn from ({@link ColumnEstimate#domain}), which a join on it reads.
 *
 * <p>A join's per-field estimates are worked out when first read, as an input of a larger join: the enumerator costs
 * many more joins than it keeps, and their cost and rows do not need them.
 */
final class JoinPlan {

    /** The per-field estimates of a tree. */
    record Fields(double[] distinct, BitSet unique, double[] domain) {
    }

    private final long set;
    private final int leaf;
    private final JoinPlan probe;
    private final JoinPlan build;
    private final boolean outer;
    private final double rows;
    private final double cost;
    private Supplier<Fields> pending; // null once worked out
    private Fields fields;

    JoinPlan(long set, int leaf, JoinPlan probe, JoinPlan build, boolean outer, double rows, double cost,
             double[] distinct, BitSet unique, double[] domain) {
        this(set, leaf, probe, build, outer, rows, cost, () -> new Fields(distinct, unique, domain));
    }

    /** A tree whose per-field estimates {@code fields} works out when they are first read. */
    JoinPlan(long set, int leaf, JoinPlan probe, JoinPlan build, boolean outer, double rows, double cost,
             Supplier<Fields> fields) {
        this.set = set;
        this.leaf = leaf;
        this.probe = probe;
        this.build = build;
        this.outer = outer;
        this.rows = rows;
        this.cost = cost;
        this.pending = fields;
    }

    long set() {
        return set;
    }

    int leaf() {
        return leaf;
    }

    JoinPlan probe() {
        return probe;
    }

    JoinPlan build() {
        return build;
    }

    boolean outer() {
        return outer;
    }

    double rows() {
        return rows;
    }

    double cost() {
        return cost;
    }

    double[] distinct() {
        return fields().distinct();
    }

    BitSet unique() {
        return fields().unique();
    }

    double[] domain() {
        return fields().domain();
    }

    private Fields fields() {
        if (pending != null) {
            fields = pending.get();
            pending = null;
        }
        return fields;
    }

    boolean isLeaf() {
        return leaf >= 0;
    }

    /** The relations in field order: the probe side's, then the build side's. */
    void relationsInOrder(java.util.List<Integer> out) {
        if (isLeaf()) {
            out.add(leaf);
        } else {
            probe.relationsInOrder(out);
            build.relationsInOrder(out);
        }
    }

    /** A nested description for tests and debugging: {@code (probe ⋈ build)}, relations by index. */
    @Override
    public String toString() {
        return isLeaf() ? Integer.toString(leaf) : "(" + probe + (outer ? " ⟕ " : " ⋈ ") + build + ")";
    }
}
