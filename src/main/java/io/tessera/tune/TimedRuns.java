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
    /** The fastest run over the limit, NaN before the first. */
    private double over = Double.NaN;
    private int overRuns;

    TimedRuns(double limitSeconds) {
        this.limitSeconds = limitSeconds;
    }

    /** Adds a run of {@code seconds} (the limit itself when the run was stopped there); true when it prunes. */
    boolean add(double seconds) {
        if (stopped()) {
            throw new IllegalStateException("the measurement was pruned");
        }
        if (seconds < limitSeconds) {
            best = Math.min(best, seconds);
            return false;
        }
        over = Double.isNaN(over) ? seconds : Math.min(over, seconds);
        overRuns++;
        return stopped();
    }

    /** Whether the variant was pruned: a second run over the limit, none under it. No more runs are needed. */
    boolean stopped() {
        return overRuns >= 2 && Double.isInfinite(best);
    }

    /** Whether the variant counts as over the limit: no run under it, at least one over it. */
    boolean pruned() {
        return overRuns > 0 && Double.isInfinite(best);
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
