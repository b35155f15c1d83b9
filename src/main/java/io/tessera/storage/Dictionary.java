package io.tessera.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The sorted, distinct strings of one VARCHAR column. A value's code is its index, so codes compare as the
 * strings do (by code point, {@link CodePointOrder}, which is the order of their UTF-8 bytes): equality and
 * ranges on strings become equality and ranges on codes.
 */
public final class Dictionary {

    private final String[] values;

    /** {@code sortedDistinct} must be strictly increasing in {@link CodePointOrder}. */
    public Dictionary(String[] sortedDistinct) {
        this.values = sortedDistinct;
    }

    /** The dictionary of the distinct strings of {@code strings} (any order, repeats allowed). */
    public static Dictionary of(java.util.Collection<String> strings) {
        java.util.TreeSet<String> set = new java.util.TreeSet<>(CodePointOrder.ORDER);
        set.addAll(strings);
        return new Dictionary(set.toArray(new String[0]));
    }

    public int size() {
        return values.length;
    }

    public String value(int code) {
        return values[code];
    }

    /** The code of {@code s}, or -1 when the column does not hold it. */
    public int code(String s) {
        int i = Arrays.binarySearch(values, s, CodePointOrder.ORDER);
        return i >= 0 ? i : -1;
    }

    /** The first code whose string is >= s (size() if none). */
    public int lowerBound(String s) {
        int i = Arrays.binarySearch(values, s, CodePointOrder.ORDER);
        return i >= 0 ? i : -i - 1;
    }

    /** The first code whose string is > s (size() if none). */
    public int upperBound(String s) {
        int i = Arrays.binarySearch(values, s, CodePointOrder.ORDER);
        return i >= 0 ? i + 1 : -i - 1;
    }

    String[] values() {
        return values;
    }

    /** File form: int count, int[count+1] byte offsets, then the UTF-8 bytes; little-endian. */
    byte[] encode() {
        byte[][] utf8 = new byte[values.length][];
        int total = 0;
        for (int i = 0; i < values.length; i++) {
            utf8[i] = values[i].getBytes(StandardCharsets.UTF_8);
            total += utf8[i].length;
        }
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(4 + 4 * (values.length + 1) + total)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
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

    static Dictionary decode(java.lang.foreign.MemorySegment seg, String fileName) {
        try {
            var LE = java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
            int n = seg.get(LE, 0);
            long base = 4 + 4L * (n + 1);
            if (n < 0 || base > seg.byteSize()) {
                throw new StorageException("dictionary file " + fileName + " is damaged (bad entry count)");
            }
            String[] vals = new String[n];
            byte[] all = seg.asSlice(base).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            for (int i = 0; i < n; i++) {
                int a = seg.get(LE, 4 + 4L * i);
                int b = seg.get(LE, 4 + 4L * (i + 1));
                vals[i] = new String(all, a, b - a, StandardCharsets.UTF_8);
                if (i > 0 && CodePointOrder.compare(vals[i - 1], vals[i]) >= 0) {
                    // lookups by binary search would miss values: damaged, or sorted by UTF-16 code units as
                    // before code point order (differs only where characters above U+FFFF meet U+E000-U+FFFF)
                    throw new StorageException("dictionary file " + fileName + " is not in code point order"
                            + " (damaged, or written by an older Tessera); import the table again");
                }
            }
            return new Dictionary(vals);
        } catch (IndexOutOfBoundsException e) {
            throw new StorageException("dictionary file " + fileName + " is damaged", e);
        }
    }
}
