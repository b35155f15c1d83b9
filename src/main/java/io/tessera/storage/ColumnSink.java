package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * One column of a table version being written: its temporary file, into which batches are written at the rows
 * reserved for them (in order through {@link #write}, or as parts on any thread through {@link #writePart}), and
 * what finishing it needs: null bits, and for VARCHAR the strings. Strings written in order go into one dictionary in
 * insertion order, sorted at commit; a part's strings are sorted on the part's thread into a run ({@link StringRuns}),
 * and the runs merged at commit ({@link DictionaryMerge}). Either way the codes in the file are then rewritten to the
 * sorted dictionary's, on all cores.
 */
final class ColumnSink {

    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble LE_DOUBLE =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Each thread's buffer for positional writes. */
    private static final ThreadLocal<ByteBuffer> BUFFER =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(1 << 20));
    /** Rows a task rewrites codes for. */
    private static final long REMAP_ROWS = 1 << 20;
    /**
     * Bytes of a column's values written since its file was last forced after which it is forced again while the
     * writing goes on (tests lower it). The kernel keeps gigabytes of written pages in memory before it writes them
     * back by itself, so without this the whole table would reach the disk only when the commit forces it, with the
     * cores idle; forced early, the disk writes beside the parse and the commit forces what is left.
     */
    static volatile long earlyForceBytes = 64L << 20;

    private final Database db;
    private final String table;
    private final Path tableDir;
    private final String base;
    final ColumnSchema col;
    final int index;
    final TypeKind kind;
    private final Path tmpData;
    private final Path finalData;
    private final FileChannel ch;
    // null bits over all rows (set = NULL), null while the column has none; guarded by this
    private long[] nullBits;
    private long nullCount;
    // VARCHAR written in order: the dictionary in insertion order, and the row ranges {first, count} whose codes
    // index it
    private final DictionaryBuilder values;
    private final List<long[]> valueRows = new ArrayList<>();
    // appended to: the previous version's rows [0, oldRows), and for VARCHAR its dictionary, whose codes they hold
    private Dictionary oldDictionary;
    private long oldRows;
    // VARCHAR written in parts: each part's run and rows; guarded by this
    private StringRuns runs;
    private final List<PartRows> parts = new ArrayList<>();
    // not VARCHAR: the statistics of the rows written (all but a previous version's), made from each batch as it is
    // written, so that the commit scans only the rows it copied; guarded by this
    private final ColumnStatsScanner.Partial written = new ColumnStatsScanner.Partial();
    // the forcing of the column's files, handed over while the rows are written and at commit
    private final FileSyncs syncs;
    // bytes written since the file's last early forcing, and whether one is queued or running
    private final AtomicLong unforced = new AtomicLong();
    private final AtomicBoolean forcing = new AtomicBoolean();
    private Path tmpValidity;
    private Path finalValidity;
    private Path tmpDictionary;
    private Path finalDictionary;

    /** A part's rows and the run of its strings. */
    private record PartRows(StringRuns.Run run, long first, int rows) {
    }

    ColumnSink(Database db, String table, Path tableDir, int generation, ColumnSchema col, int index, FileSyncs syncs)
            throws IOException {
        this.db = db;
        this.syncs = syncs;
        this.table = table;
        this.tableDir = tableDir;
        this.col = col;
        this.index = index;
        this.kind = col.type().kind();
        // the file name in lower case, as the table's folder: the same on a file system that ignores case
        this.base = col.name().toLowerCase(java.util.Locale.ROOT) + ".g" + generation;
        this.values = new DictionaryBuilder(col.name());
        this.tmpData = tableDir.resolve(base + ".bin.tmp");
        this.finalData = tableDir.resolve(base + ".bin");
        this.ch = FileChannel.open(tmpData, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /** The rows of the table's previous version (an append), as its first rows. */
    void copyFrom(Column old, long oldRows) throws IOException {
        try (FileChannel in = FileChannel.open(db.resolve(old.dataFile()), StandardOpenOption.READ)) {
            long pos = 0;
            long size = in.size();
            while (pos < size) {
                pos += in.transferTo(pos, size - pos, ch);
            }
        }
        if (old.hasNulls()) {
            MemorySegment v = old.validity();
            nullBits = new long[(int) ((oldRows + 63) >>> 6) + 1];
            for (int w = 0; w < (oldRows + 63) >>> 6; w++) {
                nullBits[w] = ~v.get(Column.LONG, (long) w << 3);
            }
            if ((oldRows & 63) != 0) {
                nullBits[(int) (oldRows >>> 6)] &= (1L << (oldRows & 63)) - 1;
            }
            nullCount = old.stats().nullCount();
        }
        this.oldRows = oldRows;
        if (kind == TypeKind.VARCHAR && old.dictionary().size() > 0) {
            // merged at commit as runs read from its file, so the strings of a large column stay off the heap
            oldDictionary = old.dictionary();
        }
    }

    /** Writes rows {@code firstRow ..} in order of arrival; the caller holds the writer's lock. */
    void write(ColumnBuilder b, int n, long firstRow) throws IOException {
        if (kind == TypeKind.VARCHAR) {
            List<String> local = b.localValues();
            int[] map = new int[local.size()];
            for (int i = 0; i < map.length; i++) {
                map[i] = values.add(local.get(i));
            }
            putCodes(b, n, map, firstRow);
            long[] last = valueRows.isEmpty() ? null : valueRows.getLast();
            if (last != null && last[0] + last[1] == firstRow) {
                last[1] += n;
            } else {
                valueRows.add(new long[] {firstRow, n});
            }
        } else {
            writeValues(b, n, firstRow);
            ColumnStatsScanner.Partial p = ColumnStatsScanner.part(kind, b, n);
            synchronized (this) {
                written.merge(p);
            }
        }
        nulls(b, n, firstRow);
    }

    /** Writes a part: rows {@code firstRow ..}, reserved for it; called on any thread, parts in parallel. */
    void writePart(ColumnBuilder b, int n, long firstRow) throws IOException {
        if (kind == TypeKind.VARCHAR) {
            LocalUtf8 utf8 = b.localUtf8();
            StringRuns.Sorted sorted = utf8 != null ? runs().add(utf8.bytes(), utf8.starts(), utf8.count())
                    : runs().add(b.localValues());
            putCodes(b, n, sorted.rank(), firstRow);
            synchronized (this) {
                parts.add(new PartRows(sorted.run(), firstRow, n));
            }
        } else {
            writeValues(b, n, firstRow);
            ColumnStatsScanner.Partial p = ColumnStatsScanner.part(kind, b, n);
            synchronized (this) {
                written.merge(p);
            }
        }
        nulls(b, n, firstRow);
    }

    private synchronized StringRuns runs() throws IOException {
        if (runs == null) {
            runs = new StringRuns(tableDir.resolve(base + ".runs.tmp"));
        }
        return runs;
    }

    /**
     * Writes a batch's VARCHAR codes through {@code map} (local code to the code written), mapped as they are copied
     * to the write buffer; a NULL's code is 0.
     */
    private void putCodes(ColumnBuilder b, int n, int[] map, long firstRow) throws IOException {
        int[] src = b.ints();
        put(n, 4, firstRow, (buf, from, k) -> {
            for (int i = 0; i < k; i++) {
                int r = from + i;
                int c = src[r];
                buf.set(LE_INT, 4L * i, c >= 0 && c < map.length && !b.isNull(r) ? map[c] : 0);
            }
        });
    }

    private void writeValues(ColumnBuilder b, int n, long firstRow) throws IOException {
        switch (kind) {
            case INTEGER, DATE -> putInts(b.ints(), n, firstRow);
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> put(n, 8, firstRow, (buf, from, k) ->
                    MemorySegment.copy(b.longs(), from, buf, LE_LONG, 0, k));
            case DOUBLE -> put(n, 8, firstRow, (buf, from, k) ->
                    MemorySegment.copy(b.doubles(), from, buf, LE_DOUBLE, 0, k));
            case BOOLEAN -> put(n, 1, firstRow, (buf, from, k) ->
                    MemorySegment.copy(b.bytes(), from, buf, ValueLayout.JAVA_BYTE, 0, k));
            case VARCHAR -> throw new IllegalStateException("VARCHAR values are written as codes");
        }
    }

    private void putInts(int[] src, int n, long firstRow) throws IOException {
        put(n, 4, firstRow, (buf, from, k) -> MemorySegment.copy(src, from, buf, LE_INT, 0, k));
    }

    @FunctionalInterface
    private interface Fill {
        /** Copies values {@code [from, from + k)} to the start of {@code buf}. */
        void fill(MemorySegment buf, int from, int k);
    }

    /** Writes {@code n} values of {@code width} bytes at row {@code firstRow}, through this thread's buffer. */
    private void put(int n, int width, long firstRow, Fill fill) throws IOException {
        ByteBuffer buf = BUFFER.get();
        MemorySegment seg = MemorySegment.ofBuffer(buf.clear());
        int perBuffer = buf.capacity() / width;
        for (int from = 0; from < n; from += perBuffer) {
            int k = Math.min(perBuffer, n - from);
            fill.fill(seg, from, k);
            buf.clear().limit(k * width);
            long pos = (firstRow + from) * width;
            while (buf.hasRemaining()) {
                pos += ch.write(buf, pos);
            }
        }
        if (kind != TypeKind.VARCHAR) {
            forceEarly((long) n * width);
        }
    }

    /**
     * Counts {@code bytes} written and, once {@link #earlyForceBytes} are, hands a forcing of the file to the sync
     * threads. Not for VARCHAR: its codes are rewritten at commit, so pages forced now would be written twice.
     */
    private void forceEarly(long bytes) {
        if (!syncs.durable() || unforced.addAndGet(bytes) < earlyForceBytes || !forcing.compareAndSet(false, true)) {
            return;
        }
        unforced.set(0);
        syncs.submit(() -> {
            try {
                ch.force(false);
            } catch (ClosedChannelException e) {
                // the commit's own forcing of the file ran first and closed it: what this one would write is on disk
            } finally {
                forcing.set(false);
            }
        });
    }

    private void nulls(ColumnBuilder b, int n, long firstRow) {
        if (!b.hasNulls()) {
            return;
        }
        synchronized (this) {
            for (int r = 0; r < n; r++) {
                if (b.isNull(r)) {
                    setNull(firstRow + r);
                }
            }
        }
    }

    private void setNull(long row) {
        int w = (int) (row >>> 6);
        if (nullBits == null) {
            nullBits = new long[Math.max(w + 1, 1024)];
        } else if (w >= nullBits.length) {
            nullBits = Arrays.copyOf(nullBits, Math.max(w + 1, nullBits.length * 2));
        }
        nullBits[w] |= 1L << (row & 63);
        nullCount++;
    }

    /**
     * What {@link #finish} has to do, in rows, to start the columns with most first: every column scans its rows, a
     * VARCHAR column merges its runs' strings too (a string merged costing about as much as a few rows scanned).
     */
    synchronized long commitWork(long totalRows) {
        long strings = values.size();
        for (PartRows p : parts) {
            strings += p.run().count();
        }
        if (oldDictionary != null) {
            strings += oldDictionary.size();
        }
        return totalRows + 4 * strings;
    }

    /**
     * Sorts or merges the dictionary, rewrites codes, writes validity, computes statistics and checksums; hands the
     * forcing of the column's files to {@code syncs}, which the commit awaits before it renames them into place.
     */
    synchronized Manifest.ColumnEntry finish(long totalRows) {
        Arena a = Arena.ofShared();
        boolean handedOver = false;
        try {
            long bytes = totalRows * kind.byteWidth();
            if (ch.size() != bytes) {
                throw new StorageException("column " + col.name() + " file " + tmpData + " has " + ch.size()
                        + " bytes, expected " + bytes);
            }
            FileEntry dict = null;
            ColumnStats stats;
            MemorySegment seg = bytes == 0 ? MemorySegment.NULL : ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, a);
            if (kind == TypeKind.VARCHAR) {
                tmpDictionary = tableDir.resolve(base + ".dict.tmp");
                finalDictionary = tableDir.resolve(base + ".dict");
                DictionaryMerge.Result d = runs == null && oldDictionary == null ? sortValues(seg, syncs)
                        : mergeRuns(seg, syncs);
                dict = new FileEntry(rel(finalDictionary), d.length(), d.crc());
                stats = ColumnStatsScanner.strings(seg, totalRows, nullBits, nullCount, d.size(), d.min(), d.max());
                // a histogram names a few hundred codes of a dictionary that may hold millions: read in place
                Dictionary sorted = d.size() == 0 ? null
                        : Dictionary.open(mapRead(tmpDictionary, a), tmpDictionary.toString());
                stats = HistogramBuilder.attach(stats, kind, seg, totalRows, nullBits, d.size(),
                        c -> sorted.value(c));
            } else {
                stats = ColumnStatsScanner.scan(kind, seg, totalRows, nullBits, oldRows, written);
                stats = HistogramBuilder.attach(stats, kind, seg, totalRows, nullBits, 0, null);
            }
            long crc = Crc32cParts.of(seg);
            FileEntry data = new FileEntry(rel(finalData), bytes, crc);
            FileEntry validity = nullCount > 0 ? writeValidity(totalRows, syncs) : null;
            // the mapping stays until its pages are forced; the sync thread then closes file and mapping
            syncs.submitForceAndClose(bytes > 0 ? seg : null, ch, a);
            handedOver = true;
            return new Manifest.ColumnEntry(data, validity, dict, stats);
        } catch (IOException e) {
            throw new StorageException("cannot finish column " + col.name() + " of " + table + ": "
                    + e.getMessage(), e);
        } finally {
            if (!handedOver) {
                a.close();
            }
        }
    }

    private static MemorySegment mapRead(Path file, Arena arena) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return in.map(FileChannel.MapMode.READ_ONLY, 0, in.size(), arena);
        }
    }

    /** Only rows written in order: their dictionary sorted and written, their codes rewritten to it. */
    private DictionaryMerge.Result sortValues(MemorySegment seg, FileSyncs syncs) throws IOException {
        int[] order = values.sortedOrder();
        int n = order.length;
        int[] rank = new int[n];
        boolean identity = true;
        for (int s = 0; s < n; s++) {
            rank[order[s]] = s;
            identity &= order[s] == s;
        }
        if (!identity) {
            for (long[] rows : valueRows) {
                remap(seg, rows[0], rows[1], rank);
            }
        }
        long[] lengthAndCrc = values.write(tmpDictionary, order, syncs);
        return new DictionaryMerge.Result(lengthAndCrc[0], lengthAndCrc[1], n,
                n == 0 ? null : values.value(order[0]), n == 0 ? null : values.value(order[n - 1]));
    }

    /**
     * Rows written in parts, or appended to a previous version (whose dictionary becomes runs), maybe some in order
     * (whose dictionary becomes runs too): the runs merged into the dictionary, each part's codes rewritten through its
     * run's codes in it, parts in parallel.
     */
    private DictionaryMerge.Result mergeRuns(MemorySegment seg, FileSyncs syncs) throws IOException {
        try (Arena a = Arena.ofShared()) {
            int[] order = values.size() > 0 ? values.sortedOrder() : new int[0];
            List<StringRuns.Run> ordered = runs().add(values, order, StringRuns.MAX_RUN_BYTES);
            List<StringRuns.Run> previous = oldDictionary == null ? List.of()
                    : runs.add(mapped(oldDictionary), StringRuns.MAX_RUN_BYTES);
            List<StringRuns.Run> list = new ArrayList<>(previous);
            parts.sort(Comparator.comparingLong(PartRows::first));
            for (PartRows p : parts) {
                list.add(p.run());
            }
            list.addAll(ordered);
            MemorySegment runSeg = runs.map(a);
            DictionaryMerge.Result d = DictionaryMerge.merge(runSeg, list, tmpDictionary, col.name(), syncs);
            parts.parallelStream().forEach(p -> {
                int[] code = DictionaryMerge.codes(runSeg, p.run());
                if (!isIdentity(code)) {
                    remap(seg, p.first(), p.rows(), code);
                }
            });
            if (!previous.isEmpty()) {
                int[] code = new int[oldDictionary.size()]; // code in the previous version -> merged code
                int s = 0;
                for (StringRuns.Run run : previous) {
                    int[] c = DictionaryMerge.codes(runSeg, run);
                    System.arraycopy(c, 0, code, s, c.length);
                    s += c.length;
                }
                if (!isIdentity(code)) {
                    remap(seg, 0, oldRows, code);
                }
            }
            if (!ordered.isEmpty()) {
                int[] code = new int[order.length]; // insertion code -> sorted rank -> merged code
                int s = 0;
                for (StringRuns.Run run : ordered) {
                    for (int c : DictionaryMerge.codes(runSeg, run)) {
                        code[order[s++]] = c;
                    }
                }
                for (long[] rows : valueRows) {
                    remap(seg, rows[0], rows[1], code);
                }
            }
            return d;
        } finally {
            runs.discard();
        }
    }

    /** {@code d} as a dictionary read from a file's form (a stored column's already is). */
    private static MappedDictionary mapped(Dictionary d) {
        if (d instanceof MappedDictionary m) {
            return m;
        }
        String[] all = new String[d.size()];
        for (int c = 0; c < all.length; c++) {
            all[c] = d.value(c);
        }
        return MappedDictionary.open(MemorySegment.ofArray(DictionaryFile.encode(all)), "a dictionary");
    }

    /** Whether every code maps to itself: rows holding such codes need no new ones. */
    private static boolean isIdentity(int[] code) {
        for (int i = 0; i < code.length; i++) {
            if (code[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** Rows whose codes {@link #remap} copies to an array, rewrites there and copies back. */
    private static final int REMAP_CHUNK = 1 << 13;

    /**
     * Rewrites the codes of rows [first, first + count) through {@code code}, in ranges on all cores, a chunk at a
     * time through an array (a loop over the file value by value ran slowly until compiled); a NULL's code stays 0,
     * whichever path wrote it.
     */
    private void remap(MemorySegment seg, long first, long count, int[] code) {
        long[] nulls = nullBits;
        int tasks = (int) ((count + REMAP_ROWS - 1) / REMAP_ROWS);
        IntStream.range(0, tasks).parallel().forEach(t -> {
            int[] chunk = new int[REMAP_CHUNK];
            long end = first + Math.min(count, (t + 1) * REMAP_ROWS);
            for (long from = first + t * REMAP_ROWS; from < end; from += REMAP_CHUNK) {
                int k = (int) Math.min(REMAP_CHUNK, end - from);
                MemorySegment.copy(seg, Column.INT, from << 2, chunk, 0, k);
                mapCodes(chunk, k, code);
                if (nulls != null) {
                    zeroNulls(chunk, k, from, nulls);
                }
                MemorySegment.copy(chunk, 0, seg, Column.INT, from << 2, k);
            }
        });
    }

    private static void mapCodes(int[] chunk, int k, int[] code) {
        for (int i = 0; i < k; i++) {
            int c = chunk[i];
            chunk[i] = c >= 0 && c < code.length ? code[c] : 0;
        }
    }

    /** Sets to 0 the codes of the NULL rows among rows {@code [from, from + k)}. */
    private static void zeroNulls(int[] chunk, int k, long from, long[] nulls) {
        for (int i = 0; i < k; i++) {
            long r = from + i;
            if ((r >>> 6) < nulls.length && (nulls[(int) (r >>> 6)] & (1L << r)) != 0) {
                chunk[i] = 0;
            }
        }
    }

    private FileEntry writeValidity(long totalRows, FileSyncs syncs) {
        int words = (int) ((totalRows + 63) >>> 6);
        byte[] out = new byte[words * 8];
        ByteBuffer bb = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        for (int w = 0; w < words; w++) {
            long nulls = w < nullBits.length ? nullBits[w] : 0;
            long valid = ~nulls;
            if (w == words - 1 && (totalRows & 63) != 0) {
                valid &= (1L << (totalRows & 63)) - 1;
            }
            bb.putLong(valid);
        }
        tmpValidity = tableDir.resolve(base + ".valid.tmp");
        finalValidity = tableDir.resolve(base + ".valid");
        Path file = tmpValidity;
        syncs.submitWrite(file, out);
        return new FileEntry(rel(finalValidity), out.length, Database.crc32c(MemorySegment.ofArray(out)));
    }

    private String rel(Path p) {
        return db.directory().relativize(p).toString();
    }

    void renameIntoPlace() {
        try {
            Files.move(tmpData, finalData, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            if (tmpValidity != null) {
                Files.move(tmpValidity, finalValidity, StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            }
            if (tmpDictionary != null) {
                Files.move(tmpDictionary, finalDictionary, StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new StorageException("cannot rename " + tmpData + " into place: " + e.getMessage(), e);
        }
    }

    void discard() {
        try {
            ch.close();
        } catch (IOException e) {
            // already failing; the files below are removed anyway
        }
        StringRuns r;
        synchronized (this) {
            r = runs;
        }
        if (r != null) {
            r.discard();
        }
        for (Path p : new Path[] {tmpData, tmpValidity, tmpDictionary}) {
            if (p != null) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a stray temporary file is never read: the manifest does not name it
                }
            }
        }
    }
}
