package io.tessera.backend;

/**
 * The seed of one run's random() values, set in its {@link QueryState} after the connection's {@code setseed}: the
 * JVM seeds a generator of its own for each morsel of a pipeline's source rows from it, the pipeline and the morsel's
 * first row, so that a row's values do not depend on which worker takes the morsel.
 */
public record RandomSeed(long value) {
}
