package io.tessera.data.io;

import java.nio.charset.StandardCharsets;

/**
 * A reusable {@link CharSequence} view of bytes, so that the parsers of {@link io.tessera.storage.Values} can
 * read a field in place without a String per field. Bytes are read as ISO-8859-1 characters, which is exact for
 * the ASCII that numbers, dates and booleans are made of; {@link #toString} decodes UTF-8 (for
 * messages, which {@link MessageText#valueMessage} then shows with the field's own bytes escaped).
 */
final class ByteChars implements CharSequence {

    private byte[] bytes;
    private int from;
    private int to;

    ByteChars reset(byte[] bytes, int from, int to) {
        this.bytes = bytes;
        this.from = from;
        this.to = to;
        return this;
    }

    @Override
    public int length() {
        return to - from;
    }

    @Override
    public char charAt(int index) {
        return (char) (bytes[from + index] & 0xff);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().subSequence(start, end);
    }

    @Override
    public String toString() {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }
}
