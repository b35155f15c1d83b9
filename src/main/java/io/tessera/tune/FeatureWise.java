package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * <p>Two refinements keep its cost low where compiling and warming up new code costs several runs of the query
 * (the JVM backend): a value more than {@code revisit} times slower than the knob's fastest value when the knob was
 * last scanned is not tried again in a later pass (a pass re-tries a knob's values because the other knobs moved,
 * which shifts the values by a few per cent, not by a quarter), and a value's runs stop at {@code revisit} times the
 * current value's time (slower than that it cannot replace it).
 */
public final class FeatureWise implements SearchStrategy {

    public static final String NAME = "feature-wise";
    public static final int DEFAULT_PASSES = 4;
    /** How much faster a value must be than the current one to replace it. */
    public static final double DEFAULT_MARGIN = 0.03;
    /** A value this many times slower than the knob's fastest is not tried again, and a run stops there. */
    public static final double DEFAULT_REVISIT = 1.25;

    private final int maxPasses;
    private final double prune;
    private final double limitSeconds;
    private final double margin;
    private final double revisit;

    public FeatureWise() {
        this(DEFAULT_PASSES, Exhaustive.DEFAULT_PRUNE, Exhaustive.DEFAULT_LIMIT_SECONDS);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds) {
        this(maxPasses, prune, limitSeconds, DEFAULT_MARGIN);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds, double margin) {
        this(maxPasses, prune, limitSeconds, margin, DEFAULT_REVISIT);
    }

    public FeatureWise(int maxPasses, double prune, double limitSeconds, double margin, double revisit) {
        if (revisit <= 1) {
            throw new IllegalArgumentException("a revisit factor above 1, got " + revisit);
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
        this.revisit = revisit;
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
        // per knob, its values' times relative to the fastest when the knob was last scanned
        Map<TuningSpace.Knob, Map<String, Double>> lastScan = new HashMap<>();
        int passes = 0;
        while (passes < maxPasses) {
            passes++;
            Map<Integer, Genome> last = v;
            for (TuningSpace.Knob k : space.knobs()) {
                String currentValue = space.value(v, k);
                Map<String, Double> before = lastScan.getOrDefault(k, Map.of());
                Map<String, Map<Integer, Genome>> candidates = new LinkedHashMap<>();
                for (String d : k.values()) {
                    Double relative = before.get(d);
                    if (d.equals(currentValue) || relative == null || relative <= revisit) {
                        candidates.put(d, space.repair(space.with(v, k, d), k));
                    }
                }
                ev.prepare(new ArrayList<>(candidates.values())); // the knob's values compile together
                double currentTime = ev.measure(v, ev.limit(prune, limitSeconds));
                double bestTime = currentTime;
                Map<Integer, Genome> bestHere = v;
                Map<String, Double> times = new HashMap<>();
                for (Map.Entry<String, Map<Integer, Genome>> c : candidates.entrySet()) {
                    Map<Integer, Genome> w = c.getValue();
                    if (w == null) {
                        continue;
                    }
                    double t = ev.measure(w, Math.min(ev.limit(prune, limitSeconds), revisit * currentTime));
                    // a value cut at a limit is slower than it: never close enough to try again
                    times.put(c.getKey(), ev.pruned(w) ? Double.POSITIVE_INFINITY : t);
                    if (t < bestTime) {
                        bestTime = t;
                        bestHere = w;
                    }
                }
                Map<String, Double> scan = new HashMap<>(before);
                for (Map.Entry<String, Double> e : times.entrySet()) {
                    scan.put(e.getKey(), e.getValue() / bestTime);
                }
                lastScan.put(k, scan);
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
