package io.tessera.tune;

/**
 * Drives the strategies that tune while a query runs: the query runs again and again, a {@link BlockTuner}
 * choosing the assignment of every block of the tuned pipeline, until the tuner settles (plateau descent) or for
 * a number of queries (online pool, whose pool evolves between them). The cost is the time of those runs.
 */
public final class InQueryTuning {

    /** Runs the query once with the tuner choosing the tuned pipeline's blocks, and returns the run's seconds. */
    public interface BlockSource {
        double run(BlockTuner tuner);
    }

    private InQueryTuning() {
    }

    /** Plateau descent along every knob of {@code space}, the descent itself for at most {@code maxRuns} runs. */
    public static TuningResult plateau(TuningSpace space, BlockSource source, int maxRuns) {
        return plateau(new PlateauDescent(space), source, maxRuns, maxRuns, "query", "queries");
    }

    /**
     * Plateau descent over {@code space}, descending along {@code descentDimensions} (the thread configuration) from
     * one starting point per combination of its other knobs, the descent itself for at most {@code maxRuns} runs.
     */
    public static TuningResult plateau(TuningSpace space, java.util.Set<String> descentDimensions, BlockSource source,
                                       int maxRuns) {
        return plateau(new PlateauDescent(space, descentDimensions), source, maxRuns, maxRuns, "query", "queries");
    }

    /**
     * Plateau descent where the tuned pipeline cannot run in blocks: each configuration measured on whole runs of the
     * query ({@link WholeRuns}, one per query), the descent itself for at most {@code maxRuns} measurements after the
     * starting points'.
     */
    public static TuningResult plateauOverRuns(TuningSpace space, java.util.Set<String> descentDimensions,
                                               Objective objective, double limitSeconds, int maxRuns) {
        PlateauDescent pd = new PlateauDescent(space, descentDimensions, PlateauDescent.S, PlateauDescent.P,
                BlockWindow.V_MAX, BlockWindow.B_MAX, 1);
        // each finalist's rounds are whole runs too, as many as the rounds: none is cut short
        return plateau(pd, new WholeRuns(space, objective, limitSeconds, 1), pd.startingPoints() + maxRuns,
                Integer.MAX_VALUE, "whole run", "whole runs");
    }

    /**
     * Runs the descent for at most {@code maxRuns} runs of {@code source} (queries, or whole runs), then its
     * finalists' rounds, which may take more: they are a few blocks per finalist, and at most another
     * {@code finalRuns} runs. The note counts the runs in {@code unit}s.
     */
    private static TuningResult plateau(PlateauDescent pd, BlockSource source, int maxRuns, int finalRuns, String unit,
                                        String units) {
        double cost = 0;
        int runs = 0;
        while (!pd.converged() && runs < (long) maxRuns + finalRuns) {
            if (runs == maxRuns) {
                pd.endDescent();
            }
            cost += source.run(pd);
            runs++;
        }
        TuningResult r = pd.result();
        return new TuningResult(r.strategy(), r.best(), r.bestSeconds(), r.variants(), cost, r.spaceSize(), r.trace(),
                r.note() + ", " + runs + " " + (runs == 1 ? unit : units));
    }

    /** The online pool over {@code space}, for {@code queries} queries, evolving the pool between them. */
    public static TuningResult pool(TuningSpace space, BlockSource source, int queries, int size, long seed) {
        OnlinePool pool = new OnlinePool(space, size, seed, OnlinePool.MUTATION);
        double cost = 0;
        for (int q = 0; q < queries; q++) {
            if (q > 0) {
                pool.evolve();
            }
            cost += source.run(pool.query());
        }
        TuningResult r = pool.result();
        return new TuningResult(r.strategy(), r.best(), r.bestSeconds(), r.variants(), cost, r.spaceSize(), r.trace(),
                r.note() + ", " + queries + " quer" + (queries == 1 ? "y" : "ies"));
    }

    /**
     * The online pool where the tuned pipeline cannot run in blocks: each query is {@link OnlinePool#INIT_BLOCKS}
     * whole runs per member of the pool ({@link WholeRuns}), as many as its first query needs to try every member.
     */
    public static TuningResult poolOverRuns(TuningSpace space, Objective objective, double limitSeconds, int queries,
                                            int size, long seed) {
        TuningResult r = pool(space, new WholeRuns(space, objective, limitSeconds, OnlinePool.INIT_BLOCKS * size),
                queries, size, seed);
        return new TuningResult(r.strategy(), r.best(), r.bestSeconds(), r.variants(), r.costSeconds(), r.spaceSize(),
                r.trace(), r.note() + " of " + OnlinePool.INIT_BLOCKS * size + " whole runs each");
    }
}
