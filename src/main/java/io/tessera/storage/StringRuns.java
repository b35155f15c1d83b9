package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sorted runs of one VARCHAR column written in parts: each part's distinct strings, sorted on the part's own
 * thread, kept in a temporary file beside the column (so that a table's strings are held by the page cache, not the
 * heap) until {@link DictionaryMerge} merges them into the column's dictionary at commit.
 *
 * <p>A run of n strings at {@code base}: {@code int[n]} slots, each string's code in the merged dictionary once the
 * merge has filled them, until then where it first differs from the string before it in the run
 * ({@link RunTournament#successor}; 0 where not known); {@code int[n+1]} offsets of the strings in the bytes that
 * follow, then the UTF-8 bytes in order; little-endian. Parts store their runs concurrently, each at a place reserved
 * for it.
 */
final class StringRuns {

    /** A run: {@code count} sorted strings stored at {@code base}. */
    record Run(long base, int count) {

        long offsetsAt() {
            return base + 4L * count;
        }

        long bytesAt() {
            return offsetsAt() + 4L * (count + 1);
        }

        /** Where the merged code of the run's i-th string is kept. */
        long codeAt(int i) {
            return base + 4L * i;
        }
    }

    /** A part's run and the rank in it of each of the part's local codes. */
    record Sorted(Run run, int[] rank) {
    }

    private final Path file;
    private final FileChannel ch;
    private final AtomicLong end = new AtomicLong();

    StringRuns(Path file) throws IOException {
        this.file = file;
        this.ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Sorts {@code values} (a part's local dictionary in code order, where a string may repeat) and stores the distinct
     * ones as a run; {@code rank} maps each local code to its string's index in the run.
     */
    Sorted add(List<String> values) throws IOException {
        int n = values.size();
        byte[][] utf8 = new byte[n][];
        long total = 0;
        for (int i = 0; i < n; i++) {
            utf8[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
            total += utf8[i].length;
        }
        if (total > Integer.MAX_VALUE - 16 - 4L * (n + 1)) {
            throw new StorageException("a part of " + n + " strings holds " + total
                    + " bytes; parts hold at most 2 GB");
        }
        byte[] bytes = new byte[(int) total];
        int[] starts = new int[n + 1];
        for (int i = 0, at = 0; i < n; i++) {
            starts[i] = at;
            System.arraycopy(utf8[i], 0, bytes, at, utf8[i].length);
            at += utf8[i].length;
        }
        starts[n] = (int) total;
        return add(bytes, starts, n);
    }

    /**
     * As {@link #add(List)}, for values held as UTF-8 bytes end to end: value i is {@code bytes[starts[i],
     * starts[i + 1])}.
     */
    Sorted add(byte[] bytes, int[] starts, int n) throws IOException {
        int total = starts[n];
        if (total > Integer.MAX_VALUE - 16 - 4L * (n + 1)) {
            throw new StorageException("a part of " + n + " strings holds " + total
                    + " bytes; parts hold at most 2 GB");
        }
        // a large part's strings sorted bucket by bucket, each bucket's strings close together (Utf8Buckets)
        Utf8Buckets buckets = Utf8Buckets.of(bytes, starts, n);
        byte[] b = buckets == null ? bytes : buckets.bytes;
        int[] st = buckets == null ? starts : buckets.starts;
        int[] origin = buckets == null ? null : buckets.origin;
        int[] bounds = buckets == null ? new int[] {0, n} : buckets.bounds;
        int[] rank = new int[n];
        // plain arrays and System.arraycopy: a heap ByteBuffer's put per string went through the memory-access
        // checks of a bulk copy, which cost more than the copy itself for strings of a few dozen bytes
        int[] offsets = new int[n + 1];
        int[] successor = new int[n];
        byte[] data = new byte[total];
        int at = 0;
        int distinct = 0;
        for (int k = 0; k + 1 < bounds.length; k++) {
            int[] order = Utf8Sort.order(b, st, bounds[k], bounds[k + 1] - bounds[k]);
            int prev = -1; // equal strings share a bucket
            for (int c : order) {
                int from = st[c];
                int len = st[c + 1] - from;
                if (prev < 0 || !same(b, from, len, st[prev], st[prev + 1] - st[prev])) {
                    // found here, where both strings are in the caches, not by the merge reading them again
                    successor[distinct] = distinct == 0 ? 0
                            : RunTournament.successor(data, offsets[distinct - 1], at, b, from, len);
                    offsets[distinct++] = at;
                    System.arraycopy(b, from, data, at, len);
                    at += len;
                    prev = c;
                }
                rank[origin == null ? c : origin[c]] = distinct - 1;
            }
        }
        offsets[distinct] = at;
        ByteBuffer offsetBytes = ByteBuffer.allocate(4 * (distinct + 1)).order(ByteOrder.LITTLE_ENDIAN);
        offsetBytes.asIntBuffer().put(offsets, 0, distinct + 1);
        ByteBuffer slotBytes = ByteBuffer.allocate(4 * distinct).order(ByteOrder.LITTLE_ENDIAN);
        slotBytes.asIntBuffer().put(successor, 0, distinct);
        return new Sorted(store(distinct, slotBytes, offsetBytes, ByteBuffer.wrap(data, 0, at)), rank);
    }

    /**
     * Whether two strings of {@code bytes} are equal. Neighbours in sorted order share their first bytes, so the last
     * byte is looked at before the whole: distinct neighbours mostly differ there.
     */
    private static boolean same(byte[] bytes, int a, int la, int b, int lb) {
        return la == lb && (la == 0 || bytes[a + la - 1] == bytes[b + lb - 1])
                && Arrays.equals(bytes, a, a + la, bytes, b, b + lb);
    }

    /** Bytes of strings a run of {@link #add(DictionaryBuilder, int[])} holds at most (its offsets are ints). */
    static final long MAX_RUN_BYTES = 1L << 30;

    /**
     * Stores the strings of {@code dict} in {@code order} (sorted) as consecutive runs of at most {@code maxBytes}
     * bytes of strings each (at least one string each), so that strings written in order may pass 2 GB.
     */
    List<Run> add(DictionaryBuilder dict, int[] order, long maxBytes) throws IOException {
        List<Run> out = new java.util.ArrayList<>();
        int from = 0;
        while (from < order.length) {
            long total = dict.length(order[from]);
            int to = from + 1;
            while (to < order.length && total + dict.length(order[to]) <= maxBytes) {
                total += dict.length(order[to++]);
            }
            int n = to - from;
            ByteBuffer offsets = ByteBuffer.allocate(4 * (n + 1)).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer data = ByteBuffer.allocate(Math.toIntExact(total));
            for (int k = from; k < to; k++) {
                int c = order[k];
                offsets.putInt(data.position());
                data.put(dict.page(c), dict.start(c), dict.length(c));
            }
            offsets.putInt(data.position());
            out.add(store(n, null, offsets.flip(), data.flip()));
            from = to;
        }
        return out;
    }

    /**
     * Stores the strings of a stored dictionary (sorted, distinct) as consecutive runs of at most {@code maxBytes}
     * bytes of strings each, copied from its file as they lie: a table's previous version merged with what is
     * appended to it, without its strings on the heap.
     */
    List<Run> add(MappedDictionary dict, long maxBytes) throws IOException {
        List<Run> out = new java.util.ArrayList<>();
        MemorySegment file = dict.file();
        DictionaryFile.Layout layout = dict.layout();
        int n = dict.size();
        int from = 0;
        while (from < n) {
            long first = layout.offset(file, from);
            int to = from + 1;
            while (to < n && layout.offset(file, to + 1) - first <= maxBytes) {
                to++;
            }
            int count = to - from;
            ByteBuffer offsets = ByteBuffer.allocate(4 * (count + 1)).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = from; i <= to; i++) {
                offsets.putInt(Math.toIntExact(layout.offset(file, i) - first));
            }
            ByteBuffer data = file.asSlice(layout.dataAt() + first, layout.offset(file, to) - first).asByteBuffer();
            out.add(store(count, null, offsets.flip(), data));
            from = to;
        }
        return out;
    }

    /**
     * Stores a run of n strings: their slots ({@code slots}, or a hole of zeros where null: nothing known), offsets,
     * bytes.
     */
    private Run store(int n, ByteBuffer slots, ByteBuffer offsets, ByteBuffer data) throws IOException {
        long base = end.getAndAdd(4L * n + offsets.remaining() + data.remaining());
        long pos = slots == null ? base + 4L * n : base;
        ByteBuffer[] parts = slots == null ? new ByteBuffer[] {offsets, data} : new ByteBuffer[] {slots, offsets, data};
        for (ByteBuffer b : parts) {
            while (b.hasRemaining()) {
                pos += ch.write(b, pos);
            }
        }
        return new Run(base, n);
    }

    /** The whole file, mapped for the merge to read the strings and write the codes. */
    MemorySegment map(Arena arena) throws IOException {
        long size = end.get();
        return size == 0 ? MemorySegment.NULL : ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
    }

    /** Closes and deletes the file (after the commit, or when the write is abandoned). */
    void discard() {
        try {
            ch.close();
        } catch (IOException e) {
            // the file is removed below anyway
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a stray temporary file is never read: the manifest does not name it
        }
    }
}
