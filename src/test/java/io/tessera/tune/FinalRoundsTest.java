package io.tessera.tune;

import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FinalRoundsTest {

    static final List<Dimension> LINE = List.of(Dimension.of("x", "0", "1", "2"));

    static Map<Integer, Genome> x(int v) {
        return Map.of(0, Synthetic.genome(LINE, v));
    }

    @Test
    void runsOneBlockOfEachFinalistPerRoundEachRoundStartingOneLater() {
        FinalRounds r = new FinalRounds(List.of(x(0), x(1), x(2)), 2);
        List<Map<Integer, Genome>> order = new ArrayList<>();
        while (!r.done()) {
            Map<Integer, Genome> a = r.next();
            order.add(a);
            r.observe(a, 1.0);
        }
        assertEquals(List.of(x(0), x(1), x(2), x(1), x(2), x(0)), order);
    }

    @Test
    void ranksByTheMedianSoThatOneSlowBlockDoesNotDecide() {
        FinalRounds r = new FinalRounds(List.of(x(0), x(1)), 5);
        int[] blocks = {0, 0};
        while (!r.done()) {
            Map<Integer, Genome> a = r.next();
            int v = Integer.parseInt(a.get(0).get("x"));
            // x=0 takes 1.0 but for one 9.0 block; x=1 takes 1.1 throughout: x=0's mean is worse, its median not
            double s = v == 0 ? (blocks[0] == 2 ? 9.0 : 1.0) : 1.1;
            blocks[v]++;
            r.observe(a, s);
        }
        assertEquals(0, r.fastest());
        assertEquals(1.0, r.median(0), 1e-12);
        assertEquals(1.1, r.median(1), 1e-12);
        assertEquals(List.of(5, 5), List.of(blocks[0], blocks[1]));
    }

    @Test
    void ignoresABlockOfAnotherAssignment() {
        FinalRounds r = new FinalRounds(List.of(x(0), x(1)), 1);
        r.observe(x(2), 0.1);
        r.observe(x(1), 0.1); // not its turn
        assertEquals(x(0), r.next());
        assertTrue(Double.isNaN(r.median(1)));
        r.observe(x(0), 2.0);
        r.observe(x(1), 1.0);
        assertTrue(r.done());
        assertEquals(1, r.fastest());
        r.observe(x(0), 0.1); // after the last round
        assertEquals(2.0, r.median(0), 1e-12);
        assertFalse(r.finalists().isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new FinalRounds(List.of(), 5));
    }

    /** Runs racing rounds to the end, finalist x=v's k-th block taking {@code blocks.get(v)[k]} (its last value after). */
    static FinalRounds race(List<double[]> blocks) {
        List<Map<Integer, Genome>> fs = new ArrayList<>();
        for (int v = 0; v < blocks.size(); v++) {
            fs.add(x(v));
        }
        FinalRounds r = new FinalRounds(fs, 5, 20);
        int[] k = new int[blocks.size()];
        while (!r.done()) {
            Map<Integer, Genome> a = r.next();
            int v = Integer.parseInt(a.get(0).get("x"));
            double[] b = blocks.get(v);
            r.observe(a, b[Math.min(k[v]++, b.length - 1)]);
        }
        return r;
    }

    @Test
    void finalistsTheirBlocksCannotTellApartRaceOnUntilTheyCan() {
        // x=0 takes 1.0 and x=1 1.05, but x=0's first five blocks fall in a noisy spell: its median 1.10 against
        // x=1's 1.02, 0.08 apart with a standard error of about 0.07; x=2, 1.5 throughout, is out of the race
        FinalRounds r = race(List.of(new double[] {1.15, 1.12, 1.10, 0.90, 0.95, 1.0},
                new double[] {1.05, 1.02, 1.00, 1.20, 0.98, 1.05}, new double[] {1.5}));
        assertEquals(0, r.fastest());
        // a second stage of five rounds tells them apart (x=0's median 1.0, x=1's 1.05, both now steady)
        assertEquals(10, r.rounds());
        assertEquals(2, r.raced());
        assertEquals(1.0, r.median(0), 1e-12);
        assertEquals(1.05, r.median(1), 1e-12);
        assertEquals(1.5, r.median(2), 1e-12);
    }

    @Test
    void preciseBlocksDecideInTheFirstRoundsAndNoiseRacesAtMostToTheLimit() {
        // blocks within 0.2%: 0.5% apart is told apart at once
        FinalRounds precise = race(List.of(new double[] {1.000, 1.002, 0.999, 1.001, 1.000},
                new double[] {1.005, 1.006, 1.004, 1.007, 1.005}));
        assertEquals(5, precise.rounds());
        assertEquals(0, precise.raced());
        assertEquals(0, precise.fastest());
        // equal finalists whose blocks never stop spreading race to the limit, and no further
        double[] spread = {0.8, 1.2, 1.0, 0.9, 1.1};
        double[] noisy = java.util.stream.IntStream.range(0, 40).mapToDouble(i -> spread[i % spread.length]).toArray();
        FinalRounds tied = race(List.of(noisy, noisy));
        assertEquals(20, tied.rounds());
        assertEquals(2, tied.raced());
        assertThrows(IllegalArgumentException.class, () -> new FinalRounds(List.of(x(0)), 5, 4));
    }
}
