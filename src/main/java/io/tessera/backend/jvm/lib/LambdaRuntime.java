package io.tessera.backend.jvm.lib;

import io.tessera.storage.ListCodec;

/** What the generated loops of list_transform, list_filter, list_reduce and list comprehensions call. */
public final class LambdaRuntime {

    private LambdaRuntime() {
    }

    /** A list's element texts in order (null: a NULL element). */
    public static String[] elements(String list) {
        return ListCodec.texts(list).toArray(new String[0]);
    }

    /** Appends an element's text (null: NULL) to a list being built. */
    public static void append(StringBuilder list, String text) {
        ListCodec.append(list, text);
    }

    /** A list_reduce without an initial value needs an element to start from: DuckDB's error where there is none. */
    public static void checkReducible(int elements) {
        if (elements == 0) {
            throw new IllegalArgumentException("Cannot perform list_reduce on an empty input list");
        }
    }
}
