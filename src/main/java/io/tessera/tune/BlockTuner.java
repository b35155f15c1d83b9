package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.Map;

/**
 * A strategy that tunes while a query runs: it chooses the assignment for each block of the tuned pipeline's
 * input and learns from each block's time. Blocks of a pipeline keep their sink state, so the assignments it
 * chooses differ only in dimensions a block may change (its space's knobs).
 */
public interface BlockTuner {

    /** The assignment for the next block. */
    Map<Integer, Genome> next();

    /**
     * Assignments it will ask for in the coming blocks, as far as it knows them (a backend that compiles code for
     * a block compiles these with it); none by default.
     */
    default java.util.List<Map<Integer, Genome>> upcoming() {
        return java.util.List.of();
    }

    /** The seconds a block took with {@code a}, scaled to a full block. */
    void observe(Map<Integer, Genome> a, double seconds);

    /**
     * Whether it is comparing a few finalists in turns, each block's time deciding between them. A target whose
     * short blocks rank assignments differently from whole runs (the GPU's: a launch's start and its last tiles
     * weigh more in a short block) may then run each query's tuned input as one block. None by default.
     */
    default boolean comparingFinalists() {
        return false;
    }

    /** Whether it has settled: from now on {@link #next} returns {@link #best}. */
    boolean converged();

    /** The best assignment it knows. */
    Map<Integer, Genome> best();

    /** What it found and what that cost so far. */
    TuningResult result();
}
