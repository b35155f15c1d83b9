package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The file forms of a {@link Dictionary}, little-endian, read where they lie (memory-mapped):
 * <ul>
 * <li>the current form, for any size: int {@link #MAGIC}, int 0, long count n, long[n + 1] byte offsets of the
 * strings (from the start of the bytes), then the strings' UTF-8 bytes end to end in code point order;</li>
 * <li>the old form, written before dictionaries could pass 2 GB and still read: int count n, int[n + 1] byte
 * offsets, then the bytes.</li>
 * </ul>
 * A count is never negative, so the magic number (negative as an int) tells the forms apart.
 */
final class DictionaryFile {

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The first int of the current form: "D1C7" then 64 (the offsets' bits). */
    static final int MAGIC = 0xD1C7_0064;
    /** Codes are ints: a dictionary holds at most this many strings. */
    static final int MAX_SIZE = Integer.MAX_VALUE - 8;

    private DictionaryFile() {
    }

    /** Where the parts of a dictionary file lie: its size, its offsets (4 or 8 bytes each) and its bytes. */
    record Layout(int size, boolean wide, long offsetsAt, long dataAt) {

        /** Offset of string {@code i}'s first byte ({@code i == size}: the end of the bytes). */
        long offset(MemorySegment seg, int i) {
            return wide ? seg.get(LONG, offsetsAt + 8L * i) : Integer.toUnsignedLong(seg.get(INT, offsetsAt + 4L * i));
        }

        /** Position in the file of string {@code i}'s first byte. */
        long start(MemorySegment seg, int i) {
            return dataAt + offset(seg, i);
        }

        /** Position in the file just past string {@code i}'s last byte. */
        long end(MemorySegment seg, int i) {
            return dataAt + offset(seg, i + 1);
        }

        /** String {@code i}, decoded. */
        String string(MemorySegment seg, int i) {
            long from = start(seg, i);
            long length = end(seg, i) - from;
            if (length > Integer.MAX_VALUE - 8) {
                throw new StorageException("a dictionary string of " + length + " bytes is too long to read");
            }
            return new String(seg.asSlice(from, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        }
    }

    /** Bytes before the strings of a current-form file of {@code n} strings. */
    static long headerBytes(long n) {
        return 16 + 8 * (n + 1);
    }

    /** Writes the current form's fixed header (magic, count) at the start of {@code seg}. */
    static void putHeader(MemorySegment seg, long n) {
        seg.set(INT, 0, MAGIC);
        seg.set(INT, 4, 0);
        seg.set(LONG, 8, n);
    }

    /** Where offset {@code i} of a current-form file goes. */
    static long offsetAt(long i) {
        return 16 + 8 * i;
    }

    /** The layout of a dictionary file of either form; checks only what costs nothing per string. */
    static Layout layout(MemorySegment seg, String fileName) {
        try {
            int first = seg.get(INT, 0);
            Layout l;
            if (first == MAGIC) {
                long n = seg.get(LONG, 8);
                if (n < 0 || n > MAX_SIZE || headerBytes(n) > seg.byteSize()) {
                    throw damaged(fileName, "bad entry count " + n);
                }
                l = new Layout((int) n, true, 16, headerBytes(n));
            } else if (first >= 0) {
                long dataAt = 4 + 4L * (first + 1);
                if (dataAt > seg.byteSize()) {
                    throw damaged(fileName, "bad entry count " + first);
                }
                l = new Layout(first, false, 4, dataAt);
            } else {
                throw damaged(fileName, "unknown form");
            }
            if (l.offset(seg, 0) != 0 || l.end(seg, l.size() - 1) != seg.byteSize()) {
                throw damaged(fileName, "its offsets do not cover its bytes");
            }
            return l;
        } catch (IndexOutOfBoundsException e) {
            throw new StorageException("dictionary file " + fileName + " is damaged", e);
        }
    }

    private static StorageException damaged(String fileName, String why) {
        return new StorageException("dictionary file " + fileName + " is damaged (" + why + ")");
    }

    /** {@code sortedDistinct} in the current form (for small dictionaries and tests). */
    static byte[] encode(String[] sortedDistinct) {
        byte[][] utf8 = new byte[sortedDistinct.length][];
        long total = 0;
        for (int i = 0; i < utf8.length; i++) {
            utf8[i] = sortedDistinct[i].getBytes(StandardCharsets.UTF_8);
            total += utf8[i].length;
        }
        MemorySegment seg = MemorySegment.ofArray(new byte[Math.toIntExact(headerBytes(utf8.length) + total)]);
        putHeader(seg, utf8.length);
        long at = headerBytes(utf8.length);
        long off = 0;
        for (int i = 0; i < utf8.length; i++) {
            seg.set(LONG, offsetAt(i), off);
            MemorySegment.copy(MemorySegment.ofArray(utf8[i]), 0, seg, at + off, utf8[i].length);
            off += utf8[i].length;
        }
        seg.set(LONG, offsetAt(utf8.length), off);
        return seg.toArray(ValueLayout.JAVA_BYTE);
    }
}
