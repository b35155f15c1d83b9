package io.tessera.backend.jvm.lib;

import io.tessera.storage.DataType;
import io.tessera.storage.ListCodec;
import io.tessera.storage.ListOrder;
import io.tessera.storage.MapEntries;

import java.util.List;

/**
 * The MAP functions generated code calls ({@code plan.ListFunction}'s MAP_ ones): a map is a String, the encoded list
 * of its {@code STRUCT(key, value)} entries ({@link MapEntries}); a key is found by its canonical text, which equal
 * keys share (with an INTERVAL inside, by its order key, whose intervals are their lengths).
 */
public final class MapRuntime {
    private MapRuntime() {
    }

    /** A list of entries as a map of {@code type}, checked (DuckDB's errors for a NULL key or a key given twice). */
    public static String checked(String entries, DataType type) {
        MapEntries.check(entries, type);
        return entries;
    }

    /** The map of a list of keys and a list of values; they must have as many elements. */
    public static String ofLists(String keys, String values, DataType type) {
        List<String> k = ListCodec.texts(keys);
        List<String> v = ListCodec.texts(values);
        if (k.size() != v.size()) {
            throw new IllegalArgumentException("The map key list does not align with the map value list");
        }
        return MapEntries.of(k, v, type);
    }

    /** The text of the value of {@code key} (null: missing, or a NULL value or key). */
    public static String value(String map, String key, DataType type) {
        if (key == null) {
            return null;
        }
        String wanted = same(key, type);
        for (String entry : ListCodec.texts(map)) {
            if (wanted.equals(same(ListCodec.textAt(entry, 1), type))) {
                return ListCodec.textAt(entry, 2);
            }
        }
        return null;
    }

    /** The list of the value of {@code key}, empty where the map has no such key (or the key is NULL). */
    public static String extract(String map, String key, DataType type) {
        if (key == null) {
            return "";
        }
        String wanted = same(key, type);
        for (String entry : ListCodec.texts(map)) {
            if (wanted.equals(same(ListCodec.textAt(entry, 1), type))) {
                StringBuilder sb = new StringBuilder();
                ListCodec.append(sb, ListCodec.textAt(entry, 2));
                return sb.toString();
            }
        }
        return "";
    }

    /** Whether the map has the key. */
    public static boolean contains(String map, String key, DataType type) {
        String wanted = same(key, type);
        for (String entry : ListCodec.texts(map)) {
            if (wanted.equals(same(ListCodec.textAt(entry, 1), type))) {
                return true;
            }
        }
        return false;
    }

    /** The list of the map's keys ({@code part} 1) or values ({@code part} 2), in order. */
    public static String parts(String map, int part) {
        StringBuilder sb = new StringBuilder();
        for (String entry : ListCodec.texts(map)) {
            ListCodec.append(sb, ListCodec.textAt(entry, part));
        }
        return sb.toString();
    }

    /**
     * The entries of the maps that are not null, in order, a key given again taking the later map's entry where the
     * first one stood (DuckDB's map_concat).
     */
    public static String concat(String[] maps, DataType type) {
        java.util.LinkedHashMap<String, String> entries = new java.util.LinkedHashMap<>();
        for (String map : maps) {
            if (map == null) {
                continue;
            }
            for (String entry : ListCodec.texts(map)) {
                entries.put(same(ListCodec.textAt(entry, 1), type), entry);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String entry : entries.values()) {
            ListCodec.append(sb, entry);
        }
        return sb.toString();
    }

    private static String same(String key, DataType type) {
        DataType k = type.mapKey();
        return ListOrder.equalByKey(k) ? ListOrder.equalityKey(key, k) : key;
    }
}
