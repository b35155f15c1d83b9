package io.tessera.optimize;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The equivalence classes of a {@link JoinGraph}'s columns under its inner-join equalities: {@code a.x = b.y AND
 * b.y = c.z} makes {a.x, b.y, c.z} one class, so every pair of its columns in different relations is an equi-key
 * the enumerator may join on (a with c directly), tagged with its class, and a join applies (and counts the
 * selectivity of) one equality per class whose columns meet there. Only equalities of two plain columns of the same
 * type join a class, and none of a null-generating relation: an outer join's condition is not in the graph's inner
 * conjuncts, and a filter above it on the null-generating side must stay where it is.
 *
 * <p>A value predicate on one column of a class ({@code a.x = 5}, a range, an IN list, LIKE), whether its relation's
 * input applies it or it is a conjunct of the graph, holds for every column of the class in the rows that reach the
 * join: the same predicate on each other column becomes a filter of that column's relation, so its rows are dropped
 * before they are joined. A row whose column is NULL finds no partner in an inner equality either, so the derived
 * filter drops no row that the join keeps. A predicate already on that column is not derived again.
 */
final class ColumnClasses {

    /** A derived filter that keeps more than this share of its relation's rows costs more than it saves. */
    static final double MAX_DERIVED_SELECTIVITY = 0.95;

    /** Per global field, its class, else -1. */
    private final int[] classOf;
    /** Per class, its fields in ascending order. */
    private final List<int[]> members = new ArrayList<>();
    /** The equality of each pair of a class's fields, under {@link #pair}. */
    private final Map<Long, JoinGraph.Conjunct> equalities = new HashMap<>();
    /** The pairs the query's own equalities join, under {@link #pair}. */
    private final Set<Long> written = new HashSet<>();
    /** Per global field, a bound on its distinct values from a class's value predicates (infinity: none). */
    private final double[] distinctBound;

    private ColumnClasses(int fields) {
        classOf = new int[fields];
        Arrays.fill(classOf, -1);
        distinctBound = new double[fields];
        Arrays.fill(distinctBound, Double.POSITIVE_INFINITY);
    }

    /** Builds the classes of {@code g}'s conjuncts, tagging their equalities and adding the derived conjuncts. */
    static ColumnClasses build(JoinGraph g) {
        int fields = g.relationOfField.length;
        ColumnClasses cc = new ColumnClasses(fields);
        int[] parent = new int[fields];
        for (int f = 0; f < fields; f++) {
            parent[f] = f;
        }
        boolean any = false;
        for (JoinGraph.Conjunct c : g.conjuncts) {
            if (isClassEdge(g, c)) {
                parent[root(parent, c.keyA())] = root(parent, c.keyB());
                any = true;
            }
        }
        if (!any) {
            return cc;
        }
        Map<Integer, List<Integer>> byRoot = new java.util.TreeMap<>();
        for (JoinGraph.Conjunct c : g.conjuncts) {
            if (isClassEdge(g, c)) {
                for (int f : new int[] {c.keyA(), c.keyB()}) {
                    List<Integer> m = byRoot.computeIfAbsent(root(parent, f), r -> new ArrayList<>());
                    if (!m.contains(f)) {
                        m.add(f);
                    }
                }
            }
        }
        for (List<Integer> m : byRoot.values()) {
            int cls = cc.members.size();
            int[] sorted = m.stream().mapToInt(Integer::intValue).sorted().toArray();
            cc.members.add(sorted);
            for (int f : sorted) {
                cc.classOf[f] = cls;
            }
        }
        for (int k = 0; k < g.conjuncts.size(); k++) {
            JoinGraph.Conjunct c = g.conjuncts.get(k);
            if (isClassEdge(g, c)) {
                JoinGraph.Conjunct tagged = c.inClass(cc.classOf[c.keyA()]);
                g.conjuncts.set(k, tagged);
                cc.equalities.putIfAbsent(pair(c.keyA(), c.keyB()), tagged);
                cc.written.add(pair(c.keyA(), c.keyB()));
            }
        }
        cc.addPairs(g);
        cc.deriveFilters(g);
        return cc;
    }

    /** The class of global field {@code f}, else -1. */
    int classOf(int f) {
        return classOf[f];
    }

    /** A bound on the distinct values of global field {@code f} in its relation's filtered rows. */
    double distinctBound(int f) {
        return distinctBound[f];
    }

