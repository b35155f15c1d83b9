package io.tessera.optimize;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The join graph of a flattened region of joins (Calcite's {@link MultiJoin}): its relations with their estimated
 * rows and columns, and the conjuncts of its conditions, each with the set of relations it reads (a bit per
 * relation, so a graph holds at most 63 of them). An equality between one column of each of two relations is a key
 * that a hash join can use; any other conjunct is applied where its relations have met. A relation on the
 * null-generating side of an outer join (LEFT or RIGHT, which the flattening keeps as a single input) joins only
 * as a whole, after every relation its outer condition reads.
 */
final class JoinGraph {

    /** The most relations a graph holds: a bit each in a {@code long}, the sign bit left unused. */
    static final int MAX_RELATIONS = 63;

    /**
     * A conjunct of the join conditions. {@code keyA/keyB}: the two fields of an equi-key, else -1; {@code eqClass}:
     * the {@link ColumnClasses} class whose equality it is, else -1.
     */
    record Conjunct(RexNode condition, long relations, int keyA, int keyB, double selectivity, int eqClass) {
        Conjunct(RexNode condition, long relations, int keyA, int keyB, double selectivity) {
            this(condition, relations, keyA, keyB, selectivity, -1);
        }

        boolean isKey() {
            return keyA >= 0;
        }

        Conjunct inClass(int cls) {
            return new Conjunct(condition, relations, keyA, keyB, selectivity, cls);
        }
    }

    final MultiJoin multiJoin;
    final int n;
    final RelNode[] inputs;
    final double[] rows;
    /** First global field of each relation. */
    final int[] fieldStart;
    /** Per global field, the relation it belongs to. */
    final int[] relationOfField;
    final List<ColumnEstimate> columns = new ArrayList<>();
    final List<Conjunct> conjuncts = new ArrayList<>();
    /** Per relation, the outer join condition that brings it in as a null-generating side, else null. */
    final RexNode[] outerCondition;
    /** Per null-generating relation, the relations its outer condition reads besides itself. */
    final long[] outerRequires;
    final long nullGenerating;
    /** The equivalence classes of the columns under the inner equalities. */
    final ColumnClasses classes;

    private final Estimates estimates;

    JoinGraph(MultiJoin mj, Estimates estimates) {
        this.multiJoin = mj;
        this.estimates = estimates;
        this.n = mj.getInputs().size();
        if (n > MAX_RELATIONS) {
            throw new IllegalArgumentException("a join graph holds at most " + MAX_RELATIONS + " relations");
        }
        inputs = mj.getInputs().toArray(new RelNode[0]);
        rows = new double[n];
        fieldStart = new int[n + 1];
        int fields = 0;
        for (int i = 0; i < n; i++) {
            fieldStart[i] = fields;
            rows[i] = estimates.rows(inputs[i]);
            int width = inputs[i].getRowType().getFieldCount();
            for (int f = 0; f < width; f++) {
                columns.add(estimates.column(inputs[i], f));
            }
            fields += width;
        }
        fieldStart[n] = fields;
        relationOfField = new int[fields];
        for (int i = 0; i < n; i++) {
            for (int f = fieldStart[i]; f < fieldStart[i + 1]; f++) {
                relationOfField[f] = i;
            }
        }
        outerCondition = new RexNode[n];
        outerRequires = new long[n];
        long ng = 0;
        for (int i = 0; i < n; i++) {
            JoinRelType t = mj.getJoinTypes().get(i);
            if (t != JoinRelType.INNER) {
                ng |= 1L << i;
                outerCondition[i] = mj.getOuterJoinConditions().get(i);
                outerRequires[i] = outerCondition[i] == null ? 0 : relations(outerCondition[i]) & ~(1L << i);
            }
        }
        nullGenerating = ng;
        conjuncts.addAll(conjunctsOf(mj.getJoinFilter()));
        deriveFilters();
        classes = ColumnClasses.build(this);
    }

    /**
     * Adds the filters each relation owes to a disjunction over several ({@link Disjunctions}), and counts the
     * disjunction itself only for what those filters do not already remove.
     */
    private void deriveFilters() {
        RexBuilder rb = multiJoin.getCluster().getRexBuilder();
        List<Conjunct> derived = new ArrayList<>();
        for (int k = 0; k < conjuncts.size(); k++) {
            Conjunct c = conjuncts.get(k);
            if (Long.bitCount(c.relations()) < 2) {
                continue;
            }
            double implied = 1;
            for (Map.Entry<Integer, RexNode> e : Disjunctions.perRelation(c.condition(), this::relations, rb).entrySet()) {
                if ((nullGenerating & (1L << e.getKey())) != 0) {
                    continue; // a null-generating relation is filtered only above its outer join
                }
                for (Conjunct d : conjunctsOf(e.getValue())) {
                    derived.add(d);
                    implied *= d.selectivity();
                }
            }
            if (implied < 1) {
                conjuncts.set(k, new Conjunct(c.condition(), c.relations(), c.keyA(), c.keyB(),
                        Math.min(1, c.selectivity() / Math.max(implied, 1e-9))));
            }
        }
        conjuncts.addAll(derived);
    }

    /** The conjuncts of a condition over the graph's fields. */
    List<Conjunct> conjunctsOf(RexNode condition) {
        Selectivity stats = new Selectivity(columns::get, multiJoin.getCluster().getRexBuilder());
        List<Conjunct> out = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(condition)) {
            if (c.isAlwaysTrue()) {
                continue;
            }
            int[] key = equiKey(c);
            long rels = relations(c);
            double sel = key != null ? 1 : Long.bitCount(rels) == 1 ? ownSelectivity(Long.numberOfTrailingZeros(rels), c)
                    : stats.of(c);
            out.add(new Conjunct(c, rels, key == null ? -1 : key[0], key == null ? -1 : key[1], sel));
        }
        return out;
    }

    /** The fraction of relation {@code r}'s rows that pass {@code c}, a condition on it alone (its sample decides). */
    private double ownSelectivity(int r, RexNode c) {
        RexNode local = org.apache.calcite.rex.RexUtil.shift(c, -fieldStart[r]);
        RelNode filtered = org.apache.calcite.rel.logical.LogicalFilter.create(inputs[r], local);
        return estimates.rows(filtered) / estimates.rows(inputs[r]);
    }

    private final java.util.Map<Integer, Boolean> uniqueFields = new java.util.HashMap<>();
    /** The fields that are one side of an equi-key conjunct, made on the first call of {@link #isKeyField}. */
    private java.util.BitSet keyFields;

    /** Whether global field {@code f} is one of the two fields of some equi-key conjunct. */
    boolean isKeyField(int f) {
        if (keyFields == null) {
            java.util.BitSet keys = new java.util.BitSet();
            for (Conjunct c : conjuncts) {
                if (c.isKey()) {
                    keys.set(c.keyA());
                    keys.set(c.keyB());
                }
            }
            keyFields = keys;
        }
        return keyFields.get(f);
    }

    /** Whether global field {@code f} holds no value twice among its relation's rows. */
    boolean unique(int f) {
        return uniqueFields.computeIfAbsent(f, x -> {
            int r = relationOfField[x];
            Boolean u = inputs[r].getCluster().getMetadataQuery()
                    .areColumnsUnique(inputs[r], ImmutableBitSet.of(x - fieldStart[r]));
            return Boolean.TRUE.equals(u);
        });
    }

    /**
     * The slots of a perfect join table keyed by global field {@code f}: the range of its stored column's values (a
     * string column's dictionary), 0 where the column has no known range, is of another type, or its range is longer
     * than a perfect table may be ({@link JoinCost#MAX_PERFECT_SLOTS}).
     */
    double perfectSlots(int f) {
        double slots = keySpan(f);
        return slots <= JoinCost.MAX_PERFECT_SLOTS ? slots : 0;
    }

    /**
     * The number of values global field {@code f}'s stored column spans: its range (a string column's dictionary),
     * 0 where the column has no known range or is of another type.
     */
    double keySpan(int f) {
        io.tessera.storage.Column c = columns.get(f).origin();
        if (c == null) {
            return 0;
        }
        return switch (c.type().kind()) {
            case INTEGER, DATE, BIGINT -> c.stats().hasRange() ? (double) c.stats().maxLong() - c.stats().minLong() + 1 : 0;
            case VARCHAR -> c.dictionary().size();
            default -> 0;
        };
    }

    /**
     * Whether global field {@code f}'s values ascend in the order its relation's rows are read: a stored column that
     * ascends ({@link AscendingValues}) read by a scan, through filters and projections only.
     */
    boolean ascends(int f) {
        io.tessera.storage.Column c = columns.get(f).origin();
        if (c == null) {
            return false;
        }
        RelNode in = inputs[relationOfField[f]].stripped();
        while (in instanceof org.apache.calcite.rel.core.Filter || in instanceof org.apache.calcite.rel.core.Project) {
            in = in.getInput(0).stripped();
        }
        return in instanceof org.apache.calcite.rel.core.TableScan && AscendingValues.ascends(c);
    }

    /** The relations a condition reads, a bit each. */
    long relations(RexNode e) {
        long mask = 0;
        for (int f : RelOptUtil.InputFinder.bits(e)) {
            mask |= 1L << relationOfField[f];
        }
        return mask;
    }

    /** The two fields of {@code a = b} when each is a column (or a CAST of one) of a different relation. */
    private int[] equiKey(RexNode c) {
        if (c.getKind() != SqlKind.EQUALS || !(c instanceof RexCall call)) {
            return null;
        }
        RexInputRef a = plainColumn(call.getOperands().get(0));
        RexInputRef b = plainColumn(call.getOperands().get(1));
        if (a == null || b == null || relationOfField[a.getIndex()] == relationOfField[b.getIndex()]) {
            return null;
        }
        return new int[] {a.getIndex(), b.getIndex()};
    }

    private static RexInputRef plainColumn(RexNode e) {
        while (e instanceof RexCall c && c.getKind() == SqlKind.CAST) {
            e = c.getOperands().get(0);
        }
        return e instanceof RexInputRef r ? r : null;
    }

    /** Whether some conjunct (or outer condition) reads relations of both sets and nothing outside them. */
    boolean connected(long a, long b) {
        long both = a | b;
        for (Conjunct c : conjuncts) {
            if ((c.relations & ~both) == 0 && (c.relations & a) != 0 && (c.relations & b) != 0) {
                return true;
            }
        }
        return false;
    }

    ImmutableBitSet fieldsOf(int relation) {
        return ImmutableBitSet.range(fieldStart[relation], fieldStart[relation + 1]);
    }
}
