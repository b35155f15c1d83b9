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
 */
final class FinalRounds {

    public static final int ROUNDS = 5;

    private final List<Map<Integer, Genome>> finalists;
    private final List<List<Double>> seconds = new ArrayList<>();
    private final int rounds;
    /** Blocks observed so far; the next block's finalist follows from it. */
    private int observed;

    FinalRounds(List<Map<Integer, Genome>> finalists, int rounds) {
        if (finalists.isEmpty() || rounds < 1) {
            throw new IllegalArgumentException("final rounds need a finalist and a round, got " + finalists.size()
                    + " and " + rounds);
        }
        this.finalists = List.copyOf(finalists);
        this.rounds = rounds;
        for (int i = 0; i < finalists.size(); i++) {
            seconds.add(new ArrayList<>());
        }
    }

    List<Map<Integer, Genome>> finalists() {
        return finalists;
    }

    /** The finalist the next block runs: round r starts at finalist r (mod their number). */
    Map<Integer, Genome> next() {
        return finalists.get(turn());
    }

    private int turn() {
        int n = finalists.size();
        return (observed / n + observed % n) % n;
    }

    /** Records a block of {@code a}; a block of another assignment than {@link #next} is ignored. */
    void observe(Map<Integer, Genome> a, double blockSeconds) {
        if (done() || !a.equals(next())) {
            return;
        }
        seconds.get(turn()).add(blockSeconds);
        observed++;
    }

    boolean done() {
        return observed >= rounds * finalists.size();
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
