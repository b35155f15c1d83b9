package io.tessera.storage;

/**
 * A field of a STRUCT type: its name (as written, case kept; empty in an unnamed struct, DuckDB's {@code row(...)})
 * and its type.
 */
public record StructField(String name, DataType type) {
    public StructField {
        java.util.Objects.requireNonNull(name);
        java.util.Objects.requireNonNull(type);
    }
}
