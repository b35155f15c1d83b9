package io.tessera.storage;

/**
 * One column of a table's schema; {@code defaultValue}: the SQL text of its DEFAULT expression as written (a
 * constant, or a call such as {@code nextval('s')}), which an INSERT that leaves the column out computes for each
 * row; null where it has none (NULL). {@code generated}: the SQL text of a generated column's expression over the
 * table's other columns, as written ({@code GENERATED ALWAYS AS (x + 1)}), whose value every write computes and
 * stores; null for a column the statements write.
 */
public record ColumnSchema(String name, DataType type, boolean nullable, String defaultValue, String generated) {

    public ColumnSchema {
        TableSchema.checkName(name, "column");
        if (generated != null && (generated.isBlank() || defaultValue != null)) {
            throw new IllegalArgumentException("generated column " + name + " needs an expression and no default");
        }
    }

    /** A column that is not generated. */
    public ColumnSchema(String name, DataType type, boolean nullable, String defaultValue) {
        this(name, type, nullable, defaultValue, null);
    }

    /** A column without a default. */
    public ColumnSchema(String name, DataType type, boolean nullable) {
        this(name, type, nullable, null);
    }

    /** Whether the column's values are computed from the others' ({@link #generated}). */
    public boolean isGenerated() {
        return generated != null;
    }

    /** This column with another type, nullability or name, its default and expression kept. */
    public ColumnSchema with(String newName, DataType newType, boolean newNullable) {
        return new ColumnSchema(newName, newType, newNullable, defaultValue, generated);
    }

    @Override
    public String toString() {
        return name + " " + type + (nullable ? "" : " NOT NULL") + (defaultValue == null ? "" : " DEFAULT "
                + defaultValue) + (generated == null ? "" : " GENERATED ALWAYS AS (" + generated + ")");
    }
}
