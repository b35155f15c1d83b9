package io.tessera.storage;

/** One column of a table's schema. */
public record ColumnSchema(String name, DataType type, boolean nullable) {

    public ColumnSchema {
        TableSchema.checkName(name, "column");
    }

    @Override
    public String toString() {
        return name + " " + type + (nullable ? "" : " NOT NULL");
    }
}
