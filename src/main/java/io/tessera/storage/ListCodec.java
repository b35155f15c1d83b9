package io.tessera.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * LIST values as the strings that hold them ({@link DataType#isList}): the elements in order, a NULL as {@code -},
 * any other as the length of its text, {@code :} and the text. An element's text is its raw value's canonical text:
 * integers, DATE days, TIMESTAMP and TIME microseconds and DECIMAL unscaled values as a long's digits, DOUBLE as
 * {@link Double#toString} (no -0.0), BOOLEAN {@code true}/{@code false}, VARCHAR itself. A list has exactly one
 * encoding, so lists are equal exactly when their strings are; the empty list is the empty string.
 */
public final class ListCodec {

    private ListCodec() {
    }

    /** The canonical text of a raw element value (Long, Integer, Double, Boolean, String); null for NULL. */
    public static String text(Object raw) {
        return switch (raw) {
            case null -> null;
            case Double d -> text(d.doubleValue());
            case Number n -> Long.toString(n.longValue());
            case Boolean b -> b.toString();
            case String s -> s;
            default -> throw new IllegalArgumentException("not a raw list element: " + raw.getClass().getName());
        };
    }

    /** The canonical text of a DOUBLE element (-0.0 as 0.0, which SQL compares equal). */
    public static String text(double v) {
        return Double.toString(v + 0.0d);
    }

    /** The list of these element texts (null: a NULL element). */
    public static String join(String... texts) {
        StringBuilder sb = new StringBuilder();
        for (String t : texts) {
            append(sb, t);
        }
        return sb.toString();
    }

    /** The list of these raw element values (null: a NULL element). */
    public static String encode(List<?> raw) {
        StringBuilder sb = new StringBuilder();
        for (Object v : raw) {
            append(sb, text(v));
        }
        return sb.toString();
    }

    /** The encoding of a result's list value (its elements as {@link #value} gives them). */
    public static String encode(ListValue list) {
        StringBuilder sb = new StringBuilder();
        for (Object v : list.values()) {
            append(sb, v == null ? null : text(rawOf(v, list.element())));
        }
        return sb.toString();
    }

    /** A result value of an element as its raw value (the inverse of {@link #value}'s per element). */
    static Object rawOf(Object v, DataType t) {
        return switch (v) {
            case StructValue s -> StructCodec.encode(s);
            case ListValue l -> encode(l);
            case MapValue m -> MapEntries.encode(m);
            case java.math.BigDecimal d -> d.setScale(t.scale(), java.math.RoundingMode.UNNECESSARY).unscaledValue()
                    .longValueExact();
            case java.time.LocalDate d -> d.toEpochDay();
            case java.time.LocalDateTime d -> Timestamps.micros(d);
            case java.time.OffsetDateTime d -> ZonedTimestamps.micros(d);
            case java.time.LocalTime d -> Values.timeMicros(d);
            // an INTERVAL element's value is its text ({@link #elementValue}); the encoding holds its code
            case String text when t.isInterval() -> IntervalText.parse(text).encode();
            default -> v;
        };
    }

    /** Appends one element's text (null: NULL) to an encoded list. */
    public static void append(StringBuilder list, String text) {
        if (text == null) {
            list.append('-');
        } else {
            list.append(text.length()).append(':').append(text);
        }
    }

    /** The texts of the elements of an encoded list, null for a NULL element. */
    public static List<String> texts(String list) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < list.length()) {
            if (list.charAt(i) == '-') {
                out.add(null);
                i++;
                continue;
            }
            int colon = list.indexOf(':', i);
            int n = Integer.parseInt(list, i, colon, 10);
            out.add(list.substring(colon + 1, colon + 1 + n));
            i = colon + 1 + n;
        }
        return out;
    }

    /** The number of elements of an encoded list. */
    public static int length(String list) {
        int count = 0;
        int i = 0;
        while (i < list.length()) {
            i = next(list, i);
            count++;
        }
        return count;
    }

    /**
     * The text of element {@code index} as DuckDB numbers them (1 the first, -1 the last); null for a NULL element, an
     * index of 0 or one beyond either end.
     */
    public static String textAt(String list, long index) {
        if (index == 0) {
            return null;
        }
        long k = index > 0 ? index - 1 : length(list) + index;
        if (k < 0) {
            return null;
        }
        int i = 0;
        for (long e = 0; i < list.length(); e++) {
            if (e == k) {
                if (list.charAt(i) == '-') {
                    return null;
                }
                int colon = list.indexOf(':', i);
                int n = Integer.parseInt(list, i, colon, 10);
                return list.substring(colon + 1, colon + 1 + n);
            }
            i = next(list, i);
        }
        return null;
    }

    /** Whether an element's text equals {@code text} (a NULL element never does). */
    public static boolean contains(String list, String text) {
        int i = 0;
        while (i < list.length()) {
            if (list.charAt(i) != '-') {
                int colon = list.indexOf(':', i);
                int n = Integer.parseInt(list, i, colon, 10);
                if (n == text.length() && list.startsWith(text, colon + 1)) {
                    return true;
                }
            }
            i = next(list, i);
        }
        return false;
    }

    /** Where the element after the one at {@code i} starts. */
    private static int next(String list, int i) {
        if (list.charAt(i) == '-') {
            return i + 1;
        }
        int colon = list.indexOf(':', i);
        return colon + 1 + Integer.parseInt(list, i, colon, 10);
    }

    /** An element's text as the raw value of its type (Long, Double, Boolean or String). */
    public static Object raw(String text, DataType element) {
        return switch (element.kind()) {
            case DOUBLE -> Double.parseDouble(text);
            case BOOLEAN -> Boolean.parseBoolean(text);
            case VARCHAR -> text;
            default -> Long.parseLong(text);
        };
    }

    /**
     * An encoded list as the value a query result holds: its elements as {@link Column#getObject} gives a value of
     * the element type (a TIMESTAMP WITH TIME ZONE as an OffsetDateTime in {@code zone}).
     */
    public static ListValue value(String list, DataType element, java.time.ZoneId zone) {
        List<Object> values = new ArrayList<>();
        for (String t : texts(list)) {
            values.add(t == null ? null : elementValue(raw(t, element), element, zone));
        }
        return new ListValue(element, values);
    }

    /** An encoded list or struct of type {@code t} as its result value: a {@link ListValue} or a {@link StructValue}. */
    public static Object nested(String encoded, DataType t, java.time.ZoneId zone) {
        if (t.isMap()) {
            return MapEntries.value(encoded, t, zone);
        }
        return t.isStruct() ? StructCodec.value(encoded, t, zone) : value(encoded, t.element(), zone);
    }

    /** A raw element value as a result value of its type (a list's or a struct's encoding as its value). */
    static Object elementValue(Object raw, DataType t, java.time.ZoneId zone) {
        if (t.isNested()) {
            return nested((String) raw, t, zone);
        }
        if (t.isInterval()) {
            return Interval.decode((String) raw).toString(); // as a query's INTERVAL column gives its values
        }
        return switch (t.kind()) {
            case INTEGER -> ((Long) raw).intValue();
            case DECIMAL -> java.math.BigDecimal.valueOf((Long) raw, t.scale());
            case DATE -> java.time.LocalDate.ofEpochDay((Long) raw);
            case TIMESTAMP -> Values.timestampOf((Long) raw);
            case TIMESTAMP_TZ -> ZonedTimestamps.valueOf((Long) raw, zone);
            case TIME -> Values.timeOf((Long) raw);
            case DOUBLE -> t.isReal() ? (Object) (float) (double) (Double) raw : raw; // a REAL as a Float
            default -> raw;
        };
    }
}
