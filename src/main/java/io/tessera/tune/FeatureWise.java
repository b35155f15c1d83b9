package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Hawk's feature-wise learner (Algorithm 1): starting from the start assignment, one knob at a time in
 * importance order, try each of its values with the others fixed and keep the fastest; repeat the pass until it
 * changes nothing or {@code maxPasses} passes ran. A value the constraints exclude with the current values is
 * tried with the nested knobs of its pipeline set to values it allows ({@link TuningSpace#repair}), so a nested
 * dimension is explored only under a parent value that has it. Measurements stop at {@code prune} times the best
 * so far, as in exhaustive search.
 */
public final class FeatureWise implements SearchStrategy {

    public static final String NAME = "feature-wise";
    public static final int DEFAULT_PASSES = 4;

    private final int maxPasses;
    private final double prune;
    private final double limitSeconds;

    public FeatureWise() {
        this(DEFAULT_PASSES, Exhaustive.DEFAULT_PRUNE, Exhaustive.DEFAULT_LIMIT_SECONDS);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds) {
        if (maxPasses < 1) {
            throw new IllegalArgumentException("at least one pass, got " + maxPasses);
        }
        this.maxPasses = maxPasses;
        this.prune = prune;
        this.limitSeconds = limitSeconds;
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
        int passes = 0;
        while (passes < maxPasses) {
            passes++;
            Map<Integer, Genome> last = v;
            for (TuningSpace.Knob k : space.knobs()) {
                double bestTime = Double.POSITIVE_INFINITY;
                Map<Integer, Genome> bestHere = null;
                List<Map<Integer, Genome>> candidates = new ArrayList<>();
                for (String d : k.values()) {
                    candidates.add(space.repair(space.with(v, k, d), k));
                }
                ev.prepare(candidates); // the knob's values compile together
                for (Map<Integer, Genome> w : candidates) {
                    if (w == null) {
                        continue;
                    }
                    double t = ev.measure(w, ev.limit(prune, limitSeconds));
                    if (t < bestTime) {
                        bestTime = t;
                        bestHere = w;
                    }
                }
                if (bestHere != null) {
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
