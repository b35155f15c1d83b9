package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The variant-selection paper's online selector: a working pool of 8 to 16 assignments; within a query, vw-greedy
 * picks the assignment of each block (every member first runs {@code initBlocks} blocks, then the fastest known
 * runs, and every {@code period} blocks a random member runs once so that knowledge does not go stale); between
 * queries, {@link #evolve} keeps the two fastest members and breeds the others from parents picked with
 * probability proportional to their speed, by uniform crossover and, rarely, a mutation.
 */
public final class OnlinePool {

    public static final String NAME = "online-pool";
    public static final int DEFAULT_SIZE = 8;
    public static final int INIT_BLOCKS = 2;
    public static final int PERIOD = 16;
    public static final double MUTATION = 0.1;
    /** Observations kept per member; the estimate is their minimum (block times only err upwards). */
    static final int MEMORY = 3;

    private final TuningSpace space;
    private final int size;
    private final Random random;
    private final double mutation;
    private final List<Map<Integer, Genome>> pool = new ArrayList<>();
    private final Map<Map<Integer, Genome>, Deque<Double>> seen = new HashMap<>();
    private final Set<Map<Integer, Genome>> everMeasured = new HashSet<>();
    private final List<TuningResult.Evaluation> trace = new ArrayList<>();
    private final List<Map<Integer, Genome>> universe;
    private double cost;
    private int generation;

    public OnlinePool(TuningSpace space, long seed) {
        this(space, DEFAULT_SIZE, seed, MUTATION);
    }

    /** A pool of {@code size} members (fewer when the space has fewer valid assignments): the start and random ones. */
    public OnlinePool(TuningSpace space, int size, long seed, double mutation) {
        if (size < 2) {
            throw new IllegalArgumentException("a pool needs at least two members, got " + size);
        }
        this.space = space;
        this.size = size;
        this.random = new Random(seed);
        this.mutation = mutation;
        this.universe = space.all();
        pool.add(space.start());
        int target = Math.min(size, universe.size());
        while (pool.size() < target) {
            Map<Integer, Genome> a = universe.get(random.nextInt(universe.size()));
            if (!pool.contains(a)) {
                pool.add(a);
            }
        }
    }

    public List<Map<Integer, Genome>> pool() {
        return List.copyOf(pool);
    }

    public int generation() {
        return generation;
    }

    /** The member's estimated block time (the minimum of its recent blocks), infinite when never measured. */
    public double estimate(Map<Integer, Genome> a) {
        Deque<Double> d = seen.get(a);
        if (d == null || d.isEmpty()) {
            return Double.POSITIVE_INFINITY;
        }
        double m = Double.POSITIVE_INFINITY;
        for (double v : d) {
            m = Math.min(m, v);
        }
        return m;
    }

    private int observations(Map<Integer, Genome> a) {
        Deque<Double> d = seen.get(a);
        return d == null ? 0 : d.size();
    }

    /** The fastest member by estimate (the start when nothing was measured). */
    public Map<Integer, Genome> best() {
        Map<Integer, Genome> b = pool.get(0);
        for (Map<Integer, Genome> a : pool) {
            if (estimate(a) < estimate(b)) {
                b = a;
            }
        }
        return b;
    }

    /** The vw-greedy choices of one query over the current pool. */
    public BlockTuner query() {
        return new VwGreedy();
    }

    private final class VwGreedy implements BlockTuner {
        private int blocks;

        @Override
        public Map<Integer, Genome> next() {
            for (Map<Integer, Genome> a : pool) {
                if (observations(a) < INIT_BLOCKS) {
                    return a; // exploration of a member not known yet
                }
            }
            if (++blocks % PERIOD == 0) {
                return pool.get(random.nextInt(pool.size())); // periodic exploration
            }
            return best();
        }

        /** The pool's members: any may run next. */
        @Override
        public List<Map<Integer, Genome>> upcoming() {
            return List.copyOf(pool);
        }

        @Override
        public void observe(Map<Integer, Genome> a, double seconds) {
            Deque<Double> d = seen.computeIfAbsent(a, k -> new ArrayDeque<>());
            d.addLast(seconds);
            if (d.size() > MEMORY) {
                d.removeFirst();
            }
            everMeasured.add(a);
            cost += seconds;
            trace.add(new TuningResult.Evaluation(trace.size(), a, seconds, false, cost, estimate(best())));
        }

        @Override
        public boolean converged() {
            return false;
        }

        @Override
        public Map<Integer, Genome> best() {
            return OnlinePool.this.best();
        }

        @Override
        public TuningResult result() {
            return OnlinePool.this.result();
        }
    }

    /**
     * Between queries: keeps the two fastest members and replaces the others by children of members picked with
     * probability proportional to their speed (uniform crossover, then with probability {@code mutation} one knob
     * set to a random value). Members never measured stay for the next query.
     */
    public void evolve() {
        List<Map<Integer, Genome>> measured = new ArrayList<>();
        List<Map<Integer, Genome>> unmeasured = new ArrayList<>();
        for (Map<Integer, Genome> a : pool) {
            (Double.isInfinite(estimate(a)) ? unmeasured : measured).add(a);
        }
        if (measured.size() < 2) {
            return;
        }
        measured.sort(Comparator.comparingDouble(this::estimate));
        List<Map<Integer, Genome>> parents = List.copyOf(measured);
        Set<Map<Integer, Genome>> next = new LinkedHashSet<>();
        next.add(measured.get(0));
        next.add(measured.get(1));
        next.addAll(unmeasured);
        int target = Math.min(size, universe.size());
        int attempts = 0;
        while (next.size() < target && attempts < 50 * size) {
            attempts++;
            Map<Integer, Genome> child = breed(pick(parents), pick(parents));
            if (child != null && !next.contains(child) && (!everMeasured.contains(child) || attempts > 20 * size)) {
                next.add(child);
            }
        }
        while (next.size() < target) {
            next.add(universe.get(random.nextInt(universe.size())));
        }
        pool.clear();
        pool.addAll(next);
        generation++;
    }

    /** A parent, with probability proportional to 1 / estimated time. */
    private Map<Integer, Genome> pick(List<Map<Integer, Genome>> parents) {
        double total = 0;
        for (Map<Integer, Genome> a : parents) {
            total += 1 / estimate(a);
        }
        double r = random.nextDouble() * total;
        for (Map<Integer, Genome> a : parents) {
            r -= 1 / estimate(a);
            if (r <= 0) {
                return a;
            }
        }
        return parents.get(parents.size() - 1);
    }

    private Map<Integer, Genome> breed(Map<Integer, Genome> x, Map<Integer, Genome> y) {
        Map<Integer, Genome> c = x;
        for (TuningSpace.Knob k : space.knobs()) {
            if (random.nextBoolean()) {
                c = space.with(c, k, space.value(y, k));
            }
        }
        for (TuningSpace.Knob k : space.knobs()) {
            if (random.nextDouble() < mutation) {
                c = space.with(c, k, k.values().get(random.nextInt(k.values().size())));
            }
        }
        return space.valid(c) ? c : null;
    }

    /** The pool's best member, what its blocks cost so far, and every block observed. */
    public TuningResult result() {
        Map<Integer, Genome> b = best();
        return new TuningResult(NAME, b, estimate(b), everMeasured.size(), cost, space.size(), trace,
                "pool of " + pool.size() + ", " + generation + " generation" + (generation == 1 ? "" : "s"));
    }
}
