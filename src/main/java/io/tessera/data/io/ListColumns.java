package io.tessera.data.io;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.TableSchema;

/**
 * The refusal of LIST and STRUCT columns by the tbl writer, whose fields are never quoted: a nested value's text
 * ({@code [1, 2]}, {@code {'a': x}}) holds the separators that a tbl field cannot. CSV reads and writes them as
 * DuckDB's text ({@link io.tessera.storage.NestedText}).
 */
public final class ListColumns {

    private ListColumns() {
    }

    /** Throws when {@code schema} has a LIST or STRUCT column; {@code what} says which reader or writer, {@code file} where. */
    public static void refuse(TableSchema schema, String what, String file) {
        for (ColumnSchema c : schema.columns()) {
            if (c.type().isNested()) {
                throw new ImportException(file, "unsupported: " + what + " of the " + (c.type().isList() ? "LIST"
                        : "STRUCT") + " column " + schema.name() + "." + c.name() + " (" + c.type() + ")", null);
            }
        }
    }
}
