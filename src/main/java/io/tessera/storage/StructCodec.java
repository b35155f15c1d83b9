package io.tessera.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * STRUCT values as the strings that hold them ({@link DataType#isStruct}): the fields' values in the type's order,
 * encoded as a list's elements are ({@link ListCodec}: a NULL field {@code -}, any other the length of its canonical
 * text, {@code :} and the text). A struct has exactly one encoding, so structs are equal exactly when their strings
 * are; a NULL struct is a NULL string, which no struct of NULL fields is.
 */
public final class StructCodec {
    private StructCodec() {
    }

    /** The encoding of these raw field values (Long, Integer, Double, Boolean, String; null for NULL). */
    public static String encode(List<?> raw) {
        return ListCodec.encode(raw);
    }

    /** The encoding of a result's struct value. */
    public static String encode(StructValue struct) {
        StringBuilder sb = new StringBuilder();
        List<StructField> fields = struct.type().fields();
        for (int i = 0; i < fields.size(); i++) {
            Object v = struct.values().get(i);
            ListCodec.append(sb, v == null ? null : ListCodec.text(ListCodec.rawOf(v, fields.get(i).type())));
        }
        return sb.toString();
    }

    /**
     * An encoded struct as the value a query result holds: each field as {@link Column#getObject} gives a value of
     * its type (a TIMESTAMP WITH TIME ZONE as an OffsetDateTime in {@code zone}).
     */
    public static StructValue value(String struct, DataType type, java.time.ZoneId zone) {
        List<String> texts = ListCodec.texts(struct);
        List<StructField> fields = type.fields();
        if (texts.size() != fields.size()) {
            throw new IllegalArgumentException("a " + type + " value holds " + texts.size() + " fields");
        }
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            String t = texts.get(i);
            DataType f = fields.get(i).type();
            values.add(t == null ? null : ListCodec.elementValue(ListCodec.raw(t, f), f, zone));
        }
        return new StructValue(type, values);
    }

    /** The 1-based position of the field named {@code name} (case-insensitive, as DuckDB finds fields); 0 if none. */
    public static int position(DataType type, String name) {
        List<StructField> fields = type.fields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(name)) {
                return i + 1;
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equalsIgnoreCase(name)) {
                return i + 1;
            }
        }
        return 0;
    }
}
