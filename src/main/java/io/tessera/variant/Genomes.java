package io.tessera.variant;

import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;

/**
 * Enumerating, counting and sampling the genomes of any {@link VariantSpace}: the product of a pipeline's free
 * dimensions filtered by the space's constraints, a small sample that uses every value of every dimension, and
 * whole-plan genome maps with the derived dimensions filled in.
 */
public final class Genomes {

    /** The most genomes {@link #all} walks through for one pipeline. */
    public static final long MAX_PRODUCT = 50_000_000L;

    private Genomes() {
    }

    /** The size of the product of the pipeline's free dimensions (valid or not). */
    public static BigInteger productSize(VariantSpace space, QueryPlan plan, Pipeline p) {
        BigInteger n = BigInteger.ONE;
        for (Dimension d : space.dimensions(plan, p)) {
            n = n.multiply(BigInteger.valueOf(d.values().size()));
        }
        return n;
    }

    /** Every combination of the free dimensions' values, first dimension varying slowest (valid or not). */
    public static Iterable<Genome> product(VariantSpace space, QueryPlan plan, Pipeline p) {
        List<Dimension> dims = space.dimensions(plan, p);
        if (productSize(space, plan, p).compareTo(BigInteger.valueOf(MAX_PRODUCT)) > 0) {
            throw new IllegalStateException("pipeline " + p.id() + " has " + productSize(space, plan, p)
                    + " combinations, more than can be enumerated (" + MAX_PRODUCT + ")");
        }
        return () -> new Iterator<>() {
            private final int[] at = new int[dims.size()];
            private boolean done = false;

            @Override
            public boolean hasNext() {
                return !done;
            }

            @Override
            public Genome next() {
                if (done) {
                    throw new NoSuchElementException();
                }
                Map<String, String> m = new LinkedHashMap<>();
                for (int i = 0; i < at.length; i++) {
                    m.put(dims.get(i).name(), dims.get(i).values().get(at[i]));
                }
                int i = at.length - 1;
                while (i >= 0 && ++at[i] == dims.get(i).values().size()) {
                    at[i--] = 0;
                }
                done = i < 0;
                return Genome.of(space.backend(), m);
            }
        };
    }

    /** Every valid genome of the pipeline (its free dimensions only), in product order. */
    public static List<Genome> all(VariantSpace space, QueryPlan plan, Pipeline p) {
        List<Genome> out = new ArrayList<>();
        for (Genome g : product(space, plan, p)) {
            if (space.valid(plan, p, g)) {
                out.add(g);
            }
        }
        return out;
    }

    /** The number of valid genomes of the pipeline. */
    public static long count(VariantSpace space, QueryPlan plan, Pipeline p) {
        long n = 0;
        for (Genome g : product(space, plan, p)) {
            if (space.valid(plan, p, g)) {
                n++;
            }
        }
        return n;
    }

    /**
     * A small set of valid genomes in which every value of every free dimension occurs at least once (every value
     * that occurs in some valid genome). Greedy: each next genome is the valid one that covers the most values not
     * covered yet, ties broken towards a rotating target (the k-th genome aims at each dimension's k-th value), so
     * the sample also varies combinations. Deterministic.
     */
    public static List<Genome> coveringSample(VariantSpace space, QueryPlan plan, Pipeline p) {
        List<Dimension> dims = space.dimensions(plan, p);
        List<Genome> valid = all(space, plan, p);
        Set<String> uncovered = new LinkedHashSet<>();
        for (Genome g : valid) {
            for (Dimension d : dims) {
                uncovered.add(d.name() + "=" + g.get(d.name()));
            }
        }
        List<Genome> sample = new ArrayList<>();
        for (int k = 0; !uncovered.isEmpty(); k++) {
            Genome best = null;
            long bestScore = -1;
            for (Genome g : valid) {
                long news = 0;
                long agree = 0;
                for (Dimension d : dims) {
                    String v = g.get(d.name());
                    news += uncovered.contains(d.name() + "=" + v) ? 1 : 0;
                    agree += v.equals(d.values().get(k % d.values().size())) ? 1 : 0;
                }
                long score = news * (dims.size() + 1) + agree;
                if (score > bestScore) {
                    bestScore = score;
                    best = g;
                }
            }
            sample.add(best);
            for (Dimension d : dims) {
                uncovered.remove(d.name() + "=" + best.get(d.name()));
            }
        }
        if (sample.isEmpty()) {
            sample.add(valid.isEmpty() ? space.defaultGenome(plan, p) : valid.get(0));
        }
        return sample;
    }

    /**
     * The genome of every pipeline of the plan, chosen per pipeline (free dimensions) and completed with the
     * derived ones, in pipeline order (builds before their probes).
     */
    public static Map<Integer, Genome> forPlan(VariantSpace space, QueryPlan plan, Function<Pipeline, Genome> choose) {
        Map<Integer, Genome> out = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            out.put(p.id(), space.complete(plan, p, choose.apply(p), out));
        }
        return out;
    }

    /** The space's default genome of every pipeline, free dimensions only, by pipeline id. */
    public static Map<Integer, Genome> freeDefaults(VariantSpace space, QueryPlan plan) {
        Map<Integer, Genome> out = new java.util.TreeMap<>();
        for (Pipeline p : plan.pipelines()) {
            out.put(p.id(), space.defaultGenome(plan, p));
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** The space's default genome of every pipeline, completed. */
    public static Map<Integer, Genome> defaults(VariantSpace space, QueryPlan plan) {
        return forPlan(space, plan, p -> space.defaultGenome(plan, p));
    }

    /**
     * Whole-plan genome maps that together use every value of every free dimension of every pipeline: map k gives
     * pipeline p genome (k + p) of its {@link #coveringSample}, cycling through shorter samples (the offset mixes
     * the pipelines' choices, e.g. different table kinds for the builds of one query).
     */
    public static List<Map<Integer, Genome>> coveringPlans(VariantSpace space, QueryPlan plan) {
        Map<Integer, List<Genome>> samples = new HashMap<>();
        int n = 1;
        for (Pipeline p : plan.pipelines()) {
            List<Genome> s = coveringSample(space, plan, p);
            samples.put(p.id(), s);
            n = Math.max(n, s.size());
        }
        List<Map<Integer, Genome>> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            int kk = k;
            out.add(forPlan(space, plan, p -> {
                List<Genome> s = samples.get(p.id());
                return s.get((kk + p.id()) % s.size());
            }));
        }
        return out;
    }
}
