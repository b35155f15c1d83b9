package io.tessera.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An index of a table (CREATE [UNIQUE] INDEX name ON t (columns)): its name, unique among the database's indexes,
 * the table's columns it covers as the statement wrote them, whether it is UNIQUE, and the method named by
 * {@code USING} as written (null where none; DuckDB's one method, ART). Tessera scans columns and has no lookups by
 * key, so an index changes no query's plan: a UNIQUE one is enforced as a UNIQUE key is ({@link #asKey}).
 */
public record TableIndex(String name, List<String> columns, boolean unique, String method) {

    public TableIndex {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("an index needs a name");
        }
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("index " + name + " needs at least one column");
        }
    }

    /** Whether {@code column} is one of the index's (names compared ignoring case). */
    public boolean has(String column) {
        return columns.stream().anyMatch(c -> c.equalsIgnoreCase(column));
    }

    /**
     * The UNIQUE key a unique index enforces over {@code schema}'s rows: its columns under the table's names, each
     * once (a column named twice makes the same key).
     */
    TableKey asKey(TableSchema schema) {
        List<String> names = new ArrayList<>();
        for (String c : columns) {
            String stored = schema.column(c).name();
            if (names.stream().noneMatch(n -> n.equalsIgnoreCase(stored))) {
                names.add(stored);
            }
        }
        return new TableKey(names, false);
    }

    /** Whether two index names are the same name (DuckDB's names ignore case). */
    public boolean named(String other) {
        return name.toLowerCase(Locale.ROOT).equals(other.toLowerCase(Locale.ROOT));
    }
}
