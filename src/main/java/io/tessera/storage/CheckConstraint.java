package io.tessera.storage;

import java.util.List;

/**
 * A CHECK constraint of a table: {@code expression}, the SQL text of its condition as written (planned as a filter
 * over the rows a statement writes, never made into code), which no row may make FALSE (NULL passes, as in SQL);
 * {@code columns}, the table's columns it names (as stored), which DROP COLUMN may not remove; {@code name}, the name
 * given with CONSTRAINT, or null.
 */
public record CheckConstraint(String name, String expression, List<String> columns) {

    public CheckConstraint {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("a CHECK constraint needs an expression");
        }
        if (name != null) {
            TableSchema.checkName(name, "constraint");
        }
        columns = List.copyOf(columns);
    }

    /** The constraint's name: the one given, else as DuckDB makes it ({@code t_a_b_check}). */
    public String name(String table) {
        return name != null ? name : table + (columns.isEmpty() ? "" : "_" + String.join("_", columns)) + "_check";
    }

    /** Whether the expression names {@code column} (names compared ignoring case). */
    public boolean has(String column) {
        return columns.stream().anyMatch(c -> c.equalsIgnoreCase(column));
    }

    /** As DuckDB shows it: {@code CHECK((a > 0))}. */
    public String clause() {
        return "CHECK((" + expression + "))";
    }

    @Override
    public String toString() {
        return (name == null ? "" : "CONSTRAINT " + name + " ") + "CHECK (" + expression + ")";
    }
}
