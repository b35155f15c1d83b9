package io.tessera.tune;

/** A strategy that measures whole queries, one assignment at a time (exhaustive, feature-wise). */
public interface SearchStrategy {

    String name();

    TuningResult search(TuningSpace space, Objective objective);
}
