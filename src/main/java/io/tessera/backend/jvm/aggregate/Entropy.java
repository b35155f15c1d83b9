package io.tessera.backend.jvm.aggregate;

import java.util.HashMap;
import java.util.Map;

/** DuckDB's ENTROPY of a group's values: {@code -sum(p * log2(p))} over the frequencies p of the distinct values. */
final class Entropy {

    private Entropy() {
    }

    /** The entropy of {@code values} (NULLs were never collected); with {@code distinct} every value counts once. */
    static double of(Object[] values, boolean distinct) {
        Map<Object, Long> counts = new HashMap<>();
        for (Object v : values) {
            counts.merge(v, 1L, Long::sum);
        }
        double n = distinct ? counts.size() : values.length;
        double entropy = 0;
        for (long c : counts.values()) {
            double p = (distinct ? 1 : c) / n;
            entropy -= p * Math.log(p) / Math.log(2);
        }
        return entropy;
    }
}
