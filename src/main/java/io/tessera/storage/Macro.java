package io.tessera.storage;

import java.util.List;

/**
 * A macro as the manifest keeps it (CREATE MACRO): its name, its parameters in order (each with the text of its
 * default value, or none), and the text of its body as written: an expression, or for a table macro a query. The
 * SQL front end expands it where a statement calls it; storage only keeps it.
 */
public record Macro(String name, List<Parameter> parameters, String body, boolean table) {

    /** One parameter; {@code defaultValue} is the text of its default expression, null where it has none. */
    public record Parameter(String name, String defaultValue) {
    }

    public Macro {
        TableSchema.checkName(name, "macro");
        parameters = List.copyOf(parameters);
    }
}
