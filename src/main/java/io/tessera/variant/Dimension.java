package io.tessera.variant;

import java.util.List;

/**
 * One variant dimension of a pipeline on a backend: its name (the genome key) and the values it may take,
 * in a meaningful order (ascending for numeric dimensions, so that neighbours are adjacent).
 */
public record Dimension(String name, List<String> values) {
    public Dimension {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("dimension " + name + " has no values");
        }
        values = List.copyOf(values);
    }

    public static Dimension of(String name, String... values) {
        return new Dimension(name, List.of(values));
    }
}
