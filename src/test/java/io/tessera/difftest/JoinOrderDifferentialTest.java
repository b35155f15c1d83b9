package io.tessera.difftest;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random joins of 4 to 8 TPC-H relations ({@link TpchJoinQueryGenerator}) at SF 0.01, each run under estimate
 * skews that make the optimizer choose other join orders and build sides ({@link JoinOrderRuns}: none, every table
 * 1000 times too small, 1000 times too large, a random factor per table), and compared with DuckDB under each.
 * Estimates that far off may make a plan slow, never an answer wrong. The skews must also really change the plans:
 * a corpus where they did not would check one order per query.
 *
 * <p>Seeds are fixed ({@code -Dtessera.difftest.joinSeed=N} explores others, {@code -Dtessera.difftest.joinQueries=N}
 * runs more); a failure names the query's seed and the skew.
 */
class JoinOrderDifferentialTest extends TpchDifferentialBase {

    private static final long INNER_SEED = 1;
    private static final long OUTER_SEED = 100_000;

    private static long seed(long base) {
        return Long.getLong("tessera.difftest.joinSeed", 0) + base;
    }

    private static int queries(int dflt) {
        return Integer.getInteger("tessera.difftest.joinQueries", dflt);
    }

    @Test
    void innerJoinsAgreeWithDuckDbUnderEverySkew() {
        check(new TpchJoinQueryGenerator(false).generate(seed(INNER_SEED), queries(24)));
    }

    @Test
    void outerSemiAndAntiJoinsAgreeWithDuckDbUnderEverySkew() {
        check(new TpchJoinQueryGenerator(true).generate(seed(OUTER_SEED), queries(16)));
    }

    private void check(List<TpchJoinQueryGenerator.Generated> corpus) {
        JoinOrderRuns.Outcome o = JoinOrderRuns.run(tessera, harness, corpus);
        JoinOrderRuns.assertNoFailures(o, corpus.size());
        // each query's four runs planned differently in most queries: the skews reach the join order
        assertTrue(o.queriesWithSeveralPlans() * 2 >= corpus.size(),
                "the skews changed the plan of only " + o.queriesWithSeveralPlans() + " of " + corpus.size()
                        + " queries (plans per query: " + o.distinctPlans() + ")");
        assertTrue(o.totalPlans() >= 2 * corpus.size(),
                "only " + o.totalPlans() + " distinct plans over " + corpus.size() + " queries");
    }
}
