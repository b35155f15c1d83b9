package io.tessera.tune;

import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RemeasureTest {

    static final List<Dimension> LINE = List.of(Dimension.of("x", "0", "1"));

    @Test
    void measuresEachAssignmentWithItsOwnObjectiveInInterleavedRounds() {
        List<String> order = new ArrayList<>();
        // the second objective stands for a second compile of the same genome: a tenth slower
        Objective first = (a, limit) -> {
            order.add("first " + a.get(0).get("x"));
            return new Objective.Measurement(1 + Synthetic.i(a.get(0), "x"), 0, false);
        };
        Objective second = (a, limit) -> {
            order.add("second " + a.get(0).get("x"));
            return new Objective.Measurement(1.1, 0, false);
        };
        Map<Integer, Genome> x0 = Map.of(0, Synthetic.genome(LINE, 0));
        Map<Integer, Genome> x1 = Map.of(0, Synthetic.genome(LINE, 1));
        double[] m = Remeasure.medians(List.of(first, first, second), List.of(x0, x1, x0), 2);
        assertArrayEquals(new double[] {1, 2, 1.1}, m, 1e-12);
        assertEquals(List.of("first 0", "first 1", "second 0", "first 0", "first 1", "second 0"), order);
        assertThrows(IllegalArgumentException.class, () -> Remeasure.medians(List.of(first), List.of(x0, x1), 1));
    }

    @Test
    void spreadsEachAssignmentsRoundsOverItsCompiles() {
        List<String> order = new ArrayList<>();
        // three compiles of one genome, the second a fifth slower: the median over six rounds is the usual time
        List<Objective> compiles = new ArrayList<>();
        for (double t : new double[] {1.0, 1.2, 1.0}) {
            compiles.add((a, limit) -> {
                order.add(a.get(0).get("x") + "@" + t);
                return new Objective.Measurement(t, 0, false);
            });
        }
        Map<Integer, Genome> x0 = Map.of(0, Synthetic.genome(LINE, 0));
        double[] m = Remeasure.mediansOverCompiles(List.of(compiles, List.of(compiles.get(1))), List.of(x0, x0), 6);
        assertArrayEquals(new double[] {1.0, 1.2}, m, 1e-12);
        assertEquals(List.of("0@1.0", "0@1.2", "0@1.2", "0@1.2", "0@1.0", "0@1.2",
                "0@1.0", "0@1.2", "0@1.2", "0@1.2", "0@1.0", "0@1.2"), order);
    }
}
