package io.tessera.optimize;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A WHERE over many tables listed in FROM (a filter over a tree of inner joins without conditions) rewritten in one
 * step: each conjunct becomes the condition of the lowest join whose inputs hold its columns, or a filter on the one
 * table it reads, and the projections the converter put over each table (the columns the query reads) go above the
 * tree. Calcite's rules do the same one join and one projection at a time, each step copying the conditions and
 * projections still above it and walking the whole plan again: quadratic in the tables, most of the planning
 * time of a join of 64 tables.
 *
 * <p>Only for trees of more tables than {@link JoinEnumerator} orders exactly, so that the plans of smaller joins
 * (every benchmark query) stay the ones the rules make.
 */
final class CrossJoinConditions {

    /** More tables than this in one tree of joins without conditions are rewritten here. */
    static final int MIN_TABLES = 13;

    private CrossJoinConditions() {
    }

    static RelNode apply(RelNode rel) {
        if (rel instanceof LogicalFilter f && f.getVariablesSet().isEmpty() && crossJoin(f.getInput())
                && tables(f.getInput()) >= MIN_TABLES && !RexUtil.containsCorrelation(f.getCondition())
                && RexUtil.SubQueryFinder.find(f.getCondition()) == null) {
            return rewrite(f);
        }
        return Inputs.visited(rel, CrossJoinConditions::apply);
    }

    private static boolean crossJoin(RelNode rel) {
        return rel instanceof LogicalJoin j && j.getJoinType() == JoinRelType.INNER && j.getCondition().isAlwaysTrue()
                && j.getVariablesSet().isEmpty();
    }

    private static int tables(RelNode rel) {
        return crossJoin(rel) ? tables(rel.getInput(0)) + tables(rel.getInput(1)) : 1;
    }

    /** A table of the tree: the relation under its projection of input columns, and where its columns now lie. */
    private record Table(RelNode rel, int start, int end) {
    }

    private static RelNode rewrite(LogicalFilter filter) {
        RexBuilder rex = filter.getCluster().getRexBuilder();
        List<Table> tables = new ArrayList<>();
        // each column of the tree's row, as a column of the new tree's row
        List<Integer> position = new ArrayList<>();
        collect(filter.getInput(), tables, position);
        RexShuttle moved = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(position.get(ref.getIndex()), ref.getType());
            }
        };
        List<RexNode> conjuncts = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(filter.getCondition())) {
            conjuncts.add(c.accept(moved));
        }
        List<RexNode> placed = new ArrayList<>(conjuncts);
        RelNode tree = build(filter.getInput(), tables, new int[] {0}, conjuncts, placed, rex);
        List<RexNode> rest = new ArrayList<>();
        for (int i = 0; i < conjuncts.size(); i++) {
            if (placed.get(i) != null) {
                rest.add(conjuncts.get(i));
            }
        }
        if (!rest.isEmpty()) {
            tree = LogicalFilter.create(tree, RexUtil.composeConjunction(rex, rest));
        }
        List<RexNode> out = new ArrayList<>();
        for (int i = 0; i < position.size(); i++) {
            out.add(rex.makeInputRef(tree, position.get(i)));
        }
        return LogicalProject.create(tree, List.of(), out, filter.getRowType().getFieldNames(), Set.of());
    }

    /** The tables of the tree in order, each projection of input columns taken off; the new position of each column. */
    private static void collect(RelNode rel, List<Table> tables, List<Integer> position) {
        if (crossJoin(rel)) {
            collect(rel.getInput(0), tables, position);
            collect(rel.getInput(1), tables, position);
            return;
        }
        int start = tables.isEmpty() ? 0 : tables.get(tables.size() - 1).end();
        RelNode under = rel;
        int[] columns = null;
        if (rel instanceof LogicalProject p && p.getVariablesSet().isEmpty()
                && p.getProjects().stream().allMatch(e -> e instanceof RexInputRef)) {
            under = p.getInput();
            columns = p.getProjects().stream().mapToInt(e -> ((RexInputRef) e).getIndex()).toArray();
        }
        int width = under.getRowType().getFieldCount();
        for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
            position.add(start + (columns == null ? i : columns[i]));
        }
        tables.add(new Table(under, start, start + width));
    }

    /**
     * The tree rebuilt over the tables from {@code next[0]} on, each conjunct (columns of the new row) placed at the
     * lowest join or table that holds its columns; {@code placed} loses each one placed (set to null).
     */
    private static RelNode build(RelNode rel, List<Table> tables, int[] next, List<RexNode> conjuncts,
                                 List<RexNode> placed, RexBuilder rex) {
        if (crossJoin(rel)) {
            int first = tables.get(next[0]).start();
            RelNode left = build(rel.getInput(0), tables, next, conjuncts, placed, rex);
            RelNode right = build(rel.getInput(1), tables, next, conjuncts, placed, rex);
            List<RexNode> here = take(first, first + left.getRowType().getFieldCount()
                    + right.getRowType().getFieldCount(), first, conjuncts, placed, rex);
            return LogicalJoin.create(left, right, List.of(), RexUtil.composeConjunction(rex, here), Set.of(),
                    JoinRelType.INNER);
        }
        Table t = tables.get(next[0]++);
        List<RexNode> here = take(t.start(), t.end(), t.start(), conjuncts, placed, rex);
        return here.isEmpty() ? t.rel() : LogicalFilter.create(t.rel(), RexUtil.composeConjunction(rex, here));
    }

    /** The conjuncts not placed yet that read columns only in [start, end), shifted to start there at 0. */
    private static List<RexNode> take(int start, int end, int base, List<RexNode> conjuncts, List<RexNode> placed,
                                      RexBuilder rex) {
        List<RexNode> here = new ArrayList<>();
        for (int i = 0; i < conjuncts.size(); i++) {
            RexNode c = placed.get(i);
            if (c == null) {
                continue;
            }
            ImmutableBitSet cols = RelOptUtil.InputFinder.bits(c);
            if (cols.isEmpty() || cols.nextSetBit(0) < start || cols.length() > end) {
                continue;
            }
            here.add(RexUtil.shift(c, -base));
            placed.set(i, null);
        }
        return here;
    }
}
