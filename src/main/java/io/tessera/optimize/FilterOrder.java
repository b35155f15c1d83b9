package io.tessera.optimize;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a filter over a stored table tests its conjuncts: the one that drops the most of the rows still
 * passing for what it costs first, found on the table's sample (each conjunct's truth on the sampled rows, so that a
 * conjunct correlated with one already chosen is ranked by the rows it still drops). The cost of a conjunct is the
 * columns it reads that no earlier conjunct read, plus its calls beyond comparisons. A row rejected by the first
 * conjunct reads no column of the others, so a selective cheap test (a date range) goes before a dear or weak one.
 * A conjunct the sample cannot evaluate is ranked by the statistics' selectivity.
 *
 * <p>Only conjuncts that cannot raise an error move (the caller says which): those that can keep their order after
 * all the others, so that every test that guarded one before still runs before it.
 */
public final class FilterOrder {

    private FilterOrder() {
    }

    /**
     * The positions of {@code f}'s conjuncts ({@link RelOptUtil#conjunctions}, always-true ones left out, as the
     * caller lists them in {@code conjuncts}) in the order to test them; {@code movable[i]} says whether conjunct
     * {@code i} may be tested earlier than it is written. The written order where the filter is not over a stored
     * table.
     */
    public static int[] order(Estimates estimates, Filter f, List<RexNode> conjuncts, boolean[] movable) {
        int n = conjuncts.size();
        int[] written = new int[n];
        for (int i = 0; i < n; i++) {
            written[i] = i;
        }
        if (n < 2) {
            return written;
        }
        boolean[][] truths = BaseFilters.sampledTruths(estimates, f, conjuncts);
        if (truths == null) {
            return written;
        }
        int rows = 0;
        for (boolean[] t : truths) {
            if (t != null) {
                rows = t.length;
            }
        }
        boolean[] alive = new boolean[rows];
        java.util.Arrays.fill(alive, true);
        boolean[] taken = new boolean[n];
        ImmutableBitSet read = ImmutableBitSet.of();
        int[] out = new int[n];
        int k = 0;
        while (true) {
            int best = -1;
            double bestRank = -1;
            int aliveCount = count(alive, null);
            for (int c = 0; c < n; c++) {
                if (taken[c] || !movable[c]) {
                    continue;
                }
                // fraction of the rows still passing that this conjunct drops, per unit of cost (from the statistics,
                // as if independent of those chosen, where the sample cannot evaluate it)
                double dropped = truths[c] == null
                        ? 1 - estimates.statisticsSelectivity(f.getInput(), conjuncts.get(c))
                        : aliveCount == 0 ? 0 : 1 - count(alive, truths[c]) / (double) aliveCount;
                ImmutableBitSet cols = RelOptUtil.InputFinder.bits(conjuncts.get(c));
                double cost = 1 + cols.except(read).cardinality() + calls(conjuncts.get(c));
                double rank = dropped / cost;
                if (rank > bestRank) {
                    best = c;
                    bestRank = rank;
                }
            }
            if (best < 0) {
                break;
            }
            taken[best] = true;
            out[k++] = best;
            read = read.union(RelOptUtil.InputFinder.bits(conjuncts.get(best)));
            for (int i = 0; truths[best] != null && i < rows; i++) {
                alive[i] &= truths[best][i];
            }
        }
        // those that must not move, in their written order
        for (int c = 0; c < n; c++) {
            if (!taken[c]) {
                out[k++] = c;
            }
        }
        return out;
    }

    private static int count(boolean[] alive, boolean[] also) {
        int n = 0;
        for (int i = 0; i < alive.length; i++) {
            if (alive[i] && (also == null || also[i])) {
                n++;
            }
        }
        return n;
    }

    /** The calls of {@code e} that do more than compare, combine truth values or test for NULL (LIKE, functions). */
    private static int calls(RexNode e) {
        int[] n = new int[1];
        e.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                switch (call.getKind()) {
                    case AND, OR, NOT, EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN,
                         GREATER_THAN_OR_EQUAL, SEARCH, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_FALSE, IS_NOT_TRUE,
                         IS_NOT_FALSE, CAST -> {
                    }
                    default -> n[0]++;
                }
                return super.visitCall(call);
            }
        });
        return n[0];
    }
}
