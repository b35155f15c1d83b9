package io.tessera.tune;

/**
 * The timed runs of one measurement: its time is the fastest run under the limit. A run over the limit may be the
 * machine's noise (single runs of a 7 ms variant took 7 to 20 ms on the 2-core development VM, with the JIT and
 * the collector working beside them), so one such run does not prune the variant: a second one does, while no run
 * was under the limit. Its time is then a lower bound, the faster of the two.
 */
final class TimedRuns {

    private final double limitSeconds;
    private double best = Double.POSITIVE_INFINITY;
    private double over = Double.NaN;
    private boolean pruned;

    TimedRuns(double limitSeconds) {
        this.limitSeconds = limitSeconds;
    }

    /** Adds a run of {@code seconds} (the limit itself when the run was stopped there); true when it prunes. */
    boolean add(double seconds) {
        if (pruned) {
            throw new IllegalStateException("the measurement was pruned");
        }
        if (seconds < limitSeconds) {
            best = Math.min(best, seconds);
            return false;
        }
        if (!Double.isNaN(over) && Double.isInfinite(best)) {
            over = Math.min(over, seconds);
            pruned = true;
            return true;
        }
        over = Double.isNaN(over) ? seconds : Math.min(over, seconds);
        return false;
    }

    /** Whether the variant counts as over the limit: pruned, or no run under the limit at all. */
    boolean pruned() {
        return pruned || (Double.isInfinite(best) && !Double.isNaN(over));
    }

    /** The fastest run under the limit, or, when pruned, the fastest over it (a lower bound). */
    double seconds() {
        if (pruned()) {
            return over;
        }
        if (Double.isInfinite(best)) {
            throw new IllegalStateException("no run yet");
        }
        return best;
    }
}
