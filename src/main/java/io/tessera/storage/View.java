package io.tessera.storage;

import java.util.List;

/**
 * A view as the manifest keeps it: its name, the text of its query as written, and the names given to its columns
 * (empty: the query's own). The SQL front end expands it where a query names it; storage only keeps it.
 */
public record View(String name, String query, List<String> columns) {

    public View {
        TableSchema.checkName(name, "view");
        columns = List.copyOf(columns);
        for (String c : columns) {
            TableSchema.checkName(c, "column");
        }
    }
}
