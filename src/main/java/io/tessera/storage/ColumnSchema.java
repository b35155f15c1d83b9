package io.tessera.storage;

/**
 * One column of a table's schema; {@code defaultValue}: the SQL text of its DEFAULT expression as written (a
 * constant, or a call such as {@code nextval('s')}), which an INSERT that leaves the column out computes for each
 * row; null where it has none (NULL).
 */
public record ColumnSchema(String name, DataType type, boolean nullable, String defaultValue) {

    public ColumnSchema {
        TableSchema.checkName(name, "column");
    }

    /** A column without a default. */
    public ColumnSchema(String name, DataType type, boolean nullable) {
        this(name, type, nullable, null);
    }

    @Override
    public String toString() {
        return name + " " + type + (nullable ? "" : " NOT NULL") + (defaultValue == null ? "" : " DEFAULT "
                + defaultValue);
    }
}
