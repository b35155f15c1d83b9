package io.tessera.storage;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes a dictionary file in the form Tessera wrote before dictionaries could pass 2 GB (int count, int[count + 1]
 * byte offsets, then the UTF-8 bytes; little-endian), which databases made then still hold.
 */
final class OldDictionaryForm {

    private OldDictionaryForm() {
    }

    static byte[] encode(String... values) {
        byte[][] utf8 = new byte[values.length][];
        int total = 0;
        for (int i = 0; i < values.length; i++) {
            utf8[i] = values[i].getBytes(StandardCharsets.UTF_8);
            total += utf8[i].length;
        }
        ByteBuffer buf = ByteBuffer.allocate(4 + 4 * (values.length + 1) + total).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(values.length);
        int off = 0;
        for (byte[] b : utf8) {
            buf.putInt(off);
            off += b.length;
        }
        buf.putInt(off);
        for (byte[] b : utf8) {
            buf.put(b);
        }
        return buf.array();
    }
}
