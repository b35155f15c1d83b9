package io.tessera.tune;

import io.tessera.variant.Genome;

import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Measures a whole query with one genome per pipeline (derived dimensions included), in seconds. A measurement
 * may stop early once it is sure to exceed {@code limitSeconds}: it is then {@code pruned} and its seconds are a
 * lower bound. {@code costSeconds} is what the measurement itself took (compiling, warming up, every run).
 */
@FunctionalInterface
public interface Objective {

    Measurement measure(Map<Integer, Genome> genomes, double limitSeconds);

    /**
     * A hint that these variants (derived dimensions included) will be measured next: an objective whose
     * variants take long to compile one by one may compile them all at once, in parallel. Returns the seconds that
     * took (a cost of the search); here nothing, 0.
     */
    default double prepare(List<Map<Integer, Genome>> variants) {
        return 0;
    }

    /** One measurement: the query's time, what measuring cost, and whether it was cut at the limit. */
    record Measurement(double seconds, double costSeconds, boolean pruned) {
    }

    /**
     * An objective computed by a function, for tests and simulations: its time is the function's value, and
     * measuring costs that time, or the limit when the value exceeds the limit (pruned).
     */
    static Objective of(ToDoubleFunction<Map<Integer, Genome>> seconds) {
        return (genomes, limit) -> {
            double s = seconds.applyAsDouble(genomes);
            return s > limit ? new Measurement(limit, limit, true) : new Measurement(s, s, false);
        };
    }
}
