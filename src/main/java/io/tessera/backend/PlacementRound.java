package io.tessera.backend;

import io.tessera.plan.Pipeline;

import java.util.Map;
import java.util.function.IntFunction;

/**
 * One round of a query's placement as a device beside the host answers it ({@link Backend.Query#placementRound}):
 * {@link DevicePlacement} asks it about each pipeline in plan order, except those it has already put on the host,
 * and the device answers from the pipelines it accepted before in this round (a join table it builds, groups or rows
 * it leaves on itself). A fresh round starts from nothing; the device may remember across rounds why it first
 * refused a pipeline.
 */
public interface PlacementRound {

    /**
     * Null when this device can run pipeline {@code p}, the intermediates it reads where {@code placed} says (the
     * device of each pipeline before it in this round), else why not (one line).
     */
    String accepts(Pipeline p, IntFunction<String> placed);

    /** The round is over: {@code hostReasons} says why each pipeline this device does not run is on the host. */
    default void finish(Map<Integer, String> hostReasons) {
    }
}
