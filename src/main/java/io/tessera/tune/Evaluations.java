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
        keep(a, m, m);
        return m.seconds();
    }

    /**
     * Measures {@code a} once more and keeps the faster of its measurements (an unpruned one over a pruned one);
     * measures it for the first time when it was never measured. The cost counts, the variant does not again.
     */
    public double measureAgain(Map<Integer, Genome> a, double limitSeconds) {
        Objective.Measurement old = seen.get(a);
        if (old == null) {
            return measure(a, limitSeconds);
        }
        Objective.Measurement m = objective.measure(space.complete(a), limitSeconds);
        boolean faster = !m.pruned() && (old.pruned() || m.seconds() < old.seconds());
        Objective.Measurement kept = faster ? m : old;
        keep(a, kept, m);
        return kept.seconds();
    }

    /** Keeps {@code kept} as {@code a}'s measurement after measurement {@code m}, whose cost and trace entry count. */
    private void keep(Map<Integer, Genome> a, Objective.Measurement kept, Objective.Measurement m) {
        seen.put(a, kept);
        cost += m.costSeconds();
        if (!kept.pruned() && kept.seconds() < bestSeconds) {
            bestSeconds = kept.seconds();
            best = a;
        }
        trace.add(new TuningResult.Evaluation(trace.size(), a, m.seconds(), m.pruned(), cost, bestSeconds));
    }

    /**
     * Tells the objective which of these assignments come next (those not measured yet), so that it can compile
     * them together; the time that takes counts as cost.
     */
    public void prepare(List<Map<Integer, Genome>> next) {
        List<Map<Integer, Genome>> fresh = new ArrayList<>();
        for (Map<Integer, Genome> a : next) {
            if (a != null && !seen.containsKey(a)) {
                fresh.add(space.complete(a));
            }
        }
        if (!fresh.isEmpty()) {
            cost += objective.prepare(fresh);
        }
    }

    /**
     * Measures each candidate again, {@code rounds} times, interleaved (one of each per round), and returns each
     * one's median. The first measurement of the fastest of many noisy variants is likely low by luck; these are
     * not. Their cost counts.
     */
    public double[] confirm(List<Map<Integer, Genome>> candidates, int rounds) {
        double[][] t = new double[candidates.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < candidates.size(); i++) {
                Objective.Measurement m = objective.measure(space.complete(candidates.get(i)), Double.POSITIVE_INFINITY);
                cost += m.costSeconds();
                t[i][r] = m.seconds();
            }
        }
        double[] out = new double[candidates.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Remeasure.median(t[i]);
        }
        return out;
    }

    /** Every measurement so far, in order. */
    public List<TuningResult.Evaluation> trace() {
        return List.copyOf(trace);
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
        return result(strategy, chosen, m.seconds(), note);
    }

    /** The result choosing {@code chosen} with its time {@code seconds} (e.g. a confirmed median). */
    public TuningResult result(String strategy, Map<Integer, Genome> chosen, double seconds, String note) {
        return new TuningResult(strategy, chosen, seconds, seen.size(), cost, space.size(), trace, note);
    }
}
