package io.tessera.tune;

import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Synthetic spaces and costs with known optima, for the strategy tests. */
final class Synthetic {
    private Synthetic() {
    }

    /** Dimension {@code name} with values 0 .. n-1. */
    static Dimension numeric(String name, int n) {
        String[] v = new String[n];
        for (int i = 0; i < n; i++) {
            v[i] = Integer.toString(i);
        }
        return Dimension.of(name, v);
    }

    /** The genome with the given value per dimension, in order. */
    static Genome genome(List<Dimension> dims, Object... values) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < dims.size(); i++) {
            m.put(dims.get(i).name(), values[i].toString());
        }
        return Genome.of("test", m);
    }

    static int i(Genome g, String dim) {
        return Integer.parseInt(g.get(dim));
    }

    /** A cost over the single pipeline's genome. */
    static Objective objective(ToDoubleFunction<Genome> cost) {
        return Objective.of(a -> cost.applyAsDouble(a.get(0)));
    }

    /** Drives a block tuner over synthetic blocks: each block costs {@code cost(genome, n)} for its n-th block. */
    interface BlockCost {
        double seconds(Genome g, int nthBlockOfThisGenome);
    }

    static InQueryTuning.BlockSource blocks(int blocksPerQuery, BlockCost cost) {
        Map<Genome, Integer> counts = new java.util.HashMap<>();
        return tuner -> {
            double total = 0;
            for (int b = 0; b < blocksPerQuery; b++) {
                Map<Integer, Genome> a = tuner.next();
                Genome g = a.get(0);
                int n = counts.merge(g, 1, Integer::sum) - 1;
                double s = cost.seconds(g, n);
                tuner.observe(a, s);
                total += s;
            }
            return total;
        };
    }
}
