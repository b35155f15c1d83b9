package io.tessera.plan;

import io.tessera.storage.TypeKind;

/**
 * Names of the dictionaries VARCHAR codes index: {@code table.column} for a stored column, and for strings a
 * query computes, keys that start with '#' (no table name can), one per relation or join payload column.
 */
public final class DictionaryKeys {
    private DictionaryKeys() {
    }

    public static String stored(String table, String column) {
        return table + "." + column;
    }

    /** The dictionary of column {@code col} of relation {@code rel} when its strings are computed. */
    public static String relation(int rel, int col) {
        return "#r" + rel + "." + col;
    }

    /** The dictionary of payload column {@code col} of join {@code joinId} when its strings are computed. */
    public static String payload(int joinId, int col) {
        return "#j" + joinId + "." + col;
    }

    public static boolean isComputed(String key) {
        return key.startsWith("#");
    }

    /**
     * The dictionary of a VARCHAR value: the one its codes already index when it is a slot copied as is, else
     * {@code computed}; null for other types.
     */
    static String of(Expr e, String computed) {
        if (e.type().kind() != TypeKind.VARCHAR) {
            return null;
        }
        return e instanceof Expr.Ref r && r.slot().dictionaryKey() != null ? r.slot().dictionaryKey() : computed;
    }
}
