package io.tessera.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The distinct strings of a VARCHAR column being written, held compactly: their UTF-8 bytes end to end in pages
 * of 1 MB (never copied to grow), found through an open-addressing table of codes. About the string's bytes plus
 * 14 bytes a value, where a {@code HashMap<String, Integer>} with a list of the strings takes over 100 bytes more:
 * six million distinct comments (TPC-H lineitem at SF 1) take about 240 MB instead of 900 MB. The finished dictionary
 * is sorted without boxing and written straight to its file in {@link DictionaryFile}'s current form.
 */
final class DictionaryBuilder {

    /** Bytes of a page; a value longer than a page gets a page of its own. */
    private static final int PAGE = 1 << 20;
    /** The largest table of codes: an array's length is an int. */
    private static final int MAX_TABLE = 1 << 30;

    /** The column the strings are written to, named in errors. */
    private final String column;
    /** The values' bytes, each a varint length then its UTF-8 bytes, in pages that are never copied to grow. */
    private byte[][] pages = new byte[16][];
    private int pageCount;
    private int pageUsed = PAGE;
    /** Where value i is: page index &lt;&lt; 20 | offset of its length in the page. */
    private long[] where = new long[256];
    private int size;
    /** Codes by hash, -1 empty; at most three quarters full. */
    private int[] table = newTable(512);

    DictionaryBuilder(String column) {
        this.column = column;
    }

    private static int[] newTable(int n) {
        int[] t = new int[n];
        Arrays.fill(t, -1);
        return t;
    }

    int size() {
        return size;
    }

    byte[] page(int c) {
        return pages[(int) (where[c] >>> 20)];
    }

    /** Offset of value c's first byte in its page. */
    int start(int c) {
        byte[] p = page(c);
        int off = (int) (where[c] & (PAGE - 1));
        while (p[off] < 0) {
            off++;
        }
        return off + 1;
    }

