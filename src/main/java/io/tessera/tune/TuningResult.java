package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.List;
import java.util.Map;

/**
 * What a strategy found and what finding it cost.
 *
 * @param strategy    the strategy's name
 * @param best        the assignment it chose (genomes without derived dimensions)
 * @param bestSeconds the chosen assignment's time as the strategy measured it (a query, or a standard block)
 * @param variants    distinct assignments it measured
 * @param costSeconds time spent measuring (compiling, warming up, running; for in-query strategies the blocks)
 * @param spaceSize   knob combinations in its space (valid or not)
 * @param trace       every measurement in order, for convergence charts (confirmation runs not included)
 * @param note        anything a reader of the numbers should know (null when nothing)
 */
public record TuningResult(String strategy, Map<Integer, Genome> best, double bestSeconds, int variants,
                           double costSeconds, long spaceSize, List<Evaluation> trace, String note) {

    public TuningResult {
        best = Map.copyOf(best);
        trace = List.copyOf(trace);
    }

    /**
     * One measurement: its position, the assignment, its seconds, whether it was pruned, the cost spent so far
     * and the best seconds known after it.
     */
    public record Evaluation(int index, Map<Integer, Genome> assignment, double seconds, boolean pruned,
                             double costSoFar, double bestSoFar) {
    }
}
