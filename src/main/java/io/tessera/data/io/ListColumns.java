package io.tessera.data.io;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.TableSchema;

/**
 * The refusal of LIST columns by the CSV and Parquet readers and writers, which know scalar values only: a list is
 * stored as an encoded string ({@link io.tessera.storage.ListCodec}) that a writer would otherwise copy out as text
 * and a reader fill with text that is no list.
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
