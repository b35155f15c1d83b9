package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Hawk's feature-wise learner (Algorithm 1): starting from the start assignment, one knob at a time in
 * importance order, try each of its values with the others fixed and keep the fastest; repeat the pass until it
 * changes nothing or {@code maxPasses} passes ran. A value the constraints exclude with the current values is
 * tried with the nested knobs of its pipeline set to values it allows ({@link TuningSpace#repair}), so a nested
 * dimension is explored only under a parent value that has it. Measurements stop at {@code prune} times the best
 * so far, as in exhaustive search. A value replaces the current one only when it is faster by more than
 * {@code margin}: measurements of equal variants differ by a few per cent, and a change that only follows that
 * noise costs a whole further pass to confirm (on SSB SF 1 on the JVM, half the queries took three or four passes,
 * their top variants within a few per cent of each other).
 *
 * <p>A value's runs stop at {@code cut} times the current value's time: slower than that it cannot replace it, and
 * on the JVM a slow value's further runs were a large part of the search's time. A value that was cut so when its
 * knob was last scanned is not tried again in a later pass: a later pass re-scans a knob because other knobs moved
 * since, which moves its values by a few per cent, not by a quarter, and on the JVM each such value of a knob that
 * changes the code is a class to compile and warm up again. (This rule once kept the Vector API's filters out of
 * SSB Q1.2's second pass: the filters of every query shared one JIT profile then, which made them 1.5x slower than
 * scalar ones at the start's morsel size in a process that had run Q1.1 before. Each query compares in its own
 * class since.)
 */
public final class FeatureWise implements SearchStrategy {

    public static final String NAME = "feature-wise";
    public static final int DEFAULT_PASSES = 4;
    /** How much faster a value must be than the current one to replace it. */
    public static final double DEFAULT_MARGIN = 0.03;
    /** A value's runs stop at this many times the current value's time. */
    public static final double DEFAULT_CUT = 1.25;

    private final int maxPasses;
    private final double prune;
    private final double limitSeconds;
    private final double margin;
    private final double cut;

    public FeatureWise() {
        this(DEFAULT_PASSES, Exhaustive.DEFAULT_PRUNE, Exhaustive.DEFAULT_LIMIT_SECONDS);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds) {
        this(maxPasses, prune, limitSeconds, DEFAULT_MARGIN);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds, double margin) {
        this(maxPasses, prune, limitSeconds, margin, DEFAULT_CUT);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds, double margin, double cut) {
        if (cut <= 1) {
            throw new IllegalArgumentException("a cut factor above 1, got " + cut);
        }
        if (maxPasses < 1) {
            throw new IllegalArgumentException("at least one pass, got " + maxPasses);
        }
        if (margin < 0 || margin >= 1) {
            throw new IllegalArgumentException("a margin in [0, 1), got " + margin);
        }
        this.maxPasses = maxPasses;
        this.prune = prune;
        this.limitSeconds = limitSeconds;
        this.margin = margin;
        this.cut = cut;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public TuningResult search(TuningSpace space, Objective objective) {
        Evaluations ev = new Evaluations(space, objective);
        Map<Integer, Genome> v = space.start();
        ev.measure(v, limitSeconds);
        // per knob, the values cut at cut times the current value's time when the knob was last scanned
        Map<TuningSpace.Knob, Set<String>> slow = new HashMap<>();
        int passes = 0;
        while (passes < maxPasses) {
            passes++;
            Map<Integer, Genome> last = v;
            for (TuningSpace.Knob k : space.knobs()) {
                Set<String> slowBefore = slow.getOrDefault(k, Set.of());
                Map<String, Map<Integer, Genome>> candidates = new LinkedHashMap<>();
                for (String d : k.values()) {
                    if (!slowBefore.contains(d)) {
                        candidates.put(d, space.repair(space.with(v, k, d), k));
                    }
                }
                ev.prepare(new ArrayList<>(candidates.values())); // the knob's values compile together
                double currentTime = ev.measure(v, ev.limit(prune, limitSeconds));
                double bestTime = currentTime;
                Map<Integer, Genome> bestHere = v;
                Set<String> slowNow = new HashSet<>();
                for (Map.Entry<String, Map<Integer, Genome>> c : candidates.entrySet()) {
                    Map<Integer, Genome> w = c.getValue();
                    if (w == null) {
                        continue;
                    }
                    double cap = cut * currentTime;
                    double t = ev.measure(w, Math.min(ev.limit(prune, limitSeconds), cap));
                    if (t >= cap) {
                        slowNow.add(c.getKey());
                    }
                    if (t < bestTime) {
                        bestTime = t;
                        bestHere = w;
                    }
                }
                slow.put(k, slowNow);
                if (bestTime < currentTime * (1 - margin)) {
                    v = bestHere;
                }
            }
            if (v.equals(last)) {
                break;
            }
        }
        return ev.result(NAME, v, passes + " pass" + (passes == 1 ? "" : "es"));
    }
}
