package io.tessera.sqltest;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The genomes of a {@code genome dim=value,...} directive: each pipeline's default genome with the given values of
 * the dimensions it has. Where a given value is not valid with another dimension's default (a cuckoo table with the
 * atomic build that a perfect table's default has), that other dimension takes a value that is. A value that no
 * pipeline of the query can take is an error, not a silent default run.
 */
final class FixedGenomes {

    private FixedGenomes() {
    }

    static Map<Integer, Genome> apply(JvmVariantSpace space, QueryPlan plan, Map<String, String> values, String where) {
        Set<String> used = new HashSet<>();
        Map<Integer, Genome> out = Genomes.forPlan(space, plan, p -> {
            Genome g = space.defaultGenome(plan, p);
            List<Dimension> dims = space.dimensions(plan, p);
            Map<String, String> given = new LinkedHashMap<>();
            for (Dimension d : dims) {
                String v = values.get(d.name());
                if (v != null && d.values().contains(v)) {
                    given.put(d.name(), v);
                }
            }
            Genome all = g;
            for (Map.Entry<String, String> e : given.entrySet()) {
                all = all.with(e.getKey(), e.getValue());
            }
            Genome fixed = repaired(space, plan, p, all, given.keySet());
            if (fixed != null) {
                used.addAll(given.keySet());
                return fixed;
            }
            for (Map.Entry<String, String> e : given.entrySet()) {
                Genome next = repaired(space, plan, p, g.with(e.getKey(), e.getValue()), Set.of(e.getKey()));
                if (next != null) {
                    g = next;
                    used.add(e.getKey());
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

    /** {@code g}, or {@code g} with one dimension outside {@code kept} changed so that it is valid; null: neither. */
    private static Genome repaired(JvmVariantSpace space, QueryPlan plan, Pipeline p, Genome g, Set<String> kept) {
        if (space.valid(plan, p, g)) {
            return g;
        }
        for (Dimension d : space.dimensions(plan, p)) {
            if (kept.contains(d.name())) {
                continue;
            }
            for (String v : d.values()) {
                if (space.valid(plan, p, g.with(d.name(), v))) {
                    return g.with(d.name(), v);
                }
            }
        }
        return null;
    }
}
