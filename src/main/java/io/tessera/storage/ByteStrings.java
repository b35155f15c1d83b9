package io.tessera.storage;

import java.nio.charset.StandardCharsets;

/**
 * BLOB values as Tessera holds them: a String whose every character is one byte (0 to 255, as ISO-8859-1 maps
 * them), so that a BLOB shares VARCHAR's dictionary, codes and string code, and compares byte-wise unsigned as
 * DuckDB's BLOB does. The text forms are DuckDB's: printable ASCII as it is, every other byte (and the backslash and
 * both quotes) as {@code \xAB}.
 */
public final class ByteStrings {

    /** {@link DataType#precision()} of a BLOB (a VARCHAR kind). */
    public static final int BLOB_FORM = 1;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ByteStrings() {
    }

    /** The bytes of a byte string. */
    public static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A byte string of these bytes. */
    public static String of(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** A byte string of {@code length} bytes from {@code offset}. */
    public static String of(byte[] bytes, int offset, int length) {
        return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }

    /**
     * Reads DuckDB's text of a BLOB: ASCII characters as their bytes, {@code \xAB} (either case) as that byte.
     * Throws IllegalArgumentException naming the text for a character beyond ASCII or a bad escape, as DuckDB
     * refuses them.
     */
    public static String parse(CharSequence text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                if (i + 4 > text.length()) {
                    throw new IllegalArgumentException("invalid BLOB '" + text + "': unterminated escape at its end");
                }
                int hi = Character.digit(text.charAt(i + 2), 16);
                int lo = Character.digit(text.charAt(i + 3), 16);
                if (text.charAt(i + 1) != 'x' && text.charAt(i + 1) != 'X' || hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("invalid BLOB '" + text + "': bad escape "
                            + text.subSequence(i, i + 4) + " (a byte is written \\xAB)");
                }
                b.append((char) (hi << 4 | lo));
                i += 3;
            } else if (c > 127) {
                throw new IllegalArgumentException("invalid BLOB '" + text
                        + "': a character beyond ASCII must be written as its bytes (\\xAB)");
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** DuckDB's text of a BLOB: printable ASCII except \, ' and " as it is, every other byte as \xAB. */
    public static String format(String value) {
        StringBuilder b = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 32 && c <= 126 && c != '\\' && c != '\'' && c != '"') {
                b.append(c);
            } else {
                b.append("\\x").append(HEX[c >> 4 & 15]).append(HEX[c & 15]);
            }
        }
        return b.toString();
    }

    /** {@link #format(String)} of bytes. */
    public static String format(byte[] bytes) {
        return format(of(bytes));
    }
}
