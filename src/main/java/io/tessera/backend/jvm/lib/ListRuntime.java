package io.tessera.backend.jvm.lib;

import io.tessera.storage.DataType;
import io.tessera.storage.ListCodec;
import io.tessera.storage.ListOrder;

/**
 * What generated code calls for LIST values, which it holds as encoded strings ({@link ListCodec}): an element's
 * canonical text, a list of texts, its length, an element by DuckDB's index and a search. Called only on non-NULL
 * lists.
 */
public final class ListRuntime {

    private ListRuntime() {
    }

    public static String text(long v) {
        return Long.toString(v);
    }

    public static String text(double v) {
        return ListCodec.text(v);
    }

    public static String text(boolean v) {
        return Boolean.toString(v);
    }

    public static String text(String v) {
        return v;
    }

    /**
     * A list's or a struct's text as DuckDB writes it ({@code [1, 2]}, {@code {'a': 1}}), a TIMESTAMP WITH TIME ZONE
     * inside in {@code zone}.
     */
    public static String display(String nested, DataType type, java.time.ZoneId zone) {
        return ListCodec.nested(nested, type, zone).toString();
    }

    /**
     * A list of structs as a list of STRUCT type {@code to}: each non-NULL element's fields by name (case-insensitive),
     * NULL where {@code from} has none; the texts kept as they are ({@link io.tessera.plan.ListFunction#STRUCT_ELEMENTS}).
     */
    public static String structElements(String list, DataType from, DataType to) {
        int[] at = new int[to.fields().size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = io.tessera.storage.StructCodec.position(from, to.fields().get(i).name());
        }
        StringBuilder sb = new StringBuilder();
        for (String element : ListCodec.texts(list)) {
            if (element == null) {
                ListCodec.append(sb, null);
                continue;
            }
            java.util.List<String> fields = ListCodec.texts(element);
            String[] out = new String[at.length];
            for (int i = 0; i < at.length; i++) {
                out[i] = at[i] == 0 ? null : fields.get(at[i] - 1);
            }
            ListCodec.append(sb, ListCodec.join(out));
        }
        return sb.toString();
    }

    /** The list of these element texts (null: a NULL element). */
    public static String of(String[] texts) {
        return ListCodec.join(texts);
    }

    /**
     * The list of the values from {@code start} by {@code step} before {@code stop}, or up to it ({@code inclusive}):
     * DuckDB's range and generate_series as lists; a step of 0, or a stop behind the start, the empty list.
     */
    public static String series(long start, long stop, long step, boolean inclusive) {
        if (step == 0 || (step > 0 ? stop < start : stop > start)) {
            return ListCodec.join(new String[0]);
        }
        // the count in unsigned arithmetic: the span from start to stop may exceed BIGINT's range
        long span = step > 0 ? stop - start : start - stop;
        long by = step > 0 ? step : -step; // Long.MIN_VALUE stays itself: unsigned, 2^63
        long count = Long.divideUnsigned(span, by);
        if (inclusive || Long.remainderUnsigned(span, by) != 0) {
            count++;
        }
        if (Long.compareUnsigned(count, Integer.MAX_VALUE - 8) > 0) {
            throw new IllegalArgumentException((inclusive ? "generate_series" : "range") + " of " + start + " to "
                    + stop + " by " + step + ": " + Long.toUnsignedString(count) + " elements are too many for a list");
        }
        String[] texts = new String[(int) count];
        long v = start;
        for (int i = 0; i < texts.length; i++) {
            texts[i] = Long.toString(v);
            v += step; // wraps past the last element only, which is never written
        }
        return ListCodec.join(texts);
    }

    public static long length(String list) {
        return ListCodec.length(list);
    }

    /** A list of lists' elements as one list: the inner lists' encodings one after another, NULL ones left out. */
    public static String flatten(String lists) {
        StringBuilder sb = new StringBuilder();
        for (String inner : ListCodec.texts(lists)) {
            if (inner != null) {
                sb.append(inner);
            }
        }
        return sb.toString();
    }

    /** The text of element {@code index} (1 the first, -1 the last), null for NULL, 0 or an index beyond the ends. */
    public static String textAt(String list, long index) {
        return ListCodec.textAt(list, index);
    }

    public static boolean contains(String list, String text) {
        return ListCodec.contains(list, text);
    }

    /**
     * The position (1 the first) of the first element whose text is {@code text} (null: the first NULL element), as
     * text, or null where there is none; with {@code element} given (an INTERVAL inside) compared by the elements'
     * equality keys.
     */
    public static String position(String list, String text, DataType element) {
        String key = text == null || element == null ? text : ListOrder.equalityKey(text, element);
        int i = 0;
        for (String t : ListCodec.texts(list)) {
            i++;
            boolean equal = t == null ? text == null
                    : text != null && (element == null ? t.equals(text) : ListOrder.equalityKey(t, element).equals(key));
            if (equal) {
                return Integer.toString(i);
            }
        }
        return null;
    }

    /** Whether an element of {@code other} that is not NULL is an element of {@code list} (texts of one type). */
    public static boolean hasAny(String list, String other) {
        java.util.Set<String> in = new java.util.HashSet<>(ListCodec.texts(list));
        for (String t : ListCodec.texts(other)) {
            if (t != null && in.contains(t)) {
                return true;
            }
        }
        return false;
    }

    /** Whether every element of {@code other} that is not NULL is an element of {@code list}. */
    public static boolean hasAll(String list, String other) {
        java.util.Set<String> in = new java.util.HashSet<>(ListCodec.texts(list));
        for (String t : ListCodec.texts(other)) {
            if (t != null && !in.contains(t)) {
                return false;
            }
        }
        return true;
    }

