package io.tessera.exec;

import java.util.Locale;

/** JSON string literals, for the JSON Tessera writes (EXPLAIN's JSON form here, `--format json` in the shell). */
public final class JsonStrings {
    private JsonStrings() {
    }

    /** Appends {@code s} as a JSON string literal: quotes, backslashes and control characters escaped. */
    public static void append(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    // U+2028 and U+2029 are valid JSON but end a line in JavaScript source: escape them too.
                    if (ch < 0x20 || ch == '\u2028' || ch == '\u2029') {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        b.append('"');
    }
}
