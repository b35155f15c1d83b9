package io.tessera.exec;

import io.tessera.sql.SqlError;
import io.tessera.storage.TableKey;
import io.tessera.storage.TableSchema;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a table's keys (PRIMARY KEY and UNIQUE constraints, UNIQUE indexes: TableSchema.enforcedKeys) in
 * one hash map per key, each to the position of the row that holds them, to find in constant time the row a new
 * row's key conflicts with. Built from the table's rows when a statement starts: the statement reads the key
 * columns of every row (O(rows) time and memory) rather than an index kept in storage. A key with a NULL in any of its columns conflicts with no other, as in DuckDB.
 */
final class KeyIndex {

    /** A conflict: the key (its position in the schema's keys) and the position of the row that holds its values. */
    record Hit(int key, int row) {
    }

    private final TableSchema schema;
    private final List<TableKey> keys;
    private final int[][] columns;
    private final List<Map<List<Object>, Integer>> rows = new ArrayList<>();

    /** The index of every key a write into the table checks. */
    KeyIndex(TableSchema schema) {
        this(schema, schema.enforcedKeys());
    }

    /** The index of {@code keys}, keys over {@code schema}'s columns (a UNIQUE index about to be made). */
    KeyIndex(TableSchema schema, List<TableKey> keys) {
        this.schema = schema;
        this.keys = List.copyOf(keys);
        this.columns = new int[keys.size()][];
        for (int k = 0; k < columns.length; k++) {
            List<String> names = keys.get(k).columns();
            columns[k] = names.stream().mapToInt(schema::indexOf).toArray();
            rows.add(new HashMap<>());
        }
    }

    /** The positions of the columns of any of {@code keys}, ascending. */
    static int[] keyColumns(TableSchema schema, List<TableKey> keys) {
        return keys.stream().flatMap(k -> k.columns().stream()).mapToInt(schema::indexOf).distinct()
                .sorted().toArray();
    }

    /** The values of key {@code k} in {@code row}, compared as equal values are; null where one is NULL. */
    List<Object> values(int k, Object[] row) {
        List<Object> values = new ArrayList<>(columns[k].length);
        for (int c : columns[k]) {
            Object v = row[c];
            if (v == null) {
                return null;
            }
            values.add(comparable(v));
        }
        return values;
    }

    /** The first key whose values in {@code row} another row indexed here has, or null. */
    Hit find(Object[] row) {
        for (int k = 0; k < columns.length; k++) {
            List<Object> values = values(k, row);
            Integer at = values == null ? null : rows.get(k).get(values);
            if (at != null) {
                return new Hit(k, at);
            }
        }
        return null;
    }

    /** Indexes {@code row}'s keys as those of the row at {@code position}. */
    void add(Object[] row, int position) {
        for (int k = 0; k < columns.length; k++) {
            List<Object> values = values(k, row);
            if (values != null) {
                rows.get(k).put(values, position);
            }
        }
    }

    /** Takes {@code row}'s keys out of the index (a row about to be changed). */
    void remove(Object[] row) {
        for (int k = 0; k < columns.length; k++) {
            List<Object> values = values(k, row);
            if (values != null) {
                rows.get(k).remove(values);
            }
        }
    }

    /**
     * The error for a row whose key {@code k} a stored row already has, as DuckDB words it: {@code Duplicate key
     * "id: 1" violates primary key constraint}.
     */
    SqlError duplicateOfStored(int k, Object[] row) {
        TableKey key = keys.get(k);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < columns[k].length; i++) {
            parts.add(key.columns().get(i) + ": " + text(row[columns[k][i]]));
        }
        return new SqlError("Duplicate key \"" + String.join(", ", parts) + "\" violates "
                + (key.primary() ? "primary key" : "unique") + " constraint of table " + schema.name());
    }

    /** The error for two rows of one statement with the same values of key {@code k}, as DuckDB words it. */
    SqlError duplicateInStatement(int k, Object[] row) {
        List<String> parts = new ArrayList<>();
        for (int c : columns[k]) {
            parts.add(text(row[c]));
        }
        return new SqlError("PRIMARY KEY or UNIQUE constraint violation: duplicate key \"" + String.join(", ", parts)
                + "\" in table " + schema.name());
    }

    private static String text(Object v) {
        return v instanceof byte[] || v instanceof java.util.UUID ? io.tessera.storage.Values.storedString(v)
                : String.valueOf(v);
    }

    /** A value as a key compares it: integers of any width alike, decimals by value, -0.0 as 0.0. */
    private static Object comparable(Object v) {
        return switch (v) {
            case Byte b -> (long) b;
            case Short s -> (long) s;
            case Integer i -> (long) i;
            case BigDecimal d -> d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
            case Double d -> d == 0.0 ? 0.0 : d;
            case byte[] b -> io.tessera.storage.Values.storedString(b);
            case Float f -> f == 0.0f ? 0.0 : (double) f;
            default -> v;
        };
    }
}
