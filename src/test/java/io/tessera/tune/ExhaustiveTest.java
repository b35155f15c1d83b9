package io.tessera.tune;

import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import static io.tessera.tune.Synthetic.i;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExhaustiveTest {

    static final List<Dimension> DIMS = List.of(Synthetic.numeric("a", 5), Synthetic.numeric("b", 6),
            Dimension.of("c", "x", "y", "z"));
    static final Predicate<Genome> VALID = g -> !(i(g, "a") == 4 && g.get("c").equals("z"));
    static final ToDoubleFunction<Genome> COST = g -> 1 + 0.1 * Math.pow(i(g, "a") - 2, 2)
            + 0.05 * Math.pow(i(g, "b") - 4, 2) + (g.get("c").equals("y") ? 0 : 0.3);

    static TuningSpace space() {
        return TuningSpace.of(DIMS, Synthetic.genome(DIMS, 0, 0, "x"), VALID);
    }

    @Test
    void measuresEveryValidVariantOnceAndFindsTheOptimum() {
        Set<Genome> measured = new HashSet<>();
        Objective counting = Objective.of(a -> {
            measured.add(a.get(0));
            assertTrue(VALID.test(a.get(0)), "measured an invalid variant: " + a);
            return COST.applyAsDouble(a.get(0));
        });
        TuningResult r = new Exhaustive(1000, 1000).search(space(), counting);
        assertEquals(5 * 6 * 3 - 6, r.variants());
        assertEquals(r.variants(), measured.size());
        assertEquals(90, r.spaceSize());
        assertEquals(Synthetic.genome(DIMS, 2, 4, "y"), r.best().get(0));
        assertEquals(1.0, r.bestSeconds(), 1e-12);
        double all = measured.stream().mapToDouble(COST).sum();
        double top5 = measured.stream().mapToDouble(COST).sorted().limit(5).sum();
        assertEquals(all + Exhaustive.CONFIRM_ROUNDS * top5, r.costSeconds(), 1e-9, "the first pass and the confirmation");
        assertEquals(r.variants(), r.trace().size());
        assertEquals(1.0, r.trace().get(r.trace().size() - 1).bestSoFar(), 1e-12);
        assertTrue(r.note().contains("84 valid of 90") && r.note().contains("the 5 fastest confirmed"), r.note());
        TuningResult once = new Exhaustive(1000, 1000, 1, 0).search(space(), Synthetic.objective(COST));
        assertEquals(all, once.costSeconds(), 1e-9, "without confirmation every variant is measured once");
    }

    @Test
    void confirmationUndoesALuckyFirstMeasurement() {
        // the first measurement of a = 3, b = 4, c = y is low by luck; measured again it is slower than the optimum
        Genome lucky = Synthetic.genome(DIMS, 3, 4, "y");
        Set<Genome> once = new HashSet<>();
        Objective noisy = Objective.of(a -> a.get(0).equals(lucky) && once.add(lucky) ? 0.5 : COST.applyAsDouble(a.get(0)));
        TuningResult r = new Exhaustive(1000, 1000).search(space(), noisy);
        assertEquals(Synthetic.genome(DIMS, 2, 4, "y"), r.best().get(0));
        assertEquals(1.0, r.bestSeconds(), 1e-12);
        assertTrue(r.note().endsWith("#2 won"), r.note());
        once.clear();
        TuningResult fooled = new Exhaustive(1000, 1000, 1, 0).search(space(), noisy);
        assertEquals(lucky, fooled.best().get(0), "a single pass takes the lucky one");
    }

    @Test
    void pruningCutsSlowRunsButKeepsTheOptimum() {
        TuningResult full = new Exhaustive(1000, 1000).search(space(), Synthetic.objective(COST));
        TuningResult pruned = new Exhaustive(1.2, 1000).search(space(), Synthetic.objective(COST));
        assertEquals(full.best(), pruned.best());
        assertEquals(full.variants(), pruned.variants());
        assertTrue(pruned.costSeconds() < full.costSeconds(), pruned.costSeconds() + " vs " + full.costSeconds());
        long cut = pruned.trace().stream().filter(TuningResult.Evaluation::pruned).count();
        assertTrue(cut > 0);
        for (TuningResult.Evaluation e : pruned.trace()) {
            double trueCost = COST.applyAsDouble(e.assignment().get(0));
            if (e.pruned()) {
                assertTrue(trueCost > e.seconds() - 1e-12, "a pruned run's time is a lower bound");
            } else {
                assertEquals(trueCost, e.seconds(), 1e-12);
            }
        }
        // a time limit per variant applies from the first measurement on
        TuningResult limited = new Exhaustive(1000, 1.5).search(space(), Synthetic.objective(COST));
        assertTrue(limited.trace().stream().allMatch(e -> e.seconds() <= 1.5 + 1e-12));
        assertEquals(full.best(), limited.best());
    }

    @Test
    void failsWhenEveryVariantRunsPastTheLimit() {
        assertThrows(IllegalStateException.class, () -> new Exhaustive(2, 0.5).search(space(), Synthetic.objective(COST)));
        assertThrows(IllegalArgumentException.class, () -> new Exhaustive(1.0, 1));
    }

    @Test
    void enumerationVariesTheFirstKnobFastestAndSkipsInvalidOnes() {
        List<Map<Integer, Genome>> all = space().all();
        assertEquals(84, all.size());
        assertEquals(Synthetic.genome(DIMS, 0, 0, "x"), all.get(0).get(0));
        assertEquals(Synthetic.genome(DIMS, 1, 0, "x"), all.get(1).get(0));
        assertFalse(all.stream().anyMatch(a -> !VALID.test(a.get(0))));
    }
}
