package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.Map;

/**
 * Measures every valid assignment of the space. A measurement stops at {@code prune} times the best time so far,
 * and never runs longer than {@code limitSeconds}: such a variant counts as pruned, its time a lower bound.
 */
public final class Exhaustive implements SearchStrategy {

    public static final String NAME = "exhaustive";
    public static final double DEFAULT_PRUNE = 3.0;
    public static final double DEFAULT_LIMIT_SECONDS = 10.0;

    private final double prune;
    private final double limitSeconds;

    public Exhaustive() {
        this(DEFAULT_PRUNE, DEFAULT_LIMIT_SECONDS);
    }

    public Exhaustive(double prune, double limitSeconds) {
        if (!(prune > 1)) {
            throw new IllegalArgumentException("the pruning factor must exceed 1, got " + prune);
        }
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
        int pruned = 0;
        int n = 0;
        for (Map<Integer, Genome> a : space.all()) {
            double limit = ev.limit(prune, limitSeconds);
            if (ev.measure(a, limit) >= limit) {
                pruned++;
            }
            n++;
        }
        if (ev.best() == null) {
            throw new IllegalStateException("every variant ran past the limit of " + limitSeconds + " s");
        }
        return ev.result(NAME, ev.best(), n + " valid of " + space.size() + " combinations, " + pruned
                + " pruned (over " + prune + "x the best so far or " + limitSeconds + " s)");
    }
}
