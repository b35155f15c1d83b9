package io.tessera.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB's order of lists and structs as the order of strings: a list's <em>order key</em> is a string whose code-point
 * order (the order of VARCHAR values) is the lists' order, and which gives the list back. Lists compare element by
 * element in the element type's order, a list before every longer list it begins, a NULL element after every value.
 * Each element is a marker, {@link #VALUE} or {@link #NULL}, the value's part after a value's marker; the end of the
 * key comes before every marker. A value's part: a long (integers, DATE days, TIMESTAMP and TIME microseconds, DECIMAL
 * unscaled) and a DOUBLE as 16 hex digits of a number in unsigned order, a BOOLEAN as {@code 0} or {@code 1}, a string
 * as its characters, {@code \u0000} and {@code \u0001} escaped, ended by {@link #END_OF_STRING}; a nested list or
 * struct as its own key written as such a string. Keys live only while a query runs (sorted, compared, kept by MIN and
 * MAX); tables hold the lists' {@link ListCodec} strings. An INTERVAL's part is its length ({@link Interval#key}), so
 * that keys of values with an interval inside are equal and ordered where DuckDB's values are (by their lengths), but
 * not given back ({@link #givesValues}).
 */
public final class ListOrder {

    private static final char VALUE = '\u0002';
    private static final char NULL = '\u0003';
    private static final char ESCAPE = '\u0001';
    private static final String END_OF_STRING = "\u0001\u0001";

    private ListOrder() {
    }

    /** Whether values of this type equal by their keys, not their texts: an INTERVAL, or a value with one inside. */
    public static boolean equalByKey(DataType type) {
        if (type.isList()) {
            return equalByKey(type.element());
        }
        if (type.isStruct()) {
            return type.fields().stream().anyMatch(f -> equalByKey(f.type()));
        }
        return type.isInterval();
    }

    /** A value's text that equal values share: an INTERVAL's length, a LIST's or STRUCT's {@link #key}, else the text. */
    public static String equalityKey(String text, DataType type) {
        return type.isNested() ? key(text, type) : type.isInterval() ? Interval.key(text) : text;
    }

    /**
     * Whether the order keys of values of this type give the values back ({@link #value}): a scalar but an INTERVAL
     * (whose part is its length: 1 month and 30 days one key), a list of such values, a struct of such fields, to any
     * depth. Every key orders, an interval inside by its length as DuckDB compares and sorts it.
     */
    public static boolean givesValues(DataType type) {
        if (type.isList()) {
            return givesValues(type.element());
        }
        if (type.isStruct()) {
            return type.fields().stream().allMatch(f -> givesValues(f.type()));
        }
        return !type.isInterval();
    }

    /**
     * The order key of an encoded LIST or STRUCT of type {@code type}: a list's elements, a struct's fields in order
     * (which DuckDB compares one after another, a NULL field after every value). A LIST or STRUCT inside is its own
     * key written as a string, so that it compares as a whole before the next element.
     */
    public static String key(String encoded, DataType type) {
        StringBuilder key = new StringBuilder();
        int position = 0;
        for (String text : ListCodec.texts(encoded)) {
            DataType element = partType(type, position++);
            if (text == null) {
                key.append(NULL);
                continue;
            }
            key.append(VALUE);
            if (element.isNested()) {
                string(key, key(text, element));
                continue;
            }
            if (element.isInterval()) { // its length: equal intervals (1 day, 24 hours) equal, ordered by length
                string(key, Interval.key(text));
                continue;
            }
            switch (element.kind()) {
                case DOUBLE -> hex(key, sortable(Double.parseDouble(text)));
                case BOOLEAN -> key.append(Boolean.parseBoolean(text) ? '1' : '0');
                case VARCHAR -> string(key, text);
                default -> hex(key, Long.parseLong(text) ^ Long.MIN_VALUE);
            }
        }
        return key.toString();
    }

    /** The encoded LIST or STRUCT of type {@code type} an order key was made from. */
    public static String value(String key, DataType type) {
        List<String> texts = new ArrayList<>();
        int i = 0;
        while (i < key.length()) {
            DataType element = partType(type, texts.size());
            char marker = key.charAt(i++);
            if (marker == NULL) {
                texts.add(null);
                continue;
            }
            if (element.isNested() || element.kind() == TypeKind.VARCHAR) {
                StringBuilder s = new StringBuilder();
                i = unescape(key, i, s);
                texts.add(element.isNested() ? value(s.toString(), element) : s.toString());
                continue;
            }
            switch (element.kind()) {
                case DOUBLE -> {
                    texts.add(ListCodec.text(fromSortable(Long.parseUnsignedLong(key, i, i + 16, 16))));
                    i += 16;
                }
                case BOOLEAN -> texts.add(Boolean.toString(key.charAt(i++) == '1'));
                default -> {
                    texts.add(Long.toString(Long.parseUnsignedLong(key, i, i + 16, 16) ^ Long.MIN_VALUE));
                    i += 16;
                }
            }
        }
        return ListCodec.join(texts.toArray(new String[0]));
    }

    /** The type of a list's element or of a struct's field at {@code position} (0 the first). */
    private static DataType partType(DataType type, int position) {
        return type.isList() ? type.element() : type.fields().get(position).type();
    }

    /** A double's bits as a long whose unsigned order is {@link Double#compare}'s (NaN last, as DuckDB's). */
    private static long sortable(double v) {
        long bits = Double.doubleToLongBits(v + 0.0d);
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    private static double fromSortable(long s) {
        return Double.longBitsToDouble(s < 0 ? s ^ Long.MIN_VALUE : ~s);
    }

    private static void hex(StringBuilder key, long v) {
        String h = Long.toHexString(v);
        key.repeat('0', 16 - h.length()).append(h);
    }

    /** A string's characters, the two below every other escaped so that the end mark sorts before all of them. */
    private static void string(StringBuilder key, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= ESCAPE) {
                key.append(ESCAPE).append((char) (c + 2));
            } else {
                key.append(c);
            }
        }
        key.append(END_OF_STRING);
    }

    /** Reads an escaped string from {@code i} into {@code s}; returns where its end mark ends. */
    private static int unescape(String key, int i, StringBuilder s) {
        while (true) {
            char c = key.charAt(i++);
            if (c != ESCAPE) {
                s.append(c);
                continue;
            }
            char next = key.charAt(i++);
            if (next == ESCAPE) {
                return i;
            }
            s.append((char) (next - 2));
        }
    }
}
