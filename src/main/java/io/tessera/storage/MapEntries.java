package io.tessera.storage;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * MAP values as the strings that hold them ({@link DataType#isMap}): a list ({@link ListCodec}) of entries, each a
 * {@code STRUCT(key, value)} ({@link StructCodec}), in the map's order, as DuckDB holds a map. Every map that is made
 * is checked here: its keys are not NULL and no two are equal, with DuckDB's messages.
 */
public final class MapEntries {
    private MapEntries() {
    }

    /** DuckDB's message for a NULL key. */
    public static final String NULL_KEY = "Map keys can not be NULL";
    /** DuckDB's message for a key given twice. */
    public static final String DUPLICATE_KEY = "Map keys must be unique";

    /** One entry's encoding: the struct of its key's and its value's element texts (null for a NULL value). */
    public static String entry(String key, String value) {
        StringBuilder sb = new StringBuilder();
        ListCodec.append(sb, key);
        ListCodec.append(sb, value);
        return sb.toString();
    }

    /**
     * The map of these keys' and values' element texts, in order; an IllegalArgumentException with DuckDB's message
     * where a key is NULL or given twice.
     */
    public static String of(List<String> keys, List<String> values, DataType type) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < keys.size(); i++) {
            ListCodec.append(sb, entry(keys.get(i), values.get(i)));
        }
        String map = sb.toString();
        check(map, type);
        return map;
    }

    /**
     * Checks an encoded map of {@code type}: an IllegalArgumentException with DuckDB's message where an entry or its
     * key is NULL or two keys are equal (by their canonical texts, which equal values share; an INTERVAL key by its
     * length, as DuckDB compares intervals).
     */
    public static void check(String map, DataType type) {
        DataType key = type.mapKey();
        boolean byLength = ListOrder.equalByKey(key);
        Set<String> seen = new HashSet<>();
        for (String entry : ListCodec.texts(map)) {
            String k = entry == null ? null : ListCodec.textAt(entry, 1);
            if (k == null) {
                throw new IllegalArgumentException(NULL_KEY);
            }
            String same = byLength ? ListOrder.equalityKey(k, key) : k;
            if (!seen.add(same)) {
                throw new IllegalArgumentException(DUPLICATE_KEY);
            }
        }
    }

    /** The encoding of a result's map value. */
    public static String encode(MapValue map) {
        StringBuilder sb = new StringBuilder();
        DataType k = map.type().mapKey();
        DataType v = map.type().mapValue();
        for (int i = 0; i < map.keys().size(); i++) {
            Object value = map.values().get(i);
            ListCodec.append(sb, entry(ListCodec.text(ListCodec.rawOf(map.keys().get(i), k)),
                    value == null ? null : ListCodec.text(ListCodec.rawOf(value, v))));
        }
        return sb.toString();
    }

    /** An encoded map as the value a query result holds, each key and value as a value of its type. */
    public static MapValue value(String map, DataType type, java.time.ZoneId zone) {
        List<Object> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        DataType k = type.mapKey();
        DataType v = type.mapValue();
        for (String entry : ListCodec.texts(map)) {
            List<String> kv = ListCodec.texts(entry);
            keys.add(kv.get(0) == null ? null : ListCodec.elementValue(ListCodec.raw(kv.get(0), k), k, zone));
            values.add(kv.get(1) == null ? null : ListCodec.elementValue(ListCodec.raw(kv.get(1), v), v, zone));
        }
        return new MapValue(type, keys, values);
    }
}
