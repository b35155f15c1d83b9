package io.tessera.tune;

import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.tessera.tune.Synthetic.i;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlateauDescentTest {

    static final List<Dimension> GRID = List.of(Dimension.of("workers", "1", "2", "4", "8", "16"),
            Dimension.of("morsel", "1024", "2048", "4096", "8192", "16384", "32768", "65536", "131072"));

    /** The final rounds' blocks when the space has one code variant: three finalists. */
    static final int FINALS = (1 + PlateauDescent.RUNNERS_UP) * FinalRounds.ROUNDS;

    static double log2(Genome g, String d) {
        return Math.log(i(g, d)) / Math.log(2);
    }

    /** A bowl with its minimum at 8 workers x 16384 rows. */
    static double bowl(Genome g) {
        return 1 + 0.3 * Math.abs(log2(g, "workers") - 3) + 0.1 * Math.abs(log2(g, "morsel") - 14);
    }

    static TuningSpace grid() {
        return TuningSpace.of(GRID, Synthetic.genome(GRID, 1, 1024), g -> true);
    }

    @Test
    void overWholeRunsEachConfigurationIsOneMeasurementOfTheQuery() {
        java.util.List<Map<Integer, Genome>> measured = new java.util.ArrayList<>();
        Objective whole = (a, limit) -> {
            measured.add(a);
            double s = bowl(a.get(0));
            return new Objective.Measurement(s, 2 * s, false);
        };
        TuningResult r = InQueryTuning.plateauOverRuns(grid(), java.util.Set.of("workers", "morsel"), whole, 10, 40);
        assertEquals(Synthetic.genome(GRID, 8, 16384), r.best().get(0));
        // a window of one: every configuration once, then three finalists in rounds
        assertEquals(r.variants() + FINALS, measured.size());
        assertEquals(r.variants(), new java.util.HashSet<>(measured).size());
        assertTrue(r.variants() < 40 / 2, "measured " + r.variants() + " of 40");
        assertEquals(measured.stream().mapToDouble(a -> 2 * bowl(a.get(0))).sum(), r.costSeconds(), 1e-9);
        assertTrue(r.note().contains("measured on whole runs") && r.note().endsWith(measured.size() + " whole runs"),
                r.note());
    }

    @Test
    void overWholeRunsTheDescentIsCutAfterItsBudgetBeyondTheStartingPoints() {
        int[] runs = {0};
        Objective whole = (a, limit) -> {
            runs[0]++;
            return new Objective.Measurement(bowl(a.get(0)), 0, false);
        };
        TuningResult r = InQueryTuning.plateauOverRuns(grid(), java.util.Set.of("workers", "morsel"), whole, 10, 4);
        // one starting point and four steps, then the finalists
        assertEquals(5, r.variants());
        assertTrue(r.note().contains("descent cut"), r.note());
        assertEquals(5 + FINALS, runs[0]);
    }

    @Test
    void descendsAConvexGridToItsMinimumWithoutTryingEveryConfiguration() {
        PlateauDescent pd = new PlateauDescent(grid());
        InQueryTuning.BlockSource src = Synthetic.blocks(10, (g, n) -> bowl(g));
        int runs = 0;
        while (!pd.converged()) {
            src.run(pd);
            runs++;
            assertTrue(runs < 100, "did not converge");
        }
        assertEquals(Synthetic.genome(GRID, 8, 16384), pd.best().get(0));
        TuningResult r = pd.result();
        assertEquals(1.0, r.bestSeconds(), 1e-12);
        assertTrue(r.variants() < 40 / 2, "measured " + r.variants() + " of 40");
        // noise-free blocks need three each; then three finalists (one code variant: the fastest and two
        // runners-up) run a block each per round
        assertEquals(3 * r.variants() + FINALS, pd.blocks());
        assertTrue(r.note().contains("3 finalists in " + FinalRounds.ROUNDS + " rounds"), r.note());
        // afterwards every block runs the fastest
        for (int b = 0; b < 5; b++) {
            assertEquals(pd.best(), pd.next());
        }
        assertTrue(r.trace().get(r.trace().size() - 1).bestSoFar() <= r.trace().get(0).bestSoFar());
    }

    @Test
    void followsAPlateauThatAStrictGradientStopsAt() {
        List<Dimension> line = List.of(Dimension.of("morsel", "0", "1", "2", "3", "4", "5"));
        double[] t = {10, 9, 9.2, 9.1, 4, 6};
        TuningSpace space = TuningSpace.of(line, Synthetic.genome(line, 0), g -> true);
        Synthetic.BlockCost cost = (g, n) -> t[i(g, "morsel")];

        PlateauDescent strict = new PlateauDescent(space, 0, PlateauDescent.P, BlockWindow.V_MAX, BlockWindow.B_MAX);
        drive(strict, cost);
        assertEquals(Synthetic.genome(line, 1), strict.best().get(0));

        PlateauDescent plateau = new PlateauDescent(space);
        drive(plateau, cost);
        assertEquals(Synthetic.genome(line, 4), plateau.best().get(0));
        assertEquals(4.0, plateau.result().bestSeconds(), 1e-12);
    }

    @Test
    void prunesReferencesSlowerThanPTimesTheFastest() {
        // from x=3 a plateau step leads down to x=1 and x=0; the reference x=3 left in the queue is then more
        // than p times slower than the fastest and is dropped, so x=4.. are never measured (x=6 is faster: the
        // price of pruning)
        List<Dimension> line = List.of(Dimension.of("x", "0", "1", "2", "3", "4", "5", "6"));
        double[] t = {1.9, 2, 5.1, 5.0, 5.05, 5.2, 1.0};
        TuningSpace space = TuningSpace.of(line, Synthetic.genome(line, 3), g -> true);
        PlateauDescent pd = new PlateauDescent(space);
        drive(pd, (g, n) -> t[i(g, "x")]);
        assertEquals(Synthetic.genome(line, 0), pd.best().get(0));
        assertEquals(4, pd.result().variants());
        assertFalse(pd.result().trace().stream().anyMatch(e -> i(e.assignment().get(0), "x") >= 4),
                "x >= 4 lies beyond a pruned reference");
    }

    @Test
    void dropsWarmUpOutliersAndCapsNoisyMeasurements() {
        // the first two blocks of every configuration are slow (warm-up); then exact
        PlateauDescent pd = new PlateauDescent(grid());
        drive(pd, (g, n) -> n < 2 ? 3 * bowl(g) : bowl(g));
        assertEquals(Synthetic.genome(GRID, 8, 16384), pd.best().get(0));
        for (TuningResult.Evaluation e : pd.result().trace()) {
            assertEquals(bowl(e.assignment().get(0)), e.seconds(), 1e-12, "outliers dropped from " + e);
        }
        assertEquals(5 * pd.result().variants() + FINALS, pd.blocks());

        // persistent 5% noise never settles below v_max: every configuration stops at b_max blocks
        PlateauDescent noisy = new PlateauDescent(grid());
        drive(noisy, (g, n) -> bowl(g) * (n % 2 == 0 ? 1.05 : 1.0));
        assertEquals(BlockWindow.B_MAX * noisy.result().variants() + FINALS, noisy.blocks());
        assertEquals(Synthetic.genome(GRID, 8, 16384), noisy.best().get(0));
    }

    @Test
    void blockWindowFollowsTheOutlierRule() {
        BlockWindow w = new BlockWindow();
        w.add(30);
        w.add(10);
        assertFalse(w.done());
        w.add(10.1);
        assertFalse(w.done(), "range over mean is far above 0.019");
        w.add(10.05);
        assertTrue(w.done());
        assertEquals((10 + 10.1 + 10.05) / 3, w.mean(), 1e-12);
        assertEquals(4, w.blocks());
        assertThrows(IllegalArgumentException.class, () -> new BlockWindow(0.019, 2));
    }

    @Test
    void respectsConstraintsOfTheGrid() {
        TuningSpace space = TuningSpace.of(GRID, Synthetic.genome(GRID, 1, 1024),
                g -> i(g, "workers") * (long) i(g, "morsel") <= 65536);
        PlateauDescent pd = new PlateauDescent(space);
        drive(pd, (g, n) -> {
            assertTrue(space.valid(Map.of(0, g)), "measured an invalid configuration " + g);
            return bowl(g);
        });
        Genome best = pd.best().get(0);
        assertTrue(i(best, "workers") * (long) i(best, "morsel") <= 65536);
        assertEquals(Synthetic.genome(GRID, 8, 8192), best);
    }

    @Test
    void theInQueryDriverRunsQueriesUntilConvergedAndCountsTheirTime() {
        double[] total = {0};
        int[] runs = {0};
        InQueryTuning.BlockSource inner = Synthetic.blocks(10, (g, n) -> bowl(g));
        InQueryTuning.BlockSource counting = tuner -> {
            double s = inner.run(tuner);
            total[0] += s;
            runs[0]++;
            return s;
        };
        TuningResult r = InQueryTuning.plateau(grid(), counting, 100);
        assertEquals(Synthetic.genome(GRID, 8, 16384), r.best().get(0));
        assertEquals(total[0], r.costSeconds(), 1e-9);
        assertTrue(r.note().contains("converged") && r.note().contains(runs[0] + " queries"), r.note());
        // a budget of two queries cuts the descent; the finalists' rounds then take two more
        int[] cutRuns = {0};
        InQueryTuning.BlockSource tenBlocks = Synthetic.blocks(10, (g, n) -> bowl(g));
        TuningResult cut = InQueryTuning.plateau(grid(), tuner -> {
            cutRuns[0]++;
            return tenBlocks.run(tuner);
        }, 2);
        assertTrue(cut.note().startsWith("descent cut, then converged"), cut.note());
        assertEquals(4, cutRuns[0]);
        // the rounds may not take more queries than the descent had
        TuningResult tight = InQueryTuning.plateau(grid(), Synthetic.blocks(10, (g, n) -> bowl(g)), 1);
        assertTrue(tight.note().startsWith("not converged"), tight.note());
    }

    /** The grid plus two strategy dimensions a block may change but the descent does not step along. */
    static final List<Dimension> STRATEGIES = List.of(GRID.get(0), GRID.get(1), Dimension.of("simd", "scalar", "vector"),
            Dimension.of("agg", "dense", "hash", "shared"));
    static final java.util.Set<String> THREADS = java.util.Set.of("workers", "morsel");

    /**
     * Each aggregation has a bowl of its own: dense and hash are fastest at 8 x 16384; shared is fastest at
     * 2 x 2048, and best overall; vector filters halve everything. From the start (1 x 1024) shared already looks
     * best, but only a descent from it finds 2 x 2048.
     */
    static double strategyCost(Genome g) {
        double simd = g.get("simd").equals("vector") ? 0.5 : 1;
        return simd * switch (g.get("agg")) {
            case "dense" -> bowl(g);
            case "hash" -> 1.1 * bowl(g);
            default -> 0.8 * (1 + 0.3 * Math.abs(log2(g, "workers") - 1) + 0.1 * Math.abs(log2(g, "morsel") - 11));
        };
    }

    static TuningSpace strategies(java.util.function.Predicate<Genome> valid) {
        return TuningSpace.of(STRATEGIES, Synthetic.genome(STRATEGIES, 1, 1024, "scalar", "dense"), valid);
    }

    @Test
    void startsFromEveryStrategyAndFindsTheOptimumThatNeedsANonThreadValue() {
        TuningSpace space = strategies(g -> true);
        PlateauDescent pd = new PlateauDescent(space, THREADS);
        // what it will ask for next (a GPU compiles those with the first): the starting points after the first
        assertEquals(PlateauDescent.startingPoints(space, space.knobs().stream()
                .filter(k -> THREADS.contains(k.name())).toList()).subList(1, 6), pd.upcoming());
        drive(pd, (g, n) -> strategyCost(g));
        assertEquals(List.of(), pd.upcoming());
        assertEquals(Synthetic.genome(STRATEGIES, 2, 2048, "vector", "shared"), pd.best().get(0));
        assertEquals(0.4, pd.result().bestSeconds(), 1e-12);
        // the six starting points come first, the start assignment first of all
        List<TuningResult.Evaluation> trace = pd.result().trace();
        assertEquals(space.start(), trace.get(0).assignment());
        for (int i = 0; i < 6; i++) {
            Genome g = trace.get(i).assignment().get(0);
            assertEquals("1|1024", g.get("workers") + "|" + g.get("morsel"), "starting point " + i);
        }
        assertTrue(pd.result().note().contains("from 6 starting points"), pd.result().note());
        // the starting points slower than p times the fastest are pruned without a step from them
        assertTrue(pd.result().variants() < 6 + 2 * 40, pd.result().variants() + " measured");
        assertFalse(trace.stream().skip(6).anyMatch(e -> e.assignment().get(0).get("agg").equals("hash")),
                "hash is more than p times slower than shared from the start: no step from it");
    }

    @Test
    void stepsOnlyAlongTheThreadDimensions() {
        TuningSpace space = strategies(g -> true);
        PlateauDescent pd = new PlateauDescent(space, THREADS);
        // what it will ask for next (a GPU compiles those with the first): the starting points after the first
        assertEquals(PlateauDescent.startingPoints(space, space.knobs().stream()
                .filter(k -> THREADS.contains(k.name())).toList()).subList(1, 6), pd.upcoming());
        drive(pd, (g, n) -> strategyCost(g));
        assertEquals(List.of(), pd.upcoming());
        List<TuningResult.Evaluation> trace = pd.result().trace();
        List<Genome> measured = new java.util.ArrayList<>();
        for (int i = 0; i < trace.size(); i++) {
            Genome g = trace.get(i).assignment().get(0);
            if (i >= 6 && !measured.contains(g)) { // a configuration measured before is a finalist
                // one step in workers or morsel from a configuration measured before, its strategy unchanged
                boolean stepped = measured.stream().anyMatch(m -> m.get("simd").equals(g.get("simd"))
                        && m.get("agg").equals(g.get("agg"))
                        && Math.abs(log2(m, "workers") - log2(g, "workers")) + Math.abs(log2(m, "morsel") - log2(g, "morsel")) == 1);
                assertTrue(stepped, "measurement " + i + " " + g + " is no thread step from an earlier one");
            }
            measured.add(g);
        }
        long strategiesMeasured = trace.stream().map(e -> e.assignment().get(0).get("simd") + e.assignment().get(0).get("agg"))
                .distinct().count();
        assertEquals(6, strategiesMeasured);
    }

    @Test
    void startingPointsAreTheValidCombinationsOfTheOtherDimensions() {
        // vector filters need the dense aggregation here: 4 of the 6 combinations are valid
        TuningSpace space = strategies(g -> g.get("simd").equals("scalar") || g.get("agg").equals("dense"));
        List<TuningSpace.Knob> threads = space.knobs().stream().filter(k -> THREADS.contains(k.name())).toList();
        List<Map<Integer, Genome>> starts = PlateauDescent.startingPoints(space, threads);
        assertEquals(4, starts.size());
        assertEquals(space.start(), starts.get(0));
        assertTrue(starts.stream().allMatch(space::valid));
        assertEquals(4, starts.stream().distinct().count());
        assertTrue(starts.stream().allMatch(a -> a.get(0).get("workers").equals("1") && a.get(0).get("morsel").equals("1024")));
        // only thread dimensions: the start assignment alone, as before
        assertEquals(List.of(grid().start()), PlateauDescent.startingPoints(grid(), grid().knobs()));
        assertThrows(IllegalArgumentException.class, () -> new PlateauDescent(space, java.util.Set.of("tpb")));
    }

    /** Two code variants (agg) over a line of morsel sizes; neither time depends on the morsel. */
    static final List<Dimension> TWO_CODES = List.of(Dimension.of("morsel", "1024", "2048", "4096", "8192"),
            Dimension.of("agg", "dense", "shared"));

    @Test
    void aStartingPointPrunedInASlowSpellWinsTheFinalRounds() {
        TuningSpace space = TuningSpace.of(TWO_CODES, Synthetic.genome(TWO_CODES, 1024, "dense"), g -> true);
        Genome sharedStart = Synthetic.genome(TWO_CODES, 1024, "shared");
        // shared is faster (0.8 against 1.0 and up), but its first three blocks fall in a slow spell: 1.2, more than
        // p times dense's, so the descent prunes it as a reference and never steps from it
        PlateauDescent pd = new PlateauDescent(space, java.util.Set.of("morsel"));
        drive(pd, (g, n) -> g.get("agg").equals("dense") ? 1.0 + 0.01 * Math.log(i(g, "morsel") / 1024.0)
                : g.equals(sharedStart) && n < 3 ? 1.2 : 0.8);
        assertEquals(sharedStart, pd.best().get(0));
        assertEquals(0.8, pd.result().bestSeconds(), 1e-12);
        // the finalists: dense's fastest (its start) and two runners-up of dense, then shared's start, which is also
        // shared under dense's fastest thread configuration: four, in five rounds, each in the trace's end
        assertTrue(pd.result().note().contains("4 finalists in 5 rounds"), pd.result().note());
        List<TuningResult.Evaluation> trace = pd.result().trace();
        assertEquals(1, trace.subList(0, trace.size() - 4).stream().map(e -> e.assignment().get(0))
                .filter(g -> g.get("agg").equals("shared")).distinct().count(), "no step from shared during the descent");
    }

    /** Two code variants (order) over a line of morsel sizes; b is the faster at 4096, a at the start's 1024. */
    static final List<Dimension> ORDERS = List.of(Dimension.of("morsel", "1024", "2048", "4096", "8192"),
            Dimension.of("order", "a", "b"));

    static double orders(Genome g, double bAtStart) {
        int m = Integer.numberOfTrailingZeros(i(g, "morsel")) - 10;
        return g.get("order").equals("a") ? new double[] {1.0, 0.9, 0.8, 0.85}[m]
                : new double[] {bAtStart, 0.85, 0.7, 0.8}[m];
    }

    /** The configurations the descent measured: the trace without its last entries, one per finalist. */
    static java.util.Set<Genome> measuredDuringDescent(PlateauDescent pd) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) finalists").matcher(pd.result().note());
        assertTrue(m.find(), pd.result().note());
        int finalists = Integer.parseInt(m.group(1));
        List<TuningResult.Evaluation> trace = pd.result().trace();
        return trace.subList(0, trace.size() - finalists).stream().map(e -> e.assignment().get(0))
                .collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void aStartingPointWithinSOfTheFastestIsDescendedThoughTheOtherDescentWentFurther() {
        TuningSpace space = TuningSpace.of(ORDERS, Synthetic.genome(ORDERS, 1024, "a"), g -> true);
        // b's start is 0.5% slower than a's; a's descent reaches 0.8, more than p times faster than b's start, which
        // the paper's loop would prune; within s of a's start, it is descended too, and reaches 0.7
        PlateauDescent pd = new PlateauDescent(space, java.util.Set.of("morsel"));
        drive(pd, (g, n) -> orders(g, 1.005));
        assertTrue(measuredDuringDescent(pd).contains(Synthetic.genome(ORDERS, 4096, "b")), pd.result().note());
        assertEquals(Synthetic.genome(ORDERS, 4096, "b"), pd.best().get(0));
        assertEquals(0.7, pd.result().bestSeconds(), 1e-12);
    }

    @Test
    void aCodeVariantPrunedAtTheStartsThreadsIsTriedAtTheThreadsTheDescentFound() {
        TuningSpace space = TuningSpace.of(ORDERS, Synthetic.genome(ORDERS, 1024, "a"), g -> true);
        // b's start is 8% slower than a's, beyond s: pruned once a's descent reached 0.8; b at a's 4096 is a finalist
        PlateauDescent pd = new PlateauDescent(space, java.util.Set.of("morsel"));
        drive(pd, (g, n) -> orders(g, 1.08));
        // the finalists: a at 4096 (0.8), a's runners-up at 8192 and 2048, b's start, and b at 4096
        assertTrue(pd.result().note().contains("5 finalists"), pd.result().note());
        assertEquals(java.util.Set.of(Synthetic.genome(ORDERS, 1024, "b")), measuredDuringDescent(pd).stream()
                .filter(g -> g.get("order").equals("b")).collect(java.util.stream.Collectors.toSet()));
        assertEquals(Synthetic.genome(ORDERS, 4096, "b"), pd.best().get(0));
        assertEquals(0.7, pd.result().bestSeconds(), 1e-12);
        // b at 4096 ran only in the final rounds, and counts as a variant run
        assertEquals(measuredDuringDescent(pd).size() + 1, pd.result().variants());
    }

    /** Configurations with one worker that the descent measured, where one worker takes {@code slower} times two. */
    static long oneWorkerMeasured(double slower) {
        List<Dimension> dims = List.of(Dimension.of("workers", "1", "2"),
                Dimension.of("morsel", "1024", "2048", "4096", "8192", "16384", "32768"));
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 2, 1024), g -> true);
        // two workers: a plateau of morsel sizes, every one within s of the next
        PlateauDescent pd = new PlateauDescent(space);
        drive(pd, (g, n) -> i(g, "workers") == 1 ? slower : 1.0 - 0.001 * log2(g, "morsel"));
        assertEquals("2", pd.best().get(0).get("workers"));
        assertEquals(Synthetic.genome(dims, 2, 32768), pd.best().get(0));
        return measuredDuringDescent(pd).stream().filter(g -> i(g, "workers") == 1).count();
    }

    @Test
    void aStepThatLostByHalfAgainIsNotTakenAgainInItsCodeVariant() {
        // one worker, 1.9x slower: measured from the first reference only, not from each morsel size of the plateau
        assertEquals(1, oneWorkerMeasured(1.9));
        // 1.3x slower is not that far: measured again from the other references
        assertTrue(oneWorkerMeasured(1.3) > 3);
    }

    @Test
    void aConfigurationMeasuredFastestByLuckLosesTheFinalRounds() {
        List<Dimension> line = List.of(Dimension.of("x", "0", "1", "2", "3"));
        TuningSpace space = TuningSpace.of(line, Synthetic.genome(line, 0), g -> true);
        // x=2 runs its first blocks in a quiet spell (0.7) and is truly 1.2; x=1 is truly the fastest
        double[] t = {1.5, 1.0, 1.2, 1.4};
        PlateauDescent pd = new PlateauDescent(space);
        drive(pd, (g, n) -> i(g, "x") == 2 && n < 3 ? 0.7 : t[i(g, "x")]);
        assertEquals(Synthetic.genome(line, 1), pd.best().get(0));
        assertEquals(1.0, pd.result().bestSeconds(), 1e-12);
        // x=2 measured 0.7 during the descent, x=1 1.0: x=2 is what plain Algorithm 1 would have kept
        assertTrue(pd.result().trace().stream().anyMatch(e -> i(e.assignment().get(0), "x") == 2
                && Math.abs(e.seconds() - 0.7) < 1e-12));
    }

    @Test
    void saysItComparesFinalistsOnlyDuringTheFinalRounds() {
        PlateauDescent pd = new PlateauDescent(grid());
        int finalBlocks = 0;
        while (!pd.converged()) {
            boolean before = pd.comparingFinalists();
            pd.observe(pd.next(), bowl(pd.next().get(0)));
            finalBlocks += before ? 1 : 0;
            // once comparing, it compares until it has converged
            assertTrue(!before || pd.comparingFinalists() || pd.converged());
        }
        assertEquals(FINALS, finalBlocks);
        assertFalse(pd.comparingFinalists());
        assertFalse(new OnlinePool(grid(), 8, 1, OnlinePool.MUTATION).query().comparingFinalists());
    }

    static void drive(PlateauDescent pd, Synthetic.BlockCost cost) {
        InQueryTuning.BlockSource src = Synthetic.blocks(7, cost);
        int runs = 0;
        while (!pd.converged() && runs++ < 1000) {
            src.run(pd);
        }
        assertTrue(pd.converged());
    }
}
