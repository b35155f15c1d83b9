package io.tessera.optimize;

/**
 * A factor applied to the estimated rows of each stored table, by name: 1 in every real plan. Tests set factors of
 * 1/1000 or 1000 to check that estimates far off change only the plan, never the answer.
 */
@FunctionalInterface
public interface EstimateSkew {

    EstimateSkew NONE = table -> 1;

    double factor(String table);
}
