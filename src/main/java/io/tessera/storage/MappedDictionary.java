package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.lang.ref.SoftReference;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * A stored column's dictionary read where it lies in its memory-mapped file ({@link DictionaryFile}): opening it
 * reads the header only, a lookup is a binary search comparing UTF-8 bytes (whose unsigned order is code point order),
 * and a string is decoded when asked for. The heap holds none of its strings, so a dictionary may outgrow both 2 GB
 * and the heap. A small dictionary (a dimension's names, cities, brands: at most {@link #DECODED_MAX_STRINGS} strings
 * of at most {@link #DECODED_MAX_BYTES} bytes) keeps the strings it has decoded, softly held: results read the
 * same few values again in every query, and decoding one costs an allocation and a copy each time.
 */
final class MappedDictionary extends Dictionary {

    /** The most strings of a dictionary whose decoded strings are kept. */
    static final int DECODED_MAX_STRINGS = 1 << 16;
    /** The most bytes of strings of a dictionary whose decoded strings are kept. */
    static final long DECODED_MAX_BYTES = 1L << 20;

    private final MemorySegment file;
    private final DictionaryFile.Layout layout;
    /** Whether this dictionary is small enough to keep its decoded strings. */
    private final boolean keepsDecoded;
    /**
     * The strings decoded so far, by code (null: none yet, or reclaimed under memory pressure). Threads may fill
     * it at once: a String is immutable, so a slot read while another thread writes it is null or the string.
     */
    private volatile SoftReference<String[]> decoded;

    private MappedDictionary(MemorySegment file, DictionaryFile.Layout layout) {
        this.file = file;
        this.layout = layout;
        this.keepsDecoded = layout.size() <= DECODED_MAX_STRINGS
                && file.byteSize() - layout.dataAt() <= DECODED_MAX_BYTES;
    }

    static MappedDictionary open(MemorySegment file, String fileName) {
        DictionaryFile.Layout layout = DictionaryFile.layout(file, fileName);
        MappedDictionary d = new MappedDictionary(file, layout);
        if (!layout.wide()) {
            d.checkOldOrder(fileName);
        }
        return d;
    }

    /** The file, mapped. */
    MemorySegment file() {
        return file;
    }

    DictionaryFile.Layout layout() {
        return layout;
    }

    @Override
    public int size() {
        return layout.size();
    }

    @Override
    public String value(int code) {
        if (code < 0 || code >= layout.size()) {
            throw new IndexOutOfBoundsException("code " + code + " of a dictionary of " + layout.size());
        }
        if (!keepsDecoded) {
            return layout.string(file, code);
        }
        String[] strings = decodedStrings();
        String s = strings[code];
        if (s == null) {
            s = layout.string(file, code);
            strings[code] = s;
        }
        return s;
    }

    /** The array of decoded strings, made (again, if the collector took it) on first use. */
    private String[] decodedStrings() {
        SoftReference<String[]> ref = decoded;
        String[] strings = ref == null ? null : ref.get();
        if (strings == null) {
            strings = new String[layout.size()];
            decoded = new SoftReference<>(strings);
        }
        return strings;
    }

    @Override
    int search(String s) {
        if (!wellFormed(s)) {
            return searchDecoding(s);
        }
        byte[] key = s.getBytes(StandardCharsets.UTF_8);
        MemorySegment k = MemorySegment.ofArray(key);
        int lo = 0;
        int hi = layout.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = compare(mid, k, key);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /**
     * The search for a key with a lone surrogate (no stored string holds one, but a query may name one), which has no
     * UTF-8 form: by {@link CodePointOrder} on decoded strings, as a dictionary on the heap searches.
     */
    private int searchDecoding(String s) {
        int lo = 0;
        int hi = layout.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = CodePointOrder.compare(value(mid), s);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /** Whether every surrogate of {@code s} is one of a pair. */
    private static boolean wellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(i + 1));
                if (!paired) {
                    return false;
                }
                i++;
            }
        }
        return true;
    }

    /** String {@code code} against {@code key}'s bytes: unsigned byte order, the shorter first on a tie. */
    private int compare(int code, MemorySegment k, byte[] key) {
        long from = layout.start(file, code);
        long to = layout.end(file, code);
        long m = MemorySegment.mismatch(file, from, to, k, 0, key.length);
        if (m < 0) {
            return 0;
        }
        if (m == to - from) {
            return -1;
        }
        if (m == key.length) {
            return 1;
        }
        return Integer.compare(file.get(ValueLayout.JAVA_BYTE, from + m) & 0xff, key[(int) m] & 0xff);
    }

    /**
     * An old-form file may have been sorted by UTF-16 code units, as Tessera did before code point order; the two
     * orders differ only for characters above U+FFFF, whose UTF-8 form starts with a byte of 0xF0 or more. Only a
     * file holding such a byte has its order checked string by string (files of the current form are written in
     * code point order by construction).
     */
    private void checkOldOrder(String fileName) {
        if (!hasFourByteCharacter(file, layout.dataAt(), file.byteSize())) {
            return;
        }
        for (int i = 1; i < layout.size(); i++) {
            long a = layout.start(file, i - 1);
            long aEnd = layout.end(file, i - 1);
            long b = layout.start(file, i);
            long bEnd = layout.end(file, i);
            long m = MemorySegment.mismatch(file, a, aEnd, file, b, bEnd);
            boolean increasing = m >= 0 && (m == aEnd - a || (m < bEnd - b
                    && (file.get(ValueLayout.JAVA_BYTE, a + m) & 0xff)
                    < (file.get(ValueLayout.JAVA_BYTE, b + m) & 0xff)));
            if (!increasing) {
                // lookups by binary search would miss values: damaged, or sorted by UTF-16 code units
                throw new StorageException("dictionary file " + fileName + " is not in code point order"
                        + " (damaged, or written by an older Tessera); import the table again");
            }
        }
    }

    /** Whether bytes [from, to) hold one of 0xF0 or more, eight at a time. */
    private static boolean hasFourByteCharacter(MemorySegment seg, long from, long to) {
        long i = from;
        for (; i + 8 <= to; i += 8) {
            long w = seg.get(ValueLayout.JAVA_LONG_UNALIGNED, i);
            // a byte is 0xF0 or more when its top four bits are all set: find a zero byte in the complement
            long x = ~w & 0xF0F0F0F0F0F0F0F0L;
            if (((x - 0x0101010101010101L) & ~x & 0x8080808080808080L) != 0) {
                return true;
            }
        }
        for (; i < to; i++) {
            if ((seg.get(ValueLayout.JAVA_BYTE, i) & 0xF0) == 0xF0) {
                return true;
            }
        }
        return false;
    }
}
