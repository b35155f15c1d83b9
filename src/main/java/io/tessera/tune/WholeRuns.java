package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.Map;

/**
 * Blocks for the in-query strategies where the tuned pipeline cannot run in blocks (on the GPU, a pipeline that
 * materializes rows places them by tile number): each block is a whole run of the query under the assignment the
 * tuner chose, measured as exhaustive search measures one (new code warmed up, the fastest of its timed runs, cut
 * at the limit). Since each such block has dropped its own warm-up, a tuner takes one as a whole measurement.
 * {@link #run} measures {@code perQuery} of them.
 */
final class WholeRuns implements InQueryTuning.BlockSource {

    private final TuningSpace space;
    private final Objective objective;
    private final double limitSeconds;
    private final int perQuery;
    private boolean prepared;

    WholeRuns(TuningSpace space, Objective objective, double limitSeconds, int perQuery) {
        if (perQuery < 1) {
            throw new IllegalArgumentException("at least one run per query, got " + perQuery);
        }
        this.space = space;
        this.objective = objective;
        this.limitSeconds = limitSeconds;
        this.perQuery = perQuery;
    }

    @Override
    public double run(BlockTuner tuner) {
        double cost = 0;
        if (!prepared) {
            // what the tuner will ask for first (plateau descent's starting points) compiles at once
            cost += objective.prepare(tuner.upcoming().stream().map(space::complete).toList());
            prepared = true;
        }
        for (int i = 0; i < perQuery && !tuner.converged(); i++) {
            Map<Integer, Genome> a = tuner.next();
            Objective.Measurement m = objective.measure(space.complete(a), limitSeconds);
            tuner.observe(a, m.seconds());
            cost += m.costSeconds();
        }
        return cost;
    }
}