    /**
     * LIST_INTERSECT: the distinct elements that are not NULL in both lists (of one type, so equal elements have
     * equal texts), in the order of the longer list, of {@code other} where both are as long (DuckDB's order); a null
     * {@code other} is empty.
     */
    public static String intersect(String list, String other) {
        java.util.List<String> a = ListCodec.texts(list);
        java.util.List<String> b = other == null ? java.util.List.of() : ListCodec.texts(other);
        java.util.List<String> walked = a.size() > b.size() ? a : b;
        java.util.Set<String> in = new java.util.HashSet<>(walked == a ? b : a);
        java.util.Set<String> taken = new java.util.HashSet<>();
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String t : walked) {
            if (t != null && in.contains(t) && taken.add(t)) {
                out.add(t);
            }
        }
        return ListCodec.join(out.toArray(new String[0]));
    }

    /** How many distinct elements that are not NULL the list holds. */
    public static long unique(String list) {
        java.util.Set<String> seen = new java.util.HashSet<>(ListCodec.texts(list));
        seen.remove(null);
        return seen.size();
    }

    /**
     * The elements (VARCHAR texts) that are not NULL joined by {@code separator}; null where there are none, except
     * '' for an empty list where {@code emptyText}.
     */
    public static String join(String list, String separator, boolean emptyText) {
        java.util.List<String> texts = ListCodec.texts(list);
        if (texts.isEmpty() && emptyText) {
            return "";
        }
        StringBuilder sb = null;
        for (String t : texts) {
            if (t != null) {
                sb = sb == null ? new StringBuilder() : sb.append(separator);
                sb.append(t);
            }
        }
        return sb == null ? null : sb.toString();
    }

    /**
     * Whether an element equals {@code text} as DuckDB compares values of the element type, one with an INTERVAL
     * inside ({@link ListOrder#equalByKey}): by their keys, in which intervals are their lengths.
     */
    public static boolean containsEqual(String list, String text, DataType element) {
        String key = ListOrder.equalityKey(text, element);
        for (String t : ListCodec.texts(list)) {
            if (t != null && ListOrder.equalityKey(t, element).equals(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The encoding of DuckDB's text of a LIST or STRUCT value of {@code type} (a CAST from text), a TIMESTAMP WITH
     * TIME ZONE inside without an offset read on the clock of the session's {@code zone}.
     */
    public static String fromText(String text, DataType type, java.time.ZoneId zone) {
        try {
            return io.tessera.storage.NestedText.parse(text, type, zone);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("CAST of '" + text + "' to " + type + ": " + e.getMessage(), e);
        }
    }

    /**
     * A 64-bit hash of a list's or struct's {@link ListOrder#equalityKey} (FNV-1a over its characters), equal for
     * values DuckDB finds equal; a join's key, beside which the values themselves are compared.
     */
    public static long equalityHash(String nested, DataType type) {
        String key = ListOrder.equalityKey(nested, type);
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    /** A list's or a struct's order key ({@link ListOrder}), {@code type} its LIST or STRUCT type. */
    public static String orderKey(String nested, DataType type) {
        return ListOrder.key(nested, type);
    }

    /** The list or struct of type {@code type} an order key was made from. */
    public static String fromOrderKey(String key, DataType type) {
        return ListOrder.value(key, type);
    }

    public static int intOf(String text) {
        return Integer.parseInt(text);
    }

    public static long longOf(String text) {
        return Long.parseLong(text);
    }

    public static double doubleOf(String text) {
        return Double.parseDouble(text);
    }

    public static boolean boolOf(String text) {
        return Boolean.parseBoolean(text);
    }

    // ---- lists reordered ----

    /** A list's elements in ascending order as DuckDB orders values of its element type, NULL elements first or last. */
    public static String sortAscending(String list, DataType type, boolean nullsFirst) {
        return sorted(list, type, false, nullsFirst);
    }

    /** A list's elements in descending order, NULL elements first or last. */
    public static String sortDescending(String list, DataType type, boolean nullsFirst) {
        return sorted(list, type, true, nullsFirst);
    }

    private static String sorted(String list, DataType type, boolean descending, boolean nullsFirst) {
        java.util.List<String[]> keyed = new java.util.ArrayList<>();
        int nulls = 0;
        for (String t : ListCodec.texts(list)) {
            if (t == null) {
                nulls++;
            } else { // the key of the one-element list: the element's own order key behind a marker
                keyed.add(new String[] {ListOrder.key(ListCodec.join(new String[] {t}), type), t});
            }
        }
        java.util.Comparator<String[]> order = java.util.Comparator.comparing(k -> k[0]);
        keyed.sort(descending ? order.reversed() : order);
        String[] out = new String[keyed.size() + nulls]; // the NULLs: the elements not set
        int from = nullsFirst ? nulls : 0;
        for (int i = 0; i < keyed.size(); i++) {
            out[from + i] = keyed.get(i)[1];
        }
        return ListCodec.join(out);
    }

    /**
     * Each distinct non-NULL element of a list once, in the order of first occurrence; equal as DuckDB compares the
     * element type ({@link ListOrder#equalityKey}: intervals by their lengths).
     */
    public static String distinct(String list, DataType type) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String t : ListCodec.texts(list)) {
            if (t != null && seen.add(ListOrder.equalityKey(t, type.element()))) {
                out.add(t);
            }
        }
        return ListCodec.join(out.toArray(new String[0]));
    }

    /** A list's elements in the reverse order. */
    public static String reverse(String list, DataType type) {
        java.util.List<String> texts = new java.util.ArrayList<>(ListCodec.texts(list));
        java.util.Collections.reverse(texts);
        return ListCodec.join(texts.toArray(new String[0]));
    }
}
