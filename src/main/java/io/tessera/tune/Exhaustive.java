package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Measures every valid assignment of the space. A measurement stops at {@code prune} times the best time so far,
 * and never runs longer than {@code limitSeconds}: such a variant counts as pruned, its time a lower bound. Then
 * the {@code confirmTop} fastest are measured again in {@code confirmRounds} interleaved rounds and the lowest
 * median wins: with hundreds of noisy measurements, the single fastest is likely one that was lucky.
 */
public final class Exhaustive implements SearchStrategy {

    public static final String NAME = "exhaustive";
    public static final double DEFAULT_PRUNE = 3.0;
    public static final double DEFAULT_LIMIT_SECONDS = 10.0;

    public static final int CONFIRM_TOP = 5;
    public static final int CONFIRM_ROUNDS = 5;

    private final double prune;
    private final double limitSeconds;
    private final int confirmTop;
    private final int confirmRounds;

    public Exhaustive() {
        this(DEFAULT_PRUNE, DEFAULT_LIMIT_SECONDS);
    }

    public Exhaustive(double prune, double limitSeconds) {
        this(prune, limitSeconds, CONFIRM_TOP, CONFIRM_ROUNDS);
    }

    public Exhaustive(double prune, double limitSeconds, int confirmTop, int confirmRounds) {
        if (!(prune > 1)) {
            throw new IllegalArgumentException("the pruning factor must exceed 1, got " + prune);
        }
        if (confirmTop < 1 || confirmRounds < 0) {
            throw new IllegalArgumentException("confirm at least the fastest, in zero or more rounds");
        }
        this.prune = prune;
        this.limitSeconds = limitSeconds;
        this.confirmTop = confirmTop;
        this.confirmRounds = confirmRounds;
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
        List<Map<Integer, Genome>> all = space.all();
        ev.prepare(all);
        for (Map<Integer, Genome> a : all) {
            double limit = ev.limit(prune, limitSeconds);
            if (ev.measure(a, limit) >= limit) {
                pruned++;
            }
            n++;
        }
        if (ev.best() == null) {
            throw new IllegalStateException("every variant ran past the limit of " + limitSeconds + " s");
        }
        String note = n + " valid of " + space.size() + " combinations, " + pruned + " pruned (over " + prune
                + "x the best so far or " + limitSeconds + " s)";
        if (confirmRounds == 0) {
            return ev.result(NAME, ev.best(), note);
        }
        List<TuningResult.Evaluation> measured = new ArrayList<>();
        for (TuningResult.Evaluation e : ev.trace()) {
            if (!e.pruned()) {
                measured.add(e);
            }
        }
        measured.sort(Comparator.comparingDouble(TuningResult.Evaluation::seconds));
        List<Map<Integer, Genome>> top = new ArrayList<>();
        for (TuningResult.Evaluation e : measured.subList(0, Math.min(confirmTop, measured.size()))) {
            top.add(e.assignment());
        }
        double[] medians = ev.confirm(top, confirmRounds);
        int best = 0;
        for (int i = 1; i < medians.length; i++) {
            if (medians[i] < medians[best]) {
                best = i;
            }
        }
        return ev.result(NAME, top.get(best), medians[best], note + "; the " + top.size() + " fastest confirmed in "
                + confirmRounds + " interleaved rounds, #" + (best + 1) + " won");
    }
}
