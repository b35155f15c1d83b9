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
}
