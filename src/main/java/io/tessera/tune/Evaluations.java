package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A strategy's measurements of one space: each assignment is measured once (later requests reuse the value), and
 * every measurement is kept with the cost so far, for the result's trace.
 */
public final class Evaluations {

    private final TuningSpace space;
    private final Objective objective;
    private final Map<Map<Integer, Genome>, Objective.Measurement> seen = new HashMap<>();
    private final List<TuningResult.Evaluation> trace = new ArrayList<>();
    private double cost;
    private double bestSeconds = Double.POSITIVE_INFINITY;
    private Map<Integer, Genome> best;

    public Evaluations(TuningSpace space, Objective objective) {
        this.space = space;
        this.objective = objective;
    }

    /** The seconds of assignment {@code a}, measured now or earlier; a pruned one reports its lower bound. */
    public double measure(Map<Integer, Genome> a, double limitSeconds) {
        Objective.Measurement m = seen.get(a);
        if (m != null) {
            return m.seconds();
        }
        m = objective.measure(space.complete(a), limitSeconds);
        seen.put(a, m);
        cost += m.costSeconds();
        if (!m.pruned() && m.seconds() < bestSeconds) {
            bestSeconds = m.seconds();
            best = a;
        }
        trace.add(new TuningResult.Evaluation(trace.size(), a, m.seconds(), m.pruned(), cost, bestSeconds));
        return m.seconds();
    }

    public boolean measured(Map<Integer, Genome> a) {
        return seen.containsKey(a);
    }

    public double bestSeconds() {
        return bestSeconds;
    }

    public Map<Integer, Genome> best() {
        return best;
    }

    public double cost() {
        return cost;
    }

    public int variants() {
        return seen.size();
    }

    /** The limit for the next measurement: {@code prune} times the best so far, at most {@code cap}. */
    public double limit(double prune, double cap) {
        return Math.min(cap, Double.isInfinite(bestSeconds) ? Double.POSITIVE_INFINITY : prune * bestSeconds);
    }

    /** The result choosing {@code chosen} (measured before). */
    public TuningResult result(String strategy, Map<Integer, Genome> chosen, String note) {
        Objective.Measurement m = seen.get(chosen);
        if (m == null) {
            throw new IllegalArgumentException("the chosen assignment was never measured");
        }
        return new TuningResult(strategy, chosen, m.seconds(), seen.size(), cost, space.size(), trace, note);
    }
}
