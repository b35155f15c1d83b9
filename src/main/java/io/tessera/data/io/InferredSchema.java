package io.tessera.data.io;

import io.tessera.storage.ColumnSchema;
import io.tessera.storage.DataType;
import io.tessera.storage.TableSchema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The table a file's own columns make (a file in FROM, an import into a table not there yet): the names the file
 * gives, made names storage can hold, with the types read from the file, every column nullable.
 */
public final class InferredSchema {

    private InferredSchema() {
    }

    /**
     * A table of these columns, every one nullable; characters of a name other than letters, digits and _ become
     * _, a name that is empty or starts with a digit gets a start, and a name met twice gets _1, _2, ...
     */
    public static TableSchema of(String table, List<String> names, List<DataType> types) {
        List<ColumnSchema> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i).replaceAll("[^A-Za-z0-9_]", "_");
            if (n.isEmpty() || Character.isDigit(n.charAt(0))) {
                n = n.isEmpty() ? "column" + i : "_" + n;
            }
            String unique = n;
            for (int k = 1; !seen.add(unique.toLowerCase(Locale.ROOT)); k++) {
                unique = n + "_" + k;
            }
            columns.add(new ColumnSchema(unique, types.get(i), true));
        }
        return new TableSchema(table, columns);
    }
}