    /**
     * The equality of class {@code cls} that a join of these two trees applies (all of a side's columns of the class
     * are equal in its rows already, so any one will do): one the query wrote where one crosses the two sides, so
     * that a plan the written edges allow keeps its keys and payloads; among those, one whose build column is unique
     * there if one is.
     */
    JoinGraph.Conjunct equality(JoinGraph g, int cls, JoinPlan probe, JoinPlan build) {
        JoinGraph.Conjunct best = null;
        int bestRank = -1;
        int[] m = members.get(cls);
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < m.length; j++) {
                long pi = 1L << g.relationOfField[m[i]];
                long bj = 1L << g.relationOfField[m[j]];
                if ((probe.set() & pi) == 0 || (build.set() & bj) == 0) {
                    continue;
                }
                long key = pair(m[i], m[j]);
                int rank = (written.contains(key) ? 2 : 0) + (build.unique().get(m[j]) ? 1 : 0);
                if (rank > bestRank) {
                    best = equalities.get(key);
                    bestRank = rank;
                }
            }
        }
        return best;
    }

    /** The fewest distinct values among the columns of class {@code cls} in {@code plan}'s rows. */
    double distinct(JoinGraph g, int cls, JoinPlan plan) {
        double d = Double.POSITIVE_INFINITY;
        for (int f : members.get(cls)) {
            if ((plan.set() & (1L << g.relationOfField[f])) != 0) {
                d = Math.min(d, plan.distinct()[f]);
            }
        }
        return d;
    }

    /** The fields of class {@code cls}. */
    int[] members(int cls) {
        return members.get(cls);
    }

    /** Whether conjunct {@code c} is an equality of two plain columns of the same type, both of inner relations. */
    private static boolean isClassEdge(JoinGraph g, JoinGraph.Conjunct c) {
        if (!c.isKey() || !(c.condition() instanceof RexCall call)
                || !(call.getOperands().get(0) instanceof RexInputRef a)
                || !(call.getOperands().get(1) instanceof RexInputRef b)) {
            return false;
        }
        long rels = (1L << g.relationOfField[a.getIndex()]) | (1L << g.relationOfField[b.getIndex()]);
        return (rels & g.nullGenerating) == 0 && SqlTypeUtil.equalSansNullability(
                g.multiJoin.getCluster().getTypeFactory(), a.getType(), b.getType());
    }

    private static int root(int[] parent, int f) {
        while (parent[f] != f) {
            parent[f] = parent[parent[f]];
            f = parent[f];
        }
        return f;
    }

    private static long pair(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    /**
     * The equalities of each class's pairs not written: an equi-key for two relations, a filter for two columns of
     * one relation (which the rows reaching the join satisfy, and which keeps each relation's columns of a class
     * equal, so that one equality per join suffices).
     */
    private void addPairs(JoinGraph g) {
        RexBuilder rb = g.multiJoin.getCluster().getRexBuilder();
        for (int cls = 0; cls < members.size(); cls++) {
            int[] m = members.get(cls);
            for (int i = 0; i < m.length; i++) {
                for (int j = i + 1; j < m.length; j++) {
                    if (equalities.containsKey(pair(m[i], m[j]))) {
                        continue;
                    }
                    RexNode eq = rb.makeCall(SqlStdOperatorTable.EQUALS, ref(g, m[i]), ref(g, m[j]));
                    if (g.relationOfField[m[i]] == g.relationOfField[m[j]]) {
                        g.conjuncts.addAll(g.conjunctsOf(eq));
                        continue;
                    }
                    long rels = (1L << g.relationOfField[m[i]]) | (1L << g.relationOfField[m[j]]);
                    JoinGraph.Conjunct c = new JoinGraph.Conjunct(eq, rels, m[i], m[j], 1, cls);
                    g.conjuncts.add(c);
                    equalities.put(pair(m[i], m[j]), c);
                }
            }
        }
    }

    private static RexInputRef ref(JoinGraph g, int f) {
        return new RexInputRef(f, g.multiJoin.getRowType().getFieldList().get(f).getType());
    }

    /** A value predicate found on field {@code field} of the relation's input, or of the graph (own conjuncts). */
    private record Found(RexNode predicate, int field) {
    }

    /** Adds, for each class, every value predicate of one of its columns as a filter on each other column. */
    private void deriveFilters(JoinGraph g) {
        RexBuilder rb = g.multiJoin.getCluster().getRexBuilder();
        List<JoinGraph.Conjunct> derived = new ArrayList<>();
        for (int[] m : members) {
            Map<Integer, List<Found>> found = new HashMap<>();
            boolean anyFound = false;
            for (int f : m) {
                List<Found> own = new ArrayList<>();
                int r = g.relationOfField[f];
                collect(g.inputs[r], f - g.fieldStart[r], own);
                for (JoinGraph.Conjunct c : g.conjuncts) {
                    if (c.relations() == 1L << r && isValuePredicate(c.condition(), f)) {
                        own.add(new Found(c.condition(), f));
                    }
                }
                found.put(f, own);
                anyFound |= !own.isEmpty();
            }
            if (!anyFound) {
                continue;
            }
            for (int target : m) {
                int r = g.relationOfField[target];
                RexInputRef targetRef = ref(g, target);
                Set<String> present = new HashSet<>();
                for (Found x : found.get(target)) {
                    present.add(substitute(x.predicate, x.field, targetRef, rb).toString());
                }
                for (int source : m) {
                    if (g.relationOfField[source] == r) {
                        continue;
                    }
                    for (Found x : found.get(source)) {
                        RexNode p = substitute(x.predicate, x.field, targetRef, rb);
                        if (!present.add(p.toString())) {
                            continue;
                        }
                        JoinGraph.Conjunct d = g.conjunctsOf(p).get(0);
                        if (d.selectivity() > MAX_DERIVED_SELECTIVITY) {
                            continue;
                        }
                        derived.add(d);
                        // a value predicate keeps about its share of the column's values, not a random sample
                        // (as Estimates counts the predicates a relation's input applies)
                        bound(target, g.columns.get(target).distinct() * d.selectivity());
                    }
                }
            }
        }
        g.conjuncts.addAll(derived);
    }

    private void bound(int f, double distinct) {
        distinctBound[f] = Math.min(distinctBound[f], Math.max(1, distinct));
    }

    /** The value predicates on field {@code field} of {@code rel} that its filters apply, through plain projections. */
    private static void collect(RelNode rel, int field, List<Found> out) {
        rel = rel.stripped();
        if (rel instanceof Filter f) {
            for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
                if (isValuePredicate(c, field)) {
                    out.add(new Found(c, field));
                }
            }
            collect(f.getInput(), field, out);
        } else if (rel instanceof Project p && p.getProjects().get(field) instanceof RexInputRef r) {
            collect(p.getInput(), r.getIndex(), out);
        }
    }

    /**
     * Whether {@code p} is a comparison of field {@code field} with constants ({@code =}, {@code <}, {@code <=},
     * {@code >}, {@code >=}, a range or IN list as Calcite's SEARCH, LIKE), or a disjunction of such: its truth
     * depends on the field's value alone, so it holds for any column equal to that field.
     */
    static boolean isValuePredicate(RexNode p, int field) {
        if (!(p instanceof RexCall call)) {
            return false;
        }
        List<RexNode> ops = call.getOperands();
        return switch (call.getKind()) {
            case EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL ->
                    isField(ops.get(0), field) && isConstant(ops.get(1))
                            || isField(ops.get(1), field) && isConstant(ops.get(0));
            case SEARCH, LIKE -> isField(ops.get(0), field) && ops.stream().skip(1).allMatch(ColumnClasses::isConstant);
            case OR -> ops.stream().allMatch(o -> isValuePredicate(o, field));
            default -> false;
        };
    }

    private static boolean isField(RexNode e, int field) {
        return e instanceof RexInputRef r && r.getIndex() == field;
    }

    private static boolean isConstant(RexNode e) {
        return e instanceof RexLiteral l && !l.isNull() || e instanceof RexDynamicParam;
    }

    /** {@code p} over field {@code from} rewritten over {@code to}, calls' types derived again where they change. */
    private static RexNode substitute(RexNode p, int from, RexInputRef to, RexBuilder rb) {
        return p.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return ref.getIndex() == from ? to : ref;
            }

            @Override
            public RexNode visitCall(RexCall call) {
                List<RexNode> ops = visitList(call.getOperands(), new boolean[1]);
                boolean same = true;
                for (int i = 0; i < ops.size(); i++) {
                    same &= ops.get(i).getType().equals(call.getOperands().get(i).getType());
                }
                RelDataType type = same ? call.getType() : rb.deriveReturnType(call.getOperator(), ops);
                return call.clone(type, ops);
            }
        });
    }
}