    /** Bytes of value c's UTF-8 form. */
    int length(int c) {
        byte[] p = page(c);
        int off = (int) (where[c] & (PAGE - 1));
        int len = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = p[off++];
            len |= (b & 0x7f) << shift;
            if (b >= 0) {
                return len;
            }
        }
    }

    /** The code of {@code s} in insertion order, adding it when new. */
    int add(String s) {
        return add(s.getBytes(StandardCharsets.UTF_8));
    }

    /** The code of the string of UTF-8 bytes {@code b} in insertion order, adding it when new. */
    int add(byte[] b) {
        int h = hash(b, 0, b.length);
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int c = table[i];
            if (c < 0) {
                return insert(b, i);
            }
            if (length(c) == b.length) {
                int off = start(c);
                if (Arrays.equals(page(c), off, off + b.length, b, 0, b.length)) {
                    return c;
                }
            }
        }
    }

    private int insert(byte[] b, int slot) {
        int need = b.length + 5;
        if (pageUsed + need > PAGE || need > PAGE) {
            if (pageCount == pages.length) {
                pages = Arrays.copyOf(pages, pages.length * 2);
            }
            pages[pageCount++] = new byte[Math.max(PAGE, need)];
            pageUsed = 0;
        }
        int page = pageCount - 1;
        byte[] p = pages[page];
        int at = pageUsed;
        int off = at;
        int len = b.length;
        while (len >= 0x80) {
            p[off++] = (byte) (len | 0x80);
            len >>>= 7;
        }
        p[off++] = (byte) len;
        System.arraycopy(b, 0, p, off, b.length);
        pageUsed = need > PAGE ? PAGE : off + b.length;
        if (size == where.length) {
            if (size >= DictionaryFile.MAX_SIZE) {
                throw new StorageException("column " + column + " has more than " + DictionaryFile.MAX_SIZE
                        + " distinct strings; a column holds at most that many");
            }
            long grown = where.length + (long) (where.length >> 1);
            where = Arrays.copyOf(where, (int) Math.min(DictionaryFile.MAX_SIZE, grown));
        }
        int code = size++;
        where[code] = (long) page << 20 | at;
        table[slot] = code;
        if (4L * size > 3L * table.length) {
            if (table.length == MAX_TABLE) {
                throw new StorageException("column " + column + " has more than " + size + " distinct strings written"
                        + " row by row; write them as parts (an import) or in several statements");
            }
            rehash();
        }
        return code;
    }

    private void rehash() {
        int[] t = newTable(table.length * 2);
        int mask = t.length - 1;
        for (int c = 0; c < size; c++) {
            int i = hash(page(c), start(c), length(c)) & mask;
            while (t[i] >= 0) {
                i = (i + 1) & mask;
            }
            t[i] = c;
        }
        table = t;
    }

    private static int hash(byte[] b, int off, int len) {
        int h = 0x9747b28c;
        for (int i = 0; i < len; i++) {
            h = (h ^ b[off + i]) * 0x01000193;
        }
        return h ^ (h >>> 15) ^ (h >>> 7);
    }

    /** The string of code {@code c} (insertion order). */
    String value(int c) {
        return new String(page(c), start(c), length(c), StandardCharsets.UTF_8);
    }

    /** The codes in the order of their strings, by code point ({@link CodePointOrder}). */
    int[] sortedOrder() {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        int[] tmp = new int[size];
        mergeSort(order, tmp, 0, size);
        return order;
    }

    private void mergeSort(int[] a, int[] tmp, int from, int to) {
        if (to - from < 24) {
            for (int i = from + 1; i < to; i++) {
                int v = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], v) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid);
        mergeSort(a, tmp, mid, to);
        if (compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && compare(tmp[i], tmp[j]) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }

    /**
     * Compares two values by code point ({@link CodePointOrder}), on their UTF-8 bytes: unsigned byte order is code
     * point order.
     */
    int compare(int x, int y) {
        byte[] px = page(x);
        byte[] py = page(y);
        int ox = start(x);
        int oy = start(y);
        int lx = length(x);
        int ly = length(y);
        int n = Math.min(lx, ly);
        int i = Arrays.mismatch(px, ox, ox + n, py, oy, oy + n);
        if (i < 0) {
            return Integer.compare(lx, ly);
        }
        return Integer.compare(px[ox + i] & 0xff, py[oy + i] & 0xff);
    }

    /**
     * Writes the values in {@code order} in {@link DictionaryFile}'s current form, forced to disk; returns the file's
     * length and CRC-32C.
     */
    long[] write(Path file, int[] order) throws IOException {
        try (FileSyncs syncs = new FileSyncs(file.toString())) {
            long[] lengthAndCrc = write(file, order, syncs);
            syncs.await();
            return lengthAndCrc;
        }
    }

    /** As {@link #write(Path, int[])}, handing the forcing of the file to {@code syncs}. */
    long[] write(Path file, int[] order, FileSyncs syncs) throws IOException {
        CRC32C crc = new CRC32C();
        long length = 0;
        ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            buf.putInt(DictionaryFile.MAGIC).putInt(0).putLong(size);
            long off = 0;
            for (int k = 0; k <= size; k++) {
                if (buf.remaining() < 8) {
                    length += drain(buf, ch, crc);
                }
                buf.putLong(off);
                if (k < size) {
                    off += length(order[k]);
                }
            }
            for (int k = 0; k < size; k++) {
                int c = order[k];
                byte[] p = page(c);
                int from = start(c);
                int len = length(c);
                while (len > 0) {
                    if (!buf.hasRemaining()) {
                        length += drain(buf, ch, crc);
                    }
                    int m = Math.min(len, buf.remaining());
                    buf.put(p, from, m);
                    from += m;
                    len -= m;
                }
            }
            length += drain(buf, ch, crc);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        syncs.submitForceAndClose(null, ch, null);
        return new long[] {length, crc.getValue()};
    }

    private static int drain(ByteBuffer buf, FileChannel ch, CRC32C crc) throws IOException {
        buf.flip();
        int n = buf.remaining();
        crc.update(buf.duplicate());
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
        buf.clear();
        return n;
    }
}
