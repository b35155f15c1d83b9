package io.tessera.storage;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A PRIMARY KEY or UNIQUE constraint of a table: the columns whose values together no two rows may share. A
 * primary key's columns are NOT NULL; a UNIQUE key's row with a NULL in any of its columns conflicts with no other
 * row, as in DuckDB and PostgreSQL. Names are the table's columns' as stored.
 */
public record TableKey(List<String> columns, boolean primary) {

    public TableKey {
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one column");
        }
        Set<String> seen = new HashSet<>();
        for (String c : columns) {
            if (!seen.add(c.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("column " + c + " appears twice in a key");
            }
        }
    }

    /** The constraint's name as DuckDB makes it: {@code t_a_b_pkey} or {@code t_a_b_key}. */
    public String name(String table) {
        return table + "_" + String.join("_", columns) + (primary ? "_pkey" : "_key");
    }

    /** Whether {@code column} is one of the key's (names compared ignoring case). */
    public boolean has(String column) {
        return columns.stream().anyMatch(c -> c.equalsIgnoreCase(column));
    }

    @Override
    public String toString() {
        return (primary ? "PRIMARY KEY (" : "UNIQUE (") + String.join(", ", columns) + ")";
    }
}
