package io.tessera.storage;

import java.util.Comparator;

/**
 * The order of strings by Unicode code point, which is the order of their UTF-8 bytes and the order DuckDB and
 * PostgreSQL (with the C collation) use. Java's {@link String#compareTo} compares UTF-16 code units instead,
 * which puts a character above U+FFFF (stored as two surrogates, 0xD800-0xDFFF) below one in U+E000-U+FFFF:
 * '😀' (U+1F600) before 'ｚ' (U+FF5A). Every place that orders strings (dictionaries, sorts, MIN/MAX,
 * comparisons) uses this order.
 */
public final class CodePointOrder {

    /** {@link #compare} as a comparator. */
    public static final Comparator<String> ORDER = CodePointOrder::compare;

    private CodePointOrder() {
    }

    /** Negative, zero or positive as {@code a} comes before, with or after {@code b} by code point. */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x >= Character.MIN_SURROGATE && y >= Character.MIN_SURROGATE) {
                    // only here does the order of code units differ from that of code points
                    return fixUp(x) - fixUp(y);
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    /**
     * Moves surrogates above U+E000-U+FFFF. At the first code unit where two well-formed strings differ, both
     * are surrogates of the same kind or neither is one, or one is a surrogate of a character above U+FFFF and
     * the other a character of the BMP, which then comes first.
     */
    private static int fixUp(char c) {
        return c > Character.MAX_SURROGATE ? c - 0x800 : c + 0x2000;
    }
}
