package io.tessera.data.io;

import java.util.Locale;

/** What an import does with bytes of a VARCHAR field that are not UTF-8. */
public enum InvalidUtf8 {
    /** Stop with an error naming the file, line and column; the table is left unchanged (the default). */
    ERROR,
    /** Store U+FFFD (the replacement character) for each invalid sequence and go on. */
    REPLACE;

    /** Parses {@code error} or {@code replace}, ignoring case. */
    public static InvalidUtf8 parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "error" -> ERROR;
            case "replace" -> REPLACE;
            default -> throw new IllegalArgumentException("unknown --invalid-utf8 '" + text + "' (use error or replace)");
        };
    }
}
