package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A block tuner's finalists measured against each other in turns: each round runs one block of every finalist, the
 * round's order rotated by one, and after the last round they are ranked by the median of their blocks.
 *
 * <p>Why: a configuration measured over consecutive blocks shares their luck. On a busy machine a slow spell can fall
 * on every block of one configuration and on none of the next, and the fastest of twenty or thirty such
 * measurements is the luckiest as often as the fastest. Blocks in turns spread a spell over the finalists alike.
 *
 * <p>Where the rounds race ({@code maxRounds} above the rounds), the finalists that the fastest cannot be told apart
 * from after the rounds go on in more rounds of their own. On the 2-core VM a configuration's blocks spread 15-25%
 * below their median, and five rounds chose between finalists 6% apart by chance: on SSB q3.4 (SF 1) a shared table
 * won them by 5.8%, measured 9% slower than the dense array over 80 blocks each, and the bench measured the genome
 * kept 1.18x from the optimum. On the H200 blocks measure within about 1%, and five rounds decide.
 */
final class FinalRounds {

    public static final int ROUNDS = 5;
    /** The most rounds finalists that their blocks cannot tell apart race to, in stages of {@link #ROUNDS}. */
    public static final int MAX_ROUNDS = 20;
    /**
     * Two medians whose difference is known to within this share of the faster (one standard error) need no more
     * rounds: whichever wins, it is at most about twice this slower.
     */
    static final double RESOLUTION = 0.01;

    private final List<Map<Integer, Genome>> finalists;
    private final List<List<Double>> seconds = new ArrayList<>();
    /** Rounds per stage. */
    private final int rounds;
    private final int maxRounds;
    /** The finalists of the current stage, by index: all of them at first, then those still racing. */
    private List<Integer> racing;
    /** Blocks observed in the current stage; the next block's finalist follows from it. */
    private int observed;
    /** Rounds of the stages before the current one. */
    private int roundsBefore;
    private boolean done;

    /** Finalists measured for {@code rounds} rounds. */
    FinalRounds(List<Map<Integer, Genome>> finalists, int rounds) {
        this(finalists, rounds, rounds);
    }

    /**
     * Finalists measured for {@code rounds} rounds; then, as long as the fastest and others lie closer than their
     * blocks' spread can tell apart, those race on for {@code rounds} more, up to {@code maxRounds} in all.
     */
    FinalRounds(List<Map<Integer, Genome>> finalists, int rounds, int maxRounds) {
        if (finalists.isEmpty() || rounds < 1 || maxRounds < rounds) {
            throw new IllegalArgumentException("final rounds need a finalist and a round, got " + finalists.size()
                    + " and " + rounds + " (at most " + maxRounds + ")");
        }
        this.finalists = List.copyOf(finalists);
        this.rounds = rounds;
        this.maxRounds = maxRounds;
        this.racing = new ArrayList<>();
        for (int i = 0; i < finalists.size(); i++) {
            seconds.add(new ArrayList<>());
            racing.add(i);
        }
    }

    List<Map<Integer, Genome>> finalists() {
        return finalists;
    }

    /** The finalist the next block runs: round r of a stage starts at its finalist r (mod their number). */
    Map<Integer, Genome> next() {
        return finalists.get(racing.get(turn()));
    }

    private int turn() {
        int n = racing.size();
        return (observed / n + observed % n) % n;
    }

    /** Records a block of {@code a}; a block of another assignment than {@link #next} is ignored. */
    void observe(Map<Integer, Genome> a, double blockSeconds) {
        if (done || !a.equals(next())) {
            return;
        }
        seconds.get(racing.get(turn())).add(blockSeconds);
        observed++;
        if (observed == rounds * racing.size()) {
            endStage();
        }
    }

    /** After a stage: those the fastest cannot be told apart from race on, while rounds are left. */
    private void endStage() {
        roundsBefore += rounds;
        observed = 0;
        List<Integer> close = undecided();
        if (close.size() >= 2 && roundsBefore + rounds <= maxRounds) {
            racing = close;
        } else {
            done = true;
        }
    }

    /**
     * The fastest finalist and each racing one whose median lies within two standard errors of the difference of
     * the two medians, where that error exceeds {@link #RESOLUTION}. A median's standard error is estimated from its
     * blocks' interquartile range (about 0.93 IQR / sqrt(n) for a normal spread): on a precise device five blocks
     * decide, on a noisy one the close finalists get more.
     */
    private List<Integer> undecided() {
        int best = fastest();
        List<Integer> close = new ArrayList<>(List.of(best));
        double mb = median(best);
        for (int i : racing) {
            if (i == best) {
                continue;
            }
            double se = Math.hypot(standardError(best), standardError(i));
            if (se > RESOLUTION * mb && median(i) - mb < 2 * se) {
                close.add(i);
            }
        }
        return close;
    }

    private double standardError(int i) {
        double[] s = seconds.get(i).stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = s.length;
        double iqr = s[3 * (n - 1) / 4] - s[(n - 1) / 4];
        return 0.93 * iqr / Math.sqrt(n);
    }

    boolean done() {
        return done;
    }

    /** Rounds run so far, the current stage's finished ones included. */
    int rounds() {
        return roundsBefore + observed / racing.size();
    }

    /** How many finalists raced beyond the first stage (0 when none did). */
    int raced() {
        int n = 0;
        for (List<Double> s : seconds) {
            n += s.size() > rounds ? 1 : 0;
        }
        return n;
    }

    /** The median of finalist {@code i}'s blocks so far (NaN before its first). */
    double median(int i) {
        List<Double> s = seconds.get(i);
        return s.isEmpty() ? Double.NaN : Remeasure.median(s.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The finalist with the lowest median; the first finalist before any block. */
    int fastest() {
        int best = 0;
        for (int i = 1; i < finalists.size(); i++) {
            if (median(i) < median(best)) {
                best = i;
            }
        }
        return best;
    }
}
