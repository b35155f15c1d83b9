package io.tessera.tune;

import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.tessera.tune.Synthetic.i;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OnlinePoolTest {

    static final List<Dimension> DIMS = List.of(Synthetic.numeric("a", 4), Synthetic.numeric("b", 4),
            Synthetic.numeric("c", 4), Synthetic.numeric("d", 4));
    static final int[] OPT = {2, 3, 1, 2};

    /** 256 variants: one optimum at 1.0, a bowl around it, and a quarter of them five times slower (a = 0). */
    static double cost(Genome g) {
        double c = 1;
        for (int d = 0; d < 4; d++) {
            c += 0.15 * Math.abs(i(g, DIMS.get(d).name()) - OPT[d]);
        }
        return i(g, "a") == 0 ? 5 * c : c;
    }

    static TuningSpace space() {
        return TuningSpace.of(DIMS, Synthetic.genome(DIMS, 0, 0, 0, 0), g -> true);
    }

    @Test
    void evolvesThePoolTowardsTheOptimumOverQueries() {
        // only the optimum is within 1.05 (the next variants are 1.15): as in the paper's experiment, count the
        // series that reach it, over 20 seeds
        int reached = 0;
        for (long seed = 1; seed <= 20; seed++) {
            OnlinePool pool = new OnlinePool(space(), seed);
            InQueryTuning.BlockSource src = Synthetic.blocks(64, (g, n) -> cost(g));
            double previous = Double.POSITIVE_INFINITY;
            for (int q = 0; q < 12; q++) {
                if (q > 0) {
                    Map<Integer, Genome> best = pool.best();
                    pool.evolve();
                    assertTrue(pool.pool().contains(best), "the best member survives evolution");
                    assertEquals(8, pool.pool().size());
                    assertEquals(8, new HashSet<>(pool.pool()).size(), "no duplicates");
                }
                src.run(pool.query());
                double now = pool.estimate(pool.best());
                assertTrue(now <= previous, "seed " + seed + ": the best known never gets worse");
                previous = now;
            }
            assertEquals(cost(pool.best().get(0)), previous, 1e-12);
            assertTrue(previous <= 1.15 + 1e-9, "seed " + seed + ": best after 12 queries " + previous);
            reached += previous <= 1.05 ? 1 : 0;
            assertEquals(11, pool.generation());
        }
        assertTrue(reached >= 15, reached + " of 20 series reached the optimum");
    }

    @Test
    void vwGreedyExploresEachMemberThenMostlyRunsTheFastest() {
        OnlinePool pool = new OnlinePool(space(), 8, 3, OnlinePool.MUTATION);
        List<Map<Integer, Genome>> members = pool.pool();
        assertEquals(space().start(), members.get(0), "the start is a member");
        BlockTuner vw = pool.query();
        assertEquals(pool.pool(), vw.upcoming(), "any member may run next");
        int blocks = 200;
        int onBest = 0;
        Set<Map<Integer, Genome>> explored = new HashSet<>();
        for (int b = 0; b < blocks; b++) {
            Map<Integer, Genome> a = vw.next();
            assertTrue(members.contains(a), "only members run");
            if (b < 8 * OnlinePool.INIT_BLOCKS) {
                explored.add(a);
            } else if (a.equals(pool.best())) {
                onBest++;
            }
            vw.observe(a, cost(a.get(0)));
        }
        assertEquals(8, explored.size(), "every member runs first");
        int rest = blocks - 8 * OnlinePool.INIT_BLOCKS;
        assertTrue(onBest >= rest - rest / OnlinePool.PERIOD - 1, onBest + " of " + rest);
        Map<Integer, Genome> expected = members.stream().min((x, y) -> Double.compare(cost(x.get(0)), cost(y.get(0))))
                .orElseThrow();
        assertEquals(expected, vw.best());
        TuningResult r = vw.result();
        assertEquals(blocks, r.trace().size());
        assertEquals(8, r.variants());
    }

    @Test
    void warmUpOutliersDoNotHideAFastMember() {
        // every member's first block is three times slower; the estimate is the minimum of recent blocks
        OnlinePool pool = new OnlinePool(space(), 8, 5, OnlinePool.MUTATION);
        InQueryTuning.BlockSource src = Synthetic.blocks(40, (g, n) -> n == 0 ? 3 * cost(g) : cost(g));
        src.run(pool.query());
        for (Map<Integer, Genome> m : pool.pool()) {
            assertEquals(cost(m.get(0)), pool.estimate(m), 1e-12);
        }
    }

    @Test
    void aSmallUniverseIsTheWholePool() {
        List<Dimension> dims = List.of(Synthetic.numeric("a", 2), Synthetic.numeric("b", 2));
        OnlinePool pool = new OnlinePool(TuningSpace.of(dims, Synthetic.genome(dims, 0, 0), g -> true), 8, 1, 0.1);
        assertEquals(4, pool.pool().size());
        InQueryTuning.BlockSource src = Synthetic.blocks(20, (g, n) -> 1 + i(g, "a") + 2 * i(g, "b"));
        src.run(pool.query());
        pool.evolve();
        assertEquals(4, pool.pool().size());
        assertEquals(Synthetic.genome(dims, 0, 0), pool.best().get(0));
        assertThrows(IllegalArgumentException.class, () -> new OnlinePool(space(), 1, 1, 0.1));
    }

    @Test
    void theInQueryDriverEvolvesBetweenQueries() {
        TuningResult r = InQueryTuning.pool(space(), Synthetic.blocks(64, (g, n) -> cost(g)), 10, 8, 7);
        assertTrue(r.note().contains("9 generations") && r.note().contains("10 queries"), r.note());
        assertTrue(r.bestSeconds() <= 1.15 + 1e-9, "best " + r.bestSeconds());
        assertEquals(cost(r.best().get(0)), r.bestSeconds(), 1e-12);
        assertEquals(640, r.trace().size());
    }
}
