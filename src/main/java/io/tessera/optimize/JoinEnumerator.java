package io.tessera.optimize;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses the join order of a {@link JoinGraph} by cost. Up to {@link #DP_LIMIT} relations per connected
 * component, dynamic programming over every connected pair of disjoint connected subsets (the csg-cmp pairs of
 * DPccp, here enumerated subset by subset), keeping the cheapest tree per subset, bushy trees included; beyond that,
 * greedy operator ordering (repeatedly the cheapest join of two trees). Components without a condition between
 * them are crossed last, smallest first. Every join builds its hash table over the side that makes it cheaper
 * (the physical planner builds the right side the tree names), except that a null-generating relation of an outer
 * join is always built, and joins only once every relation its condition reads is on the other side.
 *
 * <p>The cost is the work the pipelined executor does ({@link JoinCost}): building each table (per row, and per slot
 * of its index) and probing it (per probe row, and per match), by the table's layout, whether its key repeats, and
 * the memory it takes; a join without an equality key compares every pair (a nested loop).
 */
final class JoinEnumerator {

    /** Relations up to which a component is ordered by dynamic programming. */
    static final int DP_LIMIT = 12;

    private final JoinGraph g;
    private final List<JoinGraph.Conjunct>[] outerConjuncts;
    /** Whether an inner join may build only over a side whose key holds each value once. */
    private boolean uniqueBuilds;
    private final JoinPlan[] leaves;

    @SuppressWarnings("unchecked")
    JoinEnumerator(JoinGraph g) {
        this.g = g;
        outerConjuncts = new List[g.n];
        leaves = new JoinPlan[g.n];
        for (int i = 0; i < g.n; i++) {
            outerConjuncts[i] = g.outerCondition[i] == null ? List.of() : g.conjunctsOf(g.outerCondition[i]);
        }
    }

    /**
     * The cheapest tree whose inner joins each build over a side with a key that holds each value once (what the
     * GPU backend builds today), or where no order has that, the cheapest tree.
     */
    JoinPlan bestWithUniqueBuilds() {
        JoinPlan p = cheapestWithUniqueBuilds();
        return p != null ? p : best();
    }

    /**
     * The cheapest tree, or the cheapest with unique-key builds where that costs at most {@code margin} more, or at
     * most the share {@code fraction} of its own cost more where that is larger: a table over a unique key cannot hold
     * more rows than its keys whatever the estimates missed, and the GPU can run it.
     */
    JoinPlan bestPreferringUniqueBuilds(double margin, double fraction) {
        JoinPlan any = best();
        JoinPlan unique = cheapestWithUniqueBuilds();
        return unique != null && unique.cost() <= any.cost() + Math.max(margin, fraction * unique.cost()) ? unique : any;
    }

    private JoinPlan cheapestWithUniqueBuilds() {
        uniqueBuilds = true;
        try {
            JoinPlan p = best();
            return p != null && allBuildsUnique(p) ? p : null;
        } finally {
            uniqueBuilds = false;
        }
    }

    private boolean allBuildsUnique(JoinPlan p) {
        if (p.isLeaf()) {
            return true;
        }
        return (p.outer() || buildKeyUnique(p.probe(), p.build())) && allBuildsUnique(p.probe())
                && allBuildsUnique(p.build());
    }

    /** The cheapest tree joining every relation of the graph. */
    JoinPlan best() {
        List<Long> components = components();
        List<JoinPlan> plans = new ArrayList<>();
        for (long c : components) {
            plans.add(Long.bitCount(c) <= DP_LIMIT ? dynamic(c) : greedy(c));
        }
        if (plans.contains(null)) {
            return null;
        }
        plans.sort((a, b) -> Double.compare(a.rows(), b.rows()));
        JoinPlan acc = plans.get(0);
        for (int i = 1; i < plans.size() && acc != null; i++) {
            acc = join(acc, plans.get(i));
        }
        return acc;
    }

    // ---- leaves and single joins ----

    /** Relation {@code i} alone, its filters applied; made once and shared by both enumerations. */
    JoinPlan leaf(int i) {
        if (leaves[i] == null) {
            leaves[i] = newLeaf(i);
        }
        return leaves[i];
    }

    private JoinPlan newLeaf(int i) {
        double rows = g.rows[i];
        if ((g.nullGenerating & (1L << i)) == 0) {
            for (JoinGraph.Conjunct c : g.conjuncts) {
                if (c.relations() == 1L << i) {
                    rows *= c.selectivity();
                }
            }
        }
        rows = Math.max(1, rows);
        double[] d = new double[g.columns.size()];
        double[] domain = new double[g.columns.size()];
        java.util.BitSet unique = new java.util.BitSet();
        for (int f = g.fieldStart[i]; f < g.fieldStart[i + 1]; f++) {
            d[f] = Math.min(Math.min(g.columns.get(f).distinct(), g.classes.distinctBound(f)), rows);
            // a class's value predicate narrows the values; fewer rows only thin them
            domain[f] = Math.max(d[f], Math.min(g.columns.get(f).domain(), g.classes.distinctBound(f)));
            // only an equi-key's uniqueness is read (buildKeyUnique): Calcite's answer for a filtered relation
            // infers its predicates, which cost more than the rest of the enumeration
            if (g.isKeyField(f) && g.unique(f)) {
                unique.set(f);
            }
        }
        return new JoinPlan(1L << i, i, null, null, false, rows, 0, d, unique, domain);
    }

    /** Whether two disjoint trees may be joined directly, and whether that join is an outer one. */
    private int joinable(JoinPlan a, JoinPlan b) {
        boolean aOuter = a.isLeaf() && (g.nullGenerating & a.set()) != 0;
        boolean bOuter = b.isLeaf() && (g.nullGenerating & b.set()) != 0;
        if (bOuter && !aOuter) {
            return (g.outerRequires[b.leaf()] & ~a.set()) == 0 ? 2 : 0;
        }
        if (aOuter && !bOuter) {
            return (g.outerRequires[a.leaf()] & ~b.set()) == 0 ? 3 : 0;
        }
        if (aOuter) {
            return 0;
        }
        return g.connected(a.set(), b.set()) ? 1 : 0;
    }

    /**
     * The join of two disjoint trees, built over the side that makes it cheaper (the null-generating side of an outer
     * join; with {@link #uniqueBuilds}, a side whose key is unique where only one is); null where no orientation is
     * allowed.
     */
    JoinPlan join(JoinPlan a, JoinPlan b) {
        int kind = joinable(a, b);
        if (kind == 3) {
            return join(b, a);
        }
        // the conjuncts between the two sides, the same whichever side builds: found once for every use below
        List<JoinGraph.Conjunct> between = between(a, b);
        if (kind == 2) {
            return join(a, b, true, between);
        }
        boolean buildB = !uniqueBuilds || buildKeyUnique(a, b, between);
        boolean buildA = !uniqueBuilds || buildKeyUnique(b, a, between);
        if (!buildA || !buildB) {
            return buildB ? join(a, b, false, between) : buildA ? join(b, a, false, between) : null;
        }
        // either side may build: the cheaper join, the smaller side built where they cost the same
        JoinPlan ab = join(a, b, false, between);
        JoinPlan ba = join(b, a, false, between);
        return ab.cost() < ba.cost() || ab.cost() == ba.cost() && a.rows() >= b.rows() ? ab : ba;
    }

    /**
     * The join that probes a table over {@code build} with {@code probe}'s rows; {@code between}: the conjuncts
     * {@link #between} the two.
     */
    private JoinPlan join(JoinPlan probe, JoinPlan build, boolean outer, List<JoinGraph.Conjunct> between) {
        long set = probe.set() | build.set();
        List<Double> keySels = new ArrayList<>();
        List<int[]> keys = new ArrayList<>();
        double filters = 1;
        double keysNonNull = 1;
        java.util.BitSet probeKeys = new java.util.BitSet();
        java.util.BitSet buildKeys = new java.util.BitSet();
        java.util.BitSet classes = new java.util.BitSet();
        for (JoinGraph.Conjunct c : connecting(probe, build, outer, between)) {
            double da = 0;
            double db = 0;
            double domA = 0;
            double domB = 0;
            if (c.isKey() && crosses(c, probe.set(), build.set()) && c.eqClass() >= 0) {
                // a class's columns are equal on each side already: one of its equalities counts, once, with each
                // side's fewest distinct values among them
                int cls = c.eqClass();
                if (classes.get(cls)) {
                    continue;
                }
                classes.set(cls);
                c = g.classes.equality(g, cls, probe, build);
                boolean aProbes = (probe.set() & (1L << g.relationOfField[c.keyA()])) != 0;
                da = g.classes.distinct(g, cls, aProbes ? probe : build);
                db = g.classes.distinct(g, cls, aProbes ? build : probe);
                domA = classDomain(cls, aProbes ? probe : build);
                domB = classDomain(cls, aProbes ? build : probe);
            } else if (c.isKey()) {
                da = side(probe, build, c.keyA()).distinct()[c.keyA()];
                db = side(probe, build, c.keyB()).distinct()[c.keyB()];
                domA = side(probe, build, c.keyA()).domain()[c.keyA()];
                domB = side(probe, build, c.keyB()).domain()[c.keyB()];
            }
            if (c.isKey() && crosses(c, probe.set(), build.set())) {
                double nonNull = (1 - g.columns.get(c.keyA()).nullFraction()) * (1 - g.columns.get(c.keyB()).nullFraction());
                keysNonNull *= nonNull;
                keySels.add(nonNull / JoinSelectivity.matched(da, domA, db, domB));
                keys.add(new int[] {c.keyA(), c.keyB()});
                boolean aProbes = (probe.set() & (1L << g.relationOfField[c.keyA()])) != 0;
                probeKeys.set(aProbes ? c.keyA() : c.keyB());
                buildKeys.set(aProbes ? c.keyB() : c.keyA());
            } else {
                filters *= c.selectivity();
            }
        }
        double keySel = JoinSelectivity.combined(keySels, product(probe.distinct(), probeKeys), probe.rows(),
                product(build.distinct(), buildKeys), build.rows(), keysNonNull);
        double inner = Math.max(1, probe.rows() * build.rows() * keySel * filters);
        double rows = outer ? Math.max(inner, probe.rows()) : inner;
        double matches = keys.isEmpty() ? probe.rows() * build.rows() : Math.max(1, probe.rows() * build.rows() * keySel);
        double work = JoinCost.join(table(probe, build, outer, keys, between), probe.rows(), matches)
                + (keys.isEmpty() ? probe.rows() * build.rows() : 0);
        return new JoinPlan(set, -1, probe, build, outer, rows, probe.cost() + build.cost() + work,
                () -> fields(probe, build, outer, between, keys, classes, inner));
    }

    /** The side of two trees that holds field {@code f}'s relation: the probe side, else the build side. */
    private JoinPlan side(JoinPlan probe, JoinPlan build, int f) {
        return (probe.set() & (1L << g.relationOfField[f])) != 0 ? probe : build;
    }

    /**
     * The per-field estimates of the join of these sides, which {@code inner} rows leave (before an outer join keeps
     * the probe side's others), on these equi-keys (two fields each) and equality classes.
     */
    private JoinPlan.Fields fields(JoinPlan probe, JoinPlan build, boolean outer, List<JoinGraph.Conjunct> between,
                                   List<int[]> keys, java.util.BitSet classes, double inner) {
        long set = probe.set() | build.set();
        double[] d = new double[g.columns.size()];
        double[] domain = new double[g.columns.size()];
        for (int f = 0; f < d.length; f++) {
            JoinPlan side = side(probe, build, f);
            d[f] = side.distinct()[f];
            domain[f] = side.domain()[f];
        }
        for (int f = 0; f < d.length; f++) {
            if ((set & (1L << g.relationOfField[f])) != 0) {
                double before = (probe.set() & (1L << g.relationOfField[f])) != 0 ? probe.rows() : build.rows();
                d[f] = Estimates.distinctAfter(d[f], before, inner);
            }
        }
        for (int[] k : keys) {
            double m = Math.min(d[k[0]], d[k[1]]);
            d[k[0]] = m;
            d[k[1]] = m;
            domain[k[0]] = m;
            domain[k[1]] = m;
        }
        for (int cls = classes.nextSetBit(0); cls >= 0; cls = classes.nextSetBit(cls + 1)) {
            double m = Double.POSITIVE_INFINITY;
            for (int f : g.classes.members(cls)) {
                if ((set & (1L << g.relationOfField[f])) != 0) {
                    m = Math.min(m, d[f]);
                }
            }
            for (int f : g.classes.members(cls)) {
                if ((set & (1L << g.relationOfField[f])) != 0) {
                    d[f] = m;
                    domain[f] = m;
                }
            }
        }
        // a row of one side meets at most one of the other where the other's key is unique: its keys stay unique
        java.util.BitSet unique = new java.util.BitSet();
        if (!outer && buildKeyUnique(probe, build, between)) {
            unique.or(probe.unique());
        }
        if (!outer && buildKeyUnique(build, probe, between)) {
            unique.or(build.unique());
        }
        return new JoinPlan.Fields(d, unique, domain);
    }

    /** The narrowest domain among class {@code cls}'s columns in {@code plan} (all equal in its rows). */
    private double classDomain(int cls, JoinPlan plan) {
        double m = Double.POSITIVE_INFINITY;
        for (int f : g.classes.members(cls)) {
            if ((plan.set() & (1L << g.relationOfField[f])) != 0) {
                m = Math.min(m, plan.domain()[f]);
            }
        }
        return m;
    }

    /** The product of {@code d}'s distinct counts of these fields. */
    private static double product(double[] d, java.util.BitSet fields) {
        double p = 1;
        for (int f = fields.nextSetBit(0); f >= 0; f = fields.nextSetBit(f + 1)) {
            p *= Math.max(1, d[f]);
        }
        return p;
    }

    /**
     * The conjuncts a join of these sides applies (in the graph's order): those it is the first to have every relation
     * of ({@code between}, which {@link #between} gives), after an outer join's own condition and before the
     * null-generating side's own filters.
     */
    private List<JoinGraph.Conjunct> connecting(JoinPlan probe, JoinPlan build, boolean outer,
                                                List<JoinGraph.Conjunct> between) {
        if (!outer) {
            return between;
        }
        List<JoinGraph.Conjunct> out = new ArrayList<>(outerConjuncts[build.leaf()]);
        out.addAll(between);
        // a null-generating relation's own filters apply above its outer join
        for (JoinGraph.Conjunct c : g.conjuncts) {
            if (c.relations() == build.set()) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * The conjuncts whose relations two disjoint sides hold together but neither alone, in the graph's order: what an
     * inner join of them applies, whichever side builds.
     */
    private List<JoinGraph.Conjunct> between(JoinPlan a, JoinPlan b) {
        long set = a.set() | b.set();
        List<JoinGraph.Conjunct> out = new ArrayList<>();
        for (JoinGraph.Conjunct c : g.conjuncts) {
            if ((c.relations() & ~set) == 0 && (c.relations() & ~a.set()) != 0 && (c.relations() & ~b.set()) != 0) {
                out.add(c);
            }
        }
        return out;
    }

    /** Whether some equi-key joining these sides is unique on {@code build}'s side. */
    private boolean buildKeyUnique(JoinPlan probe, JoinPlan build) {
        return buildKeyUnique(probe, build, between(probe, build));
    }

    private boolean buildKeyUnique(JoinPlan probe, JoinPlan build, List<JoinGraph.Conjunct> between) {
        return uniqueBuildKey(probe, build, between) != null;
    }

    /**
     * The first equi-key among {@code between} (the conjuncts between these sides) that is unique on {@code build}'s
     * side, as {probe field, build field}.
     */
    private int[] uniqueBuildKey(JoinPlan probe, JoinPlan build, List<JoinGraph.Conjunct> between) {
        for (JoinGraph.Conjunct c : between) {
            if (c.isKey() && crosses(c, probe.set(), build.set())) {
                int[] k = oriented(new int[] {c.keyA(), c.keyB()}, build);
                if (build.unique().get(k[1])) {
                    return k;
                }
            }
        }
        return null;
    }

    /** The field of equi-key {@code k} (two fields) on {@code build}'s side. */
    private int buildField(int[] k, JoinPlan build) {
        return (build.set() & (1L << g.relationOfField[k[0]])) != 0 ? k[0] : k[1];
    }

    /** Whether an equi-key conjunct has one field on each side. */
    private boolean crosses(JoinGraph.Conjunct c, long probe, long build) {
        long a = 1L << g.relationOfField[c.keyA()];
        long b = 1L << g.relationOfField[c.keyB()];
        return (a & probe) != 0 && (b & build) != 0 || (a & build) != 0 && (b & probe) != 0;
    }

    /**
     * The table a join of these sides builds over {@code build} with these equi-keys (two fields each): where one build
     * key is unique, over that key alone (as the physical planner hashes it), else over all of them; perfect where that
     * is one key with a short enough range, its keys ascending where the index is in key order (perfect or ranged)
     * and the side's rows come from a scan of a column that ascends.
     */
    private JoinCost.Table table(JoinPlan probe, JoinPlan build, boolean outer, List<int[]> keys,
                                 List<JoinGraph.Conjunct> between) {
        int[] key = null;
        for (int[] k : keys) {
            if (key == null && build.unique().get(buildField(k, build))) {
                key = oriented(k, build);
            }
        }
        if (key == null && !outer) {
            key = uniqueBuildKey(probe, build, between);
        }
        boolean unique = key != null;
        if (key == null && keys.size() == 1) {
            key = oriented(keys.get(0), build);
        }
        double slots = key != null ? g.perfectSlots(key[1]) : 0;
        boolean ordered = key != null && JoinCost.orderedIndex(build.rows(), slots, g.keySpan(key[1]));
        return new JoinCost.Table(build.rows(), unique, slots, key != null ? 1 : Math.max(1, keys.size()),
                ordered && ascendsWith(build, key[1]), ordered && ascendsWith(probe, key[0]));
    }

    /** Whether {@code plan}'s rows come in the ascending order of field {@code f}: a scan of a column that ascends. */
    private boolean ascendsWith(JoinPlan plan, int f) {
        JoinPlan source = plan;
        while (!source.isLeaf()) {
            source = source.probe(); // a pipeline's rows keep its source's order through its probes
        }
        return g.relationOfField[f] == source.leaf() && g.ascends(f);
    }

    /** Equi-key {@code k}'s fields as {probe side's, build side's}. */
    private int[] oriented(int[] k, JoinPlan build) {
        int b = buildField(k, build);
        return new int[] {b == k[0] ? k[1] : k[0], b};
    }

    // ---- dynamic programming and greedy ordering ----

    private JoinPlan dynamic(long component) {
        int[] rel = members(component);
        int k = rel.length;
        JoinPlan[] best = new JoinPlan[1 << k];
        for (int i = 0; i < k; i++) {
            best[1 << i] = leaf(rel[i]);
        }
        for (int s = 1; s < (1 << k); s++) {
            if (Integer.bitCount(s) < 2) {
                continue;
            }
            int low = s & -s;
            // every split into two non-empty halves, each once: the first half holds the lowest member
            for (int a = (s - 1) & s; a > 0; a = (a - 1) & s) {
                if ((a & low) == 0) {
                    continue;
                }
                int b = s ^ a;
                if (best[a] == null || best[b] == null || joinable(best[a], best[b]) == 0) {
                    continue;
                }
                JoinPlan p = join(best[a], best[b]);
                if (p != null && (best[s] == null || p.cost() < best[s].cost())) {
                    best[s] = p;
                }
            }
        }
        JoinPlan whole = best[(1 << k) - 1];
        return whole != null ? whole : greedy(component);
    }

    /** Two trees of a greedy ordering by their relations, in the order the ordering pairs them. */
    private record TreePair(long first, long second) {
    }

    private JoinPlan greedy(long component) {
        List<JoinPlan> trees = new ArrayList<>();
        for (int r : members(component)) {
            trees.add(leaf(r));
        }
        // each pair's join (null: none) is found once: a step changes only the two trees it joins, and the rest keep
        // their order in the list, so a pair is always asked the same way round. Without this, a step would weigh
        // every pair again, cubic in the relations
        Map<TreePair, JoinPlan> joined = new HashMap<>();
        while (trees.size() > 1) {
            JoinPlan bestPlan = null;
            int bi = -1;
            int bj = -1;
            for (int i = 0; i < trees.size(); i++) {
                for (int j = i + 1; j < trees.size(); j++) {
                    JoinPlan a = trees.get(i);
                    JoinPlan b = trees.get(j);
                    TreePair pair = new TreePair(a.set(), b.set());
                    JoinPlan p;
                    if (joined.containsKey(pair)) {
                        p = joined.get(pair);
                    } else {
                        p = joinable(a, b) == 0 ? null : join(a, b);
                        joined.put(pair, p);
                    }
                    if (p == null) {
                        continue;
                    }
                    if (bestPlan == null || p.rows() < bestPlan.rows()
                            || p.rows() == bestPlan.rows() && p.cost() < bestPlan.cost()) {
                        bestPlan = p;
                        bi = i;
                        bj = j;
                    }
                }
            }
            if (bestPlan == null) {
                // nothing connects the rest (or only builds the rule refuses): cross the two smallest
                trees.sort((x, y) -> Double.compare(x.rows(), y.rows()));
                bestPlan = join(trees.get(0), trees.get(1));
                if (bestPlan == null) {
                    return null;
                }
                bi = 0;
                bj = 1;
            }
            trees.remove(bj);
            trees.remove(bi);
            trees.add(bestPlan);
        }
        return trees.get(0);
    }

    private static int[] members(long set) {
        int[] out = new int[Long.bitCount(set)];
        int k = 0;
        for (long s = set; s != 0; s &= s - 1) {
            out[k++] = Long.numberOfTrailingZeros(s);
        }
        return out;
    }

    /** The connected components of the graph: relations linked by a conjunct or an outer condition. */
    private List<Long> components() {
        long[] comp = new long[g.n];
        for (int i = 0; i < g.n; i++) {
            comp[i] = 1L << i;
        }
        List<Long> links = new ArrayList<>();
        for (JoinGraph.Conjunct c : g.conjuncts) {
            links.add(c.relations());
        }
        for (int i = 0; i < g.n; i++) {
            if ((g.nullGenerating & (1L << i)) != 0) {
                links.add(g.outerRequires[i] | (1L << i));
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (long link : links) {
                long merged = 0;
                for (int i = 0; i < g.n; i++) {
                    if ((link & (1L << i)) != 0) {
                        merged |= comp[i];
                    }
                }
                for (int i = 0; i < g.n; i++) {
                    if ((merged & (1L << i)) != 0 && comp[i] != merged) {
                        comp[i] = merged;
                        changed = true;
                    }
                }
            }
        }
        List<Long> out = new ArrayList<>();
        for (long c : comp) {
            if (!out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }
}
