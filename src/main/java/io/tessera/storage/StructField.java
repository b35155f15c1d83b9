package io.tessera.storage;

/** A field of a STRUCT type: its name (as written, case kept) and its scalar type. */
public record StructField(String name, DataType type) {
    public StructField {
        java.util.Objects.requireNonNull(name);
        java.util.Objects.requireNonNull(type);
    }
}
