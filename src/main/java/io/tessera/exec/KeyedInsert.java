package io.tessera.exec;

import io.tessera.sql.SqlError;
import io.tessera.storage.TableSchema;

import java.util.ArrayList;
import java.util.List;

/**
 * An INSERT into a table with keys: each new row, in order, is looked up in a {@link KeyIndex} of the stored rows
 * and the rows inserted before it. A row whose key is taken fails the statement, as DuckDB's messages say, unless
 * the statement says what to do: skip it (ON CONFLICT DO NOTHING, OR IGNORE) or update the stored row (ON CONFLICT
 * DO UPDATE, OR REPLACE: every column the new row's). A conflict on a key other than ON CONFLICT's target fails.
 * Nothing is written here: {@link #inserted} and {@link #stored} are what the caller writes.
 */
final class KeyedInsert {

    /** What a conflict on a handled key does. */
    enum Action { FAIL, SKIP, REPLACE, UPDATE }

    private final TableSchema schema;
    private final List<Object[]> stored;
    private final KeyIndex index;
    private final List<Object[]> inserted = new ArrayList<>();
    private final List<Object[]> updated = new ArrayList<>();
    /** Per stored row, the new row that conflicts with it (UPDATE, REPLACE); null where none. */
    private final Object[][] conflicting;
    private int updates;

    /**
     * {@code stored}: the table's rows (only their key columns read unless the action changes stored rows);
     * {@code handled}: the key ON CONFLICT names (its position in the schema's keys), or -1 for any.
     */
    KeyedInsert(TableSchema schema, List<Object[]> stored, List<Object[]> rows, Action action, int handled) {
        this.schema = schema;
        this.stored = stored;
        this.index = new KeyIndex(schema);
        this.conflicting = new Object[stored.size()][];
        for (int i = 0; i < stored.size(); i++) {
            index.add(stored.get(i), i);
        }
        for (Object[] row : rows) {
            KeyIndex.Hit hit = index.find(row);
            if (hit == null) {
                index.add(row, stored.size() + inserted.size());
                inserted.add(row);
                continue;
            }
            boolean ours = hit.row() >= stored.size();
            if (action == Action.FAIL || handled >= 0 && hit.key() != handled) {
                throw ours ? index.duplicateInStatement(hit.key(), row) : index.duplicateOfStored(hit.key(), row);
            }
            if (action == Action.SKIP) {
                continue;
            }
            if (ours || conflicting[hit.row()] != null) {
                throw new SqlError("ON CONFLICT DO UPDATE and INSERT OR REPLACE cannot change a row of table "
                        + schema.name() + " twice in one statement: two new rows have the same key");
            }
            conflicting[hit.row()] = row;
        }
    }

    /** The index of the rows, to check again after stored rows change. */
    KeyIndex index() {
        return index;
    }

    /** The new rows to append: those that conflict with no row. */
    List<Object[]> inserted() {
        return inserted;
    }

    /** The new row that conflicts with stored row {@code i}, or null. */
    Object[] conflicting(int i) {
        return conflicting[i];
    }

    /** Whether any stored row has a conflicting new row (the stored rows must be rewritten). */
    boolean changesStored() {
        for (Object[] c : conflicting) {
            if (c != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Replaces stored row {@code i} with {@code row} (its new values), checking that its keys stay unique among
     * all rows; counts it as updated.
     */
    void update(int i, Object[] row) {
        index.remove(stored.get(i));
        KeyIndex.Hit hit = index.find(row);
        if (hit != null) {
            throw hit.row() >= stored.size() ? index.duplicateInStatement(hit.key(), row)
                    : index.duplicateOfStored(hit.key(), row);
        }
        index.add(row, i);
        stored.set(i, row);
        updated.add(row);
        updates++;
    }

    /** The stored rows updated, with their new values, in the order they were updated (for RETURNING). */
    List<Object[]> updatedRows() {
        return updated;
    }

    /** The stored rows, updated. */
    List<Object[]> stored() {
        return stored;
    }

    /** Stored rows updated. */
    int updates() {
        return updates;
    }
}
