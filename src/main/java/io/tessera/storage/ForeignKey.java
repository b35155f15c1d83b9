package io.tessera.storage;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A FOREIGN KEY constraint of a table: {@code columns}, the table's columns (as stored) whose values, where none is
 * NULL, must be those of a row of table {@code parent} in its {@code referenced} columns, which are that table's
 * PRIMARY KEY or a UNIQUE key (as stored), in the same order. The parent may be the table itself. Rows of the parent
 * that a row references may not be deleted nor their key changed (no CASCADE, as in DuckDB).
 */
public record ForeignKey(List<String> columns, String parent, List<String> referenced) {

    public ForeignKey {
        columns = List.copyOf(columns);
        referenced = List.copyOf(referenced);
        TableSchema.checkName(parent, "table");
        if (columns.isEmpty() || columns.size() != referenced.size()) {
            throw new IllegalArgumentException("a foreign key needs as many referenced columns as columns");
        }
        Set<String> seen = new HashSet<>();
        for (String c : columns) {
            if (!seen.add(c.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("column " + c + " appears twice in a foreign key");
            }
        }
    }

    /** The constraint's name as DuckDB makes it: {@code t_a_b_x_y_fkey} (its columns, then the parent's). */
    public String name(String table) {
        return table + "_" + String.join("_", columns) + "_" + String.join("_", referenced) + "_fkey";
    }

    /** Whether {@code column} is one of the referencing columns (names compared ignoring case). */
    public boolean has(String column) {
        return columns.stream().anyMatch(c -> c.equalsIgnoreCase(column));
    }

    /** Whether the key references table {@code table} (names compared ignoring case). */
    public boolean references(String table) {
        return parent.equalsIgnoreCase(table);
    }

    /** As DuckDB writes it: {@code FOREIGN KEY (a, b) REFERENCES p(x, y)}. */
    @Override
    public String toString() {
        return "FOREIGN KEY (" + String.join(", ", columns) + ") REFERENCES " + parent + "("
                + String.join(", ", referenced) + ")";
    }
}
