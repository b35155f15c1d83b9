package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Measures a few finished candidates fairly against each other: in rounds, each candidate once per round in
 * turn (so that a load change on the machine hits all alike), and the median over the rounds. A strategy's own
 * figure for its winner is the minimum over many noisy variants, which flatters it; these do not.
 */
public final class Remeasure {

    private Remeasure() {
    }

    /** Median seconds of each completed assignment over {@code rounds} interleaved rounds. */
    public static double[] medians(Objective objective, List<Map<Integer, Genome>> completed, int rounds) {
        return medians(java.util.Collections.nCopies(completed.size(), objective), completed, rounds);
    }

    /**
     * Median seconds of each completed assignment over {@code rounds} interleaved rounds, assignment i measured by
     * {@code objectives.get(i)} (an objective compiles its own code: the same assignment under two objectives runs
     * two compiles of it).
     */
    public static double[] medians(List<Objective> objectives, List<Map<Integer, Genome>> completed, int rounds) {
        return mediansOverCompiles(objectives.stream().map(List::of).toList(), completed, rounds);
    }

    /**
     * Median seconds of each completed assignment over {@code rounds} interleaved rounds, assignment i measured in
     * round r by {@code objectives.get(i).get(r % objectives.get(i).size())}: each of its objectives compiles it
     * anew, so the median spans several compiles of the same genome, where the JIT may lay out each compile's
     * code a little differently.
     */
    public static double[] mediansOverCompiles(List<List<Objective>> objectives, List<Map<Integer, Genome>> completed,
                                               int rounds) {
        if (objectives.size() != completed.size()) {
            throw new IllegalArgumentException(objectives.size() + " objectives for " + completed.size() + " assignments");
        }
        double[][] t = new double[completed.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < completed.size(); i++) {
                List<Objective> compiles = objectives.get(i);
                t[i][r] = compiles.get(r % compiles.size()).measure(completed.get(i), Double.POSITIVE_INFINITY).seconds();
            }
        }
        double[] out = new double[completed.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = median(t[i]);
        }
        return out;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Geometric mean of the finite positive values (NaN when none). */
    public static double geomean(double... v) {
        double s = 0;
        int n = 0;
        for (double x : v) {
            if (x > 0 && Double.isFinite(x)) {
                s += Math.log(x);
                n++;
            }
        }
        return n == 0 ? Double.NaN : Math.exp(s / n);
    }
}
