package io.tessera.optimize;

/**
 * A join tree the enumerator considers: a relation of the graph ({@code leaf} >= 0), or a join whose {@code probe}
 * side streams through a hash table built over its {@code build} side. {@code outer}: the build side is a
 * null-generating relation joined by its outer condition. {@code distinct}: per field of the graph, the estimated
 * distinct values of that field in this tree's rows (only the fields of its relations are meaningful).
 * {@code unique}: the fields of the graph known to hold no value twice in this tree's rows. {@code domain}: per
 * field, how many values its distinct ones were drawn from ({@link ColumnEstimate#domain}), which a join on it reads.
 */
record JoinPlan(long set, int leaf, JoinPlan probe, JoinPlan build, boolean outer, double rows, double cost,
                double[] distinct, java.util.BitSet unique, double[] domain) {

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
