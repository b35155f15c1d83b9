package io.tessera.tune;

import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import static io.tessera.tune.Synthetic.i;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeatureWiseTest {

    @Test
    void separableCostsConvergeToTheOptimumAtAFractionOfExhaustiveCost() {
        List<Dimension> dims = new ArrayList<>();
        for (int d = 0; d < 6; d++) {
            dims.add(Synthetic.numeric("d" + d, 5));
        }
        int[] opt = {3, 1, 4, 0, 2, 4};
        ToDoubleFunction<Genome> cost = g -> {
            double c = 1;
            for (int d = 0; d < 6; d++) {
                c += (6 - d) * 0.05 * Math.abs(i(g, "d" + d) - opt[d]);
            }
            return c;
        };
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0, 0, 0, 0, 0, 0), g -> true);
        TuningResult fw = new FeatureWise().search(space, Synthetic.objective(cost));
        TuningResult ex = new Exhaustive(1e9, 1e9).search(space, Synthetic.objective(cost));
        assertEquals(ex.best(), fw.best());
        assertEquals(1.0, fw.bestSeconds(), 1e-12);
        assertEquals(15_625, ex.variants());
        // one pass finds it, a second confirms: at most 2 x (5 x 6) measurements, fewer thanks to reuse
        assertTrue(fw.variants() <= 2 * 5 * 6, "variants " + fw.variants());
        assertTrue(fw.note().startsWith("2 passes"), fw.note());
        assertTrue(fw.variants() < 0.05 * ex.variants());
        assertTrue(fw.costSeconds() < 0.05 * ex.costSeconds(), fw.costSeconds() + " vs " + ex.costSeconds());
    }

    /** A code knob (agg) and a thread knob (ipt): shared is the faster at the start's ipt, dense at its own. */
    static final List<Dimension> CODE_AND_THREADS = List.of(Dimension.of("agg", "dense", "shared"),
            Dimension.of("ipt", "1", "2", "4", "8"));

    static double codeAndThreads(Genome g, double sharedAt4) {
        int ipt = i(g, "ipt");
        if (g.get("agg").equals("dense")) {
            return ipt == 8 ? 0.75 : ipt == 4 ? 1.0 : 1.2;
        }
        return ipt == 4 ? sharedAt4 : 2.0;
    }

    @Test
    void retunesTheThreadConfigurationUnderTheLoserOfACloseCodeDecision() {
        TuningSpace space = TuningSpace.of(CODE_AND_THREADS, Synthetic.genome(CODE_AND_THREADS, "dense", 4), g -> true);
        ToDoubleFunction<Genome> cost = g -> codeAndThreads(g, 0.96);
        // one knob at a time: shared (0.96) beats dense (1.0) at ipt=4 by more than the margin; under shared ipt=4
        // stays the fastest, and dense at ipt=4 is slower again: a local optimum
        TuningResult plain = new FeatureWise().search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(CODE_AND_THREADS, "shared", 4), plain.best().get(0));
        // dense lost within 1.1x: ipt scanned under it reaches 8 (0.75), and the passes go on from there
        TuningResult fw = new FeatureWise().retuning(List.of("ipt")).search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(CODE_AND_THREADS, "dense", 8), fw.best().get(0));
        assertEquals(0.75, fw.bestSeconds(), 1e-12);
        assertTrue(fw.note().contains("agg=dense re-tuned, faster"), fw.note());
    }

    @Test
    void keepsItsChoiceWhenTheRunnerUpIsNotFasterUnderItsOwnThreadsAndRetunesNothingAfterAClearDecision() {
        TuningSpace space = TuningSpace.of(CODE_AND_THREADS, Synthetic.genome(CODE_AND_THREADS, "shared", 4), g -> true);
        // shared at 0.70 against dense at 1.0 with ipt=4: not within 1.1x, a clear decision
        TuningResult clear = new FeatureWise().retuning(List.of("ipt"))
                .search(space, Synthetic.objective(g -> codeAndThreads(g, 0.7)));
        assertEquals(Synthetic.genome(CODE_AND_THREADS, "shared", 4), clear.best().get(0));
        assertTrue(!clear.note().contains("re-tuned"), clear.note());
        // shared at 0.70 and dense at 0.75 with ipt=4: close, but dense's own best stays above 0.70 x (1 - margin)
        ToDoubleFunction<Genome> close = g -> g.get("agg").equals("dense") ? (i(g, "ipt") == 4 ? 0.75 : 0.9)
                : codeAndThreads(g, 0.7);
        TuningResult kept = new FeatureWise().retuning(List.of("ipt")).search(space, Synthetic.objective(close));
        assertEquals(Synthetic.genome(CODE_AND_THREADS, "shared", 4), kept.best().get(0));
        assertTrue(kept.note().contains("agg=dense re-tuned, not faster"), kept.note());
    }

    @Test
    void repeatsPassesUntilStableWhenDimensionsInteract() {
        // the best b depends on a; b comes first in importance order, so only a second pass finds b = 3
        List<Dimension> dims = List.of(Synthetic.numeric("b", 5), Synthetic.numeric("a", 5));
        ToDoubleFunction<Genome> cost = g -> 1 + 10 * Math.pow(i(g, "a") - 2, 2)
                + 0.5 * Math.pow(i(g, "b") - (i(g, "a") == 2 ? 3 : 0), 2);
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0, 0), g -> true);
        // no cap on a run: the start costs 41 (a run cut at a cap would count as too slow to try again)
        TuningResult fw = new FeatureWise(FeatureWise.DEFAULT_PASSES, Exhaustive.DEFAULT_PRUNE, 1e9)
                .search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(dims, 3, 2), fw.best().get(0));
        assertEquals(1.0, fw.bestSeconds(), 1e-12);
        assertTrue(fw.note().startsWith("3 passes"), fw.note());
        TuningResult onePass = new FeatureWise(1, 1e9, 1e9).search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(dims, 0, 2), onePass.best().get(0));
    }

    @Test
    void nestedDimensionsAreExploredOnlyUnderAParentValueThatHasThem() {
        // a perfect table does not hash: hash=murmur exists only with ht=linear, where it is the fastest
        List<Dimension> dims = List.of(Synthetic.numeric("workers", 3), Dimension.of("ht", "perfect", "linear"),
                Dimension.of("hash", "mulshift", "murmur"));
        ToDoubleFunction<Genome> cost = g -> (g.get("ht").equals("perfect") ? 1.0
                : g.get("hash").equals("murmur") ? 0.8 : 1.3) + 0.1 * Math.abs(i(g, "workers") - 1);
        java.util.function.Predicate<Genome> valid = g -> !(g.get("ht").equals("perfect") && g.get("hash").equals("murmur"));

        // from a perfect table the hash function is not explored (Hawk's nested modifications): linear with its
        // default hash measured slower, and the hash knob's scan may not move the table it is nested under
        TuningSpace fromPerfect = TuningSpace.of(dims, Synthetic.genome(dims, 0, "perfect", "mulshift"), valid);
        List<Genome> measured = new ArrayList<>();
        TuningResult fw = new FeatureWise().search(fromPerfect, Objective.of(a -> {
            assertTrue(fromPerfect.valid(a), "measured an invalid variant " + a);
            measured.add(a.get(0));
            return cost.applyAsDouble(a.get(0));
        }));
        assertEquals(Synthetic.genome(dims, 1, "perfect", "mulshift"), fw.best().get(0));
        assertTrue(measured.stream().noneMatch(g -> g.get("hash").equals("murmur")), measured.toString());

        // under the parent value that has it (kept: here a perfect table is the slower), the nested knob is scanned
        TuningSpace fromLinear = TuningSpace.of(dims, Synthetic.genome(dims, 0, "linear", "mulshift"), valid);
        TuningResult nested = new FeatureWise(FeatureWise.DEFAULT_PASSES, 1e9, 1e9).search(fromLinear,
                Synthetic.objective(g -> g.get("ht").equals("perfect") ? 1.5 : cost.applyAsDouble(g)));
        assertEquals(Synthetic.genome(dims, 1, "linear", "murmur"), nested.best().get(0));
        assertEquals(0.8, nested.bestSeconds(), 1e-12);
    }

    @Test
    void aLineKnobIsWalkedFromItsValueInTheDirectionThatGetsFaster() {
        // morsel: nine ordered values, fastest at index 6; the walk from 4 measures 3 and 5, then 6 and 7
        List<Dimension> dims = List.of(Synthetic.numeric("code", 2), Synthetic.numeric("morsel", 9));
        ToDoubleFunction<Genome> cost = g -> (i(g, "code") == 1 ? 0.9 : 1.0) * (1 + 0.05 * Math.abs(i(g, "morsel") - 6));
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0, 4), g -> true);
        List<Genome> measured = new ArrayList<>();
        TuningResult walked = new FeatureWise(FeatureWise.DEFAULT_PASSES, 1e9, 1e9).alongLines(List.of("morsel"))
                .search(space, Objective.of(a -> {
                    measured.add(a.get(0));
                    return cost.applyAsDouble(a.get(0));
                }));
        assertEquals(Synthetic.genome(dims, 1, 6), walked.best().get(0));
        // the start, code=1, the start again (code=1 measured faster than its first measurement), morsel 3, 5, 6,
        // 7; the second pass scans code at morsel 6 and re-walks from 6 (5 and 7 known)
        assertEquals(8, measured.size(), measured.toString());
        assertEquals(7, walked.variants());
        assertTrue(measured.stream().noneMatch(g -> i(g, "morsel") < 3 || i(g, "morsel") == 8), measured.toString());
        TuningResult scanned = new FeatureWise(FeatureWise.DEFAULT_PASSES, 1e9, 1e9).search(space, Synthetic.objective(cost));
        assertEquals(walked.best(), scanned.best());
        assertEquals(11, scanned.variants()); // every morsel value measured once
    }

    @Test
    void aLineWalkStaysWhereBothNeighboursAreSlowerAndStopsAtACutNeighbour() {
        List<Dimension> dims = List.of(Synthetic.numeric("morsel", 9));
        // fastest at the start: two neighbours measured, nothing else
        TuningSpace atBest = TuningSpace.of(dims, Synthetic.genome(dims, 4), g -> true);
        TuningResult stay = new FeatureWise().alongLines(List.of("morsel"))
                .search(atBest, Synthetic.objective(g -> 1 + 0.1 * Math.abs(i(g, "morsel") - 4)));
        assertEquals(Synthetic.genome(dims, 4), stay.best().get(0));
        assertEquals(3, stay.variants());
        // index 3 is cut (over 1.25x the start): the walk goes up from 4 and never tries below 3
        ToDoubleFunction<Genome> cliff = g -> i(g, "morsel") <= 3 ? 5.0 : 1 - 0.05 * i(g, "morsel");
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 4), g -> true);
        List<Genome> measured = new ArrayList<>();
        TuningResult up = new FeatureWise().alongLines(List.of("morsel")).search(space, Objective.of(a -> {
            measured.add(a.get(0));
            return cliff.applyAsDouble(a.get(0));
        }));
        assertEquals(Synthetic.genome(dims, 8), up.best().get(0));
        assertTrue(measured.stream().noneMatch(g -> i(g, "morsel") < 3), measured.toString());
    }

    @Test
    void aValueOverTwiceAsFastMakesTheCurrentOneMeasuredAgain() {
        // workers: 2 is the faster (1.0 against 1.2), but the first measurement of the start stalls at 10
        List<Dimension> dims = List.of(Synthetic.numeric("workers", 3), Synthetic.numeric("code", 2));
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 2, 0), g -> true);
        List<Genome> measured = new ArrayList<>();
        TuningResult fw = new FeatureWise(FeatureWise.DEFAULT_PASSES, 1e9, 1e9).search(space, Objective.of(a -> {
            Genome g = a.get(0);
            measured.add(g);
            double t = (i(g, "workers") == 2 ? 1.0 : 1.2) * (i(g, "code") == 1 ? 0.25 : 1.0);
            return measured.size() == 1 ? 10 * t : t;
        }));
        assertEquals(Synthetic.genome(dims, 2, 1), fw.best().get(0));
        // the start three times: first (10), again when workers=0 and 1 measured 1.2 (it is 1.0 and stays), and
        // again when code=1 measured four times faster (1.0 again, and code=1 is truly faster: it replaces it)
        assertEquals(3, measured.stream().filter(g -> g.equals(Synthetic.genome(dims, 2, 0))).count(), measured.toString());
        // measuring again costs time, not a variant
        assertEquals(0.25, fw.bestSeconds(), 1e-12);
        assertEquals(measured.size() - 2, fw.variants());
    }

    @Test
    void theStartsFirstMeasurementIsTakenAgainTheFirstTimeAnotherValueMeasuresFaster() {
        // code=0, the start, is the faster (1.0 against 1.1), but its first measurement carries a warm-up (1.3)
        List<Dimension> dims = List.of(Synthetic.numeric("code", 2), Synthetic.numeric("b", 2));
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0, 0), g -> true);
        List<Genome> measured = new ArrayList<>();
        TuningResult fw = new FeatureWise().search(space, Objective.of(a -> {
            Genome g = a.get(0);
            measured.add(g);
            double t = (i(g, "code") == 0 ? 1.0 : 1.1) * (i(g, "b") == 0 ? 1.0 : 1.2);
            return measured.size() == 1 ? 1.3 * t : t;
        }));
        assertEquals(Synthetic.genome(dims, 0, 0), fw.best().get(0));
        assertEquals(1.0, fw.bestSeconds(), 1e-12);
        // the start twice: first, and again once code=1 measured faster than that; b=1 (1.2) is slower than 1.0,
        // and the start is no longer the first measurement then: not a third time
        assertEquals(List.of(Synthetic.genome(dims, 0, 0), Synthetic.genome(dims, 1, 0), Synthetic.genome(dims, 0, 0),
                Synthetic.genome(dims, 0, 1)), measured);
        assertEquals(3, fw.variants());
        // a search whose start measures truthfully the first time measures nothing twice
        List<Genome> plain = new ArrayList<>();
        new FeatureWise().search(space, Objective.of(a -> {
            plain.add(a.get(0));
            return (i(a.get(0), "code") == 0 ? 1.0 : 1.1) * (i(a.get(0), "b") == 0 ? 1.0 : 1.2);
        }));
        assertEquals(3, plain.size(), plain.toString());
    }

    @Test
    void aValueReplacesTheCurrentOneOnlyWhenFasterByMoreThanTheMargin() {
        // a is 1% faster at 1 (noise-sized: kept at 0, and no pass is spent confirming), b 10% faster at 2
        List<Dimension> dims = List.of(Synthetic.numeric("a", 2), Synthetic.numeric("b", 3));
        ToDoubleFunction<Genome> cost = g -> (i(g, "a") == 1 ? 0.99 : 1.0) * (i(g, "b") == 2 ? 0.9 : 1.0);
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0, 0), g -> true);
        TuningResult fw = new FeatureWise().search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(dims, 0, 2), fw.best().get(0));
        TuningResult exact = new FeatureWise(FeatureWise.DEFAULT_PASSES, 1e9, 1e9, 0).search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(dims, 1, 2), exact.best().get(0));
    }

    @Test
    void aValuesRunsStopAtTheCutFactorAndACutValueIsNotTriedAgain() {
        // b moves in pass 1, so pass 2 scans a again under the new b: only the values that were not cut in pass 1
        List<Dimension> dims = List.of(Synthetic.numeric("a", 4), Synthetic.numeric("b", 2));
        ToDoubleFunction<Genome> cost = g -> new double[] {1.0, 2.0, 1.5, 1.1}[i(g, "a")] * (i(g, "b") == 1 ? 0.8 : 1.0);
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0, 0), g -> true);
        List<Genome> measured = new ArrayList<>();
        List<Double> limits = new ArrayList<>();
        TuningResult fw = new FeatureWise().search(space, (a, limit) -> {
            measured.add(a.get(0));
            limits.add(limit);
            double t = cost.applyAsDouble(a.get(0));
            return t > limit ? new Objective.Measurement(limit, limit, true) : new Objective.Measurement(t, t, false);
        });
        assertEquals(Synthetic.genome(dims, 0, 1), fw.best().get(0));
        // pass 2 tries a=3 (1.1x) again under b=1, not a=1 (2x) or a=2 (1.5x), which were cut at 1.25x in pass 1;
        // the start is measured again once b=1 measured faster than its first measurement
        assertEquals(List.of(Synthetic.genome(dims, 0, 0), Synthetic.genome(dims, 1, 0), Synthetic.genome(dims, 2, 0),
                Synthetic.genome(dims, 3, 0), Synthetic.genome(dims, 0, 1), Synthetic.genome(dims, 0, 0),
                Synthetic.genome(dims, 3, 1)), measured);
        assertEquals(1.25, limits.get(1), 1e-12);
        assertEquals(1.25 * 0.8, limits.get(6), 1e-12);
        assertEquals(2, fw.trace().stream().filter(TuningResult.Evaluation::pruned).count());
        assertTrue(fw.note().startsWith("2 passes"), fw.note());
        assertTrue(fw.costSeconds() < 2 * 1 + 3 * 1.25 + 0.8 + 1.25 * 0.8 + 1e-9, "cut runs cost at most the cut");
    }

    @Test
    void aValueCutInOnePassIsNotTriedInTheNextEvenWhereItWouldHaveWon() {
        // a=1 is cut under b=0 and is the best under b=1; the start is a=0, b=0, and b moves in pass 1, so a=1 is
        // left out of pass 2's scan of a: the rule costs this optimum, which is why it only leaves out what was cut
        List<Dimension> dims = List.of(Synthetic.numeric("a", 2), Synthetic.numeric("b", 2));
        ToDoubleFunction<Genome> cost = g -> i(g, "b") == 0 ? new double[] {1.0, 2.0}[i(g, "a")]
                : new double[] {0.9, 0.5}[i(g, "a")];
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0, 0), g -> true);
        TuningResult fw = new FeatureWise().search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(dims, 0, 1), fw.best().get(0));
        // with a cut factor as large as the spread, a=1 is not cut, so pass 2 tries it and finds the optimum
        TuningResult wide = new FeatureWise(FeatureWise.DEFAULT_PASSES, Exhaustive.DEFAULT_PRUNE,
                Exhaustive.DEFAULT_LIMIT_SECONDS, FeatureWise.DEFAULT_MARGIN, 2.5).search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(dims, 1, 1), wide.best().get(0));
    }

    @Test
    void pruningLimitsSlowMeasurements() {
        List<Dimension> dims = List.of(Synthetic.numeric("a", 8));
        ToDoubleFunction<Genome> cost = g -> i(g, "a") == 5 ? 0.5 : 1 + i(g, "a");
        TuningSpace space = TuningSpace.of(dims, Synthetic.genome(dims, 0), g -> true);
        TuningResult r = new FeatureWise(4, 2, 1e9).search(space, Synthetic.objective(cost));
        assertEquals(Synthetic.genome(dims, 5), r.best().get(0));
        assertTrue(r.trace().stream().anyMatch(TuningResult.Evaluation::pruned));
        assertTrue(r.costSeconds() < 1 + 2 + 3 + 4 + 5 + 0.5 + 7 + 8);
    }
}
