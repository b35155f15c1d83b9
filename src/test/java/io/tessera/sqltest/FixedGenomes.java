package io.tessera.sqltest;

import io.tessera.plan.QueryPlan;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The genomes of a {@code genome dim=value,...} directive: each pipeline's default genome with the given values of
 * the dimensions it has. A value that no pipeline of the query can take is an error, not a silent default run.
 */
final class FixedGenomes {

    private FixedGenomes() {
    }

    static Map<Integer, Genome> apply(JvmVariantSpace space, QueryPlan plan, Map<String, String> values, String where) {
        Set<String> used = new HashSet<>();
        Map<Integer, Genome> out = Genomes.forPlan(space, plan, p -> {
            Genome g = space.defaultGenome(plan, p);
            for (Dimension d : space.dimensions(plan, p)) {
                String v = values.get(d.name());
                if (v != null && d.values().contains(v) && space.valid(plan, p, g.with(d.name(), v))) {
                    g = g.with(d.name(), v);
                    used.add(d.name());
                }
            }
            return g;
        });
        for (String dim : values.keySet()) {
            if (!used.contains(dim)) {
                throw new IllegalArgumentException(where + "no pipeline of the query takes genome value " + dim + "="
                        + values.get(dim));
            }
        }
        return out;
    }
}
