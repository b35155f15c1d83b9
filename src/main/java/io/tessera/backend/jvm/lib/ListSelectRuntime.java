package io.tessera.backend.jvm.lib;

import io.tessera.storage.DataType;
import io.tessera.storage.ListCodec;
import io.tessera.storage.ListOrder;

import java.util.List;

/**
 * What generated code calls for DuckDB's list functions that pick, pair or rearrange elements and for the distances
 * of two lists of numbers ({@code plan.ListSelectCalls}); lists are encoded strings ({@link ListCodec}), a struct the
 * list of its fields' texts. Called only on non-NULL lists, but for list_zip's, where null is an empty list.
 */
public final class ListSelectRuntime {

    private ListSelectRuntime() {
    }

    /** The lists' elements at each position as an unnamed struct, as long as the longest list or the shortest. */
    public static String zip(String[] lists, boolean truncate) {
        @SuppressWarnings("unchecked")
        List<String>[] texts = new List[lists.length];
        int length = truncate ? Integer.MAX_VALUE : 0;
        for (int i = 0; i < lists.length; i++) {
            texts[i] = lists[i] == null ? List.of() : ListCodec.texts(lists[i]);
            length = truncate ? Math.min(length, texts[i].size()) : Math.max(length, texts[i].size());
        }
        if (lists.length == 0) {
            length = 0;
        }
        String[] out = new String[length];
        for (int at = 0; at < length; at++) {
            String[] fields = new String[lists.length];
            for (int i = 0; i < lists.length; i++) {
                fields[i] = at < texts[i].size() ? texts[i].get(at) : null;
            }
            out[at] = ListCodec.join(fields);
        }
        return ListCodec.join(out);
    }

    /** The elements at these indexes (from 1), NULL for one out of range; a NULL index fails, as in DuckDB. */
    public static String select(String list, String indexes) {
        List<String> texts = ListCodec.texts(list);
        List<String> at = ListCodec.texts(indexes);
        String[] out = new String[at.size()];
        for (int i = 0; i < out.length; i++) {
            if (at.get(i) == null) {
                throw new IllegalArgumentException(
                        "list_select: NULLs are not allowed as list elements in the second input parameter");
            }
            long index = Long.parseLong(at.get(i));
            out[i] = index >= 1 && index <= texts.size() ? texts.get((int) index - 1) : null;
        }
        return ListCodec.join(out);
    }

    /** The elements whose mask element is true, NULL for a true past the list's end; a NULL in the mask fails. */
    public static String where(String list, String mask) {
        List<String> texts = ListCodec.texts(list);
        List<String> keep = ListCodec.texts(mask);
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < keep.size(); i++) {
            if (keep.get(i) == null) {
                throw new IllegalArgumentException(
                        "list_where: NULLs are not allowed as list elements in the second input parameter");
            }
            if (Boolean.parseBoolean(keep.get(i))) {
                out.add(i < texts.size() ? texts.get(i) : null);
            }
        }
        return ListCodec.join(out.toArray(new String[0]));
    }

    /**
     * The positions (from 1) of a list's elements in ascending or descending order as DuckDB orders values of its
     * element type, NULL elements first or last, equal elements in their order: a BIGINT[].
     */
    public static String gradeUp(String list, DataType type, boolean nullsFirst, boolean descending) {
        List<String> texts = ListCodec.texts(list);
        List<Integer> nulls = new java.util.ArrayList<>();
        List<Object[]> keyed = new java.util.ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i);
            if (t == null) {
                nulls.add(i + 1);
            } else { // the order key of the one-element list: the element's own key behind a marker
                keyed.add(new Object[] {ListOrder.key(ListCodec.join(new String[] {t}), type), i + 1});
            }
        }
        java.util.Comparator<Object[]> order = java.util.Comparator.comparing(k -> (String) k[0]);
        keyed.sort(descending ? order.reversed() : order); // a stable sort: equal keys stay in order
        String[] out = new String[texts.size()];
        int i = 0;
        if (nullsFirst) {
            for (int p : nulls) {
                out[i++] = Integer.toString(p);
            }
        }
        for (Object[] k : keyed) {
            out[i++] = k[1].toString();
        }
        if (!nullsFirst) {
            for (int p : nulls) {
                out[i++] = Integer.toString(p);
            }
        }
        return ListCodec.join(out);
    }

    /** The list cut or padded to {@code size} elements with {@code fill} (null: NULL); a negative size fails. */
    public static String resize(String list, long size, String fill) {
        if (size < 0) {
            throw new IllegalArgumentException("list_resize: the size " + size + " is negative");
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("list_resize: the size " + size + " is too large for a list");
        }
        List<String> texts = ListCodec.texts(list);
        String[] out = new String[(int) size];
        for (int i = 0; i < out.length; i++) {
            out[i] = i < texts.size() ? texts.get(i) : fill;
        }
        return ListCodec.join(out);
    }

    /**
     * A measure between two lists of DOUBLEs of one length without NULLs (DuckDB's messages otherwise), named by
     * DuckDB's function: list_inner_product, list_negative_inner_product, list_distance (Euclidean),
     * list_cosine_similarity, list_cosine_distance.
     */
    public static double distance(String a, String b, String measure) {
        double[] x = numbers(a, measure, "left");
        double[] y = numbers(b, measure, "right");
        if (x.length != y.length) {
            throw new IllegalArgumentException(measure + ": list dimensions must be equal, got left length '"
                    + x.length + "' and right length '" + y.length + "'");
        }
        double dot = 0;
        double xx = 0;
        double yy = 0;
        double squares = 0;
        for (int i = 0; i < x.length; i++) {
            dot += x[i] * y[i];
            xx += x[i] * x[i];
            yy += y[i] * y[i];
            squares += (x[i] - y[i]) * (x[i] - y[i]);
        }
        return switch (measure) {
            case "list_inner_product" -> dot;
            case "list_negative_inner_product" -> -dot;
            case "list_distance" -> Math.sqrt(squares);
            case "list_cosine_similarity" -> dot / Math.sqrt(xx * yy);
            case "list_cosine_distance" -> 1 - dot / Math.sqrt(xx * yy);
            default -> throw new IllegalStateException(measure);
        };
    }

    private static double[] numbers(String list, String measure, String side) {
        List<String> texts = ListCodec.texts(list);
        double[] out = new double[texts.size()];
        for (int i = 0; i < out.length; i++) {
            if (texts.get(i) == null) {
                throw new IllegalArgumentException(measure + ": " + side + " argument can not contain NULL values");
            }
            out[i] = Double.parseDouble(texts.get(i));
        }
        return out;
    }
}
