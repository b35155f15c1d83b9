package io.tessera.storage;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Writes one new version of a table: the previous rows (when appending), then every {@link RowBatch} handed
 * to {@link #write}, into files of a new generation. {@link #commit} finishes the files (sorted dictionaries,
 * validity bitmaps, statistics, checksums) and makes the version current; {@link #close} without a commit
 * deletes what was written, leaving the table exactly as it was.
 */
public final class TableWriter implements AutoCloseable {

    private final Database db;
    private final TableSchema schema;
    private final int baseGeneration;
    private final int generation;
    private final Path tableDir;
    private final ColumnSink[] sinks;
    private long rows;
    private boolean done;
    private boolean createdFolder;
    private boolean holdsWriterLock;

    /**
     * A writer of table {@code schema} (replace or create), or, when {@code appendTo} is given, one that appends
     * to that table as the last committed write left it. Takes the database's writer lock until commit or close.
     */
    TableWriter(Database db, TableSchema schema, String appendTo) {
        this.db = db;
        db.beginWrite();
        holdsWriterLock = true;
        Table existing = null;
        try {
            if (appendTo != null) {
                existing = db.table(appendTo);
                schema = existing.schema();
            }
        } catch (RuntimeException e) {
            releaseWriterLock();
            throw e;
        }
        this.schema = schema;
        this.baseGeneration = existing == null ? -1 : existing.generation();
        this.generation = db.nextGeneration();
        this.tableDir = db.tableDir(schema.name());
        this.sinks = new ColumnSink[schema.columns().size()];
        try {
            createdFolder = !Files.exists(tableDir, LinkOption.NOFOLLOW_LINKS);
            Files.createDirectories(tableDir);
            db.checkInside(tableDir);
            for (int i = 0; i < sinks.length; i++) {
                sinks[i] = new ColumnSink(schema.columns().get(i), i);
            }
            if (existing != null) {
                rows = existing.rowCount();
                for (int i = 0; i < sinks.length; i++) {
                    sinks[i].copyFrom(existing.column(i), rows);
                }
            }
        } catch (IOException | RuntimeException e) {
            abort();
            throw e instanceof StorageException se ? se
                    : new StorageException("cannot start writing table " + schema.name() + ": " + e.getMessage(), e);
        }
    }

    private void releaseWriterLock() {
        if (holdsWriterLock) {
            holdsWriterLock = false;
            db.endWrite();
        }
    }

    public TableSchema schema() {
        return schema;
    }

    /** Rows the committed table will have (previous rows included). */
    public synchronized long rowCount() {
        return rows;
    }

    /** Appends a batch whose schema has this table's column types. */
    public synchronized void write(RowBatch batch) {
        checkOpen();
        int n = batch.rowCount();
        if (batch.columnCount() != sinks.length) {
            throw new IllegalArgumentException("batch has " + batch.columnCount() + " columns, table " + schema.name()
                    + " has " + sinks.length);
        }
        for (int i = 0; i < sinks.length; i++) {
            ColumnBuilder b = batch.column(i);
            if (b.type().kind() != schema.columns().get(i).type().kind()) {
                throw new IllegalArgumentException("column " + schema.columns().get(i).name() + " is "
                        + schema.columns().get(i).type() + ", the batch has " + b.type());
            }
            if (b.hasNulls() && !schema.columns().get(i).nullable()) {
                throw new IllegalArgumentException("column " + schema.columns().get(i).name() + " is NOT NULL");
            }
        }
        try {
            for (ColumnSink s : sinks) {
                s.write(batch.column(s.index), n, rows);
            }
        } catch (IOException e) {
            throw new StorageException("cannot write table " + schema.name() + ": " + e.getMessage(), e);
        }
        rows += n;
    }

    /** Finishes the files and makes this version of the table current. */
    public synchronized Table commit() {
        checkOpen();
        try {
            List<Manifest.ColumnEntry> entries = new ArrayList<>(IntStream.range(0, sinks.length).parallel()
                    .mapToObj(i -> sinks[i].finish(rows)).toList());
            for (ColumnSink s : sinks) {
                s.renameIntoPlace();
            }
            Database.forceDirectory(tableDir);
            Table t = db.commit(new Manifest.TableEntry(schema, rows, generation, entries), baseGeneration);
            done = true;
            releaseWriterLock();
            return t;
        } catch (RuntimeException e) {
            abort();
            throw e instanceof StorageException se ? se
                    : new StorageException("cannot commit table " + schema.name() + ": " + e.getMessage(), e);
        }
    }

    private void checkOpen() {
        if (done) {
            throw new IllegalStateException("writer of table " + schema.name() + " is already finished");
        }
    }

    /** Without a commit: removes every file this writer made; the table stays as it was. */
    @Override
    public synchronized void close() {
        if (!done) {
            abort();
        }
    }

    private void abort() {
        done = true;
        try {
            for (ColumnSink s : sinks) {
                if (s != null) {
                    s.discard();
                }
            }
            if (createdFolder) {
                try {
                    Files.deleteIfExists(tableDir); // only when empty
                } catch (IOException e) {
                    // the folder stays; it holds nothing the manifest names
                }
            }
        } finally {
            releaseWriterLock();
        }
    }

    /** Streams one column into its temporary file and keeps what finishing it needs. */
    private final class ColumnSink {
        final ColumnSchema col;
        final int index;
        final TypeKind kind;
        final Path tmpData;
        final FileChannel ch;
        final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        long[] nullBits; // over all rows, bit set = NULL; null while the column has none
        long nullCount;
        // VARCHAR: the writer-wide dictionary in insertion order
        final DictionaryBuilder values = new DictionaryBuilder();
        Path finalData;
        Path tmpValidity;
        Path finalValidity;
        Path tmpDictionary;
        Path finalDictionary;

        ColumnSink(ColumnSchema col, int index) throws IOException {
            this.col = col;
            this.index = index;
            this.kind = col.type().kind();
            String base = col.name() + ".g" + generation;
            this.tmpData = tableDir.resolve(base + ".bin.tmp");
            this.finalData = tableDir.resolve(base + ".bin");
            this.ch = FileChannel.open(tmpData, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        }

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
            if (kind == TypeKind.VARCHAR) {
                Dictionary d = old.dictionary();
                for (int c = 0; c < d.size(); c++) {
                    values.add(d.value(c));
                }
            }
        }

        void write(ColumnBuilder b, int n, long firstRow) throws IOException {
            switch (kind) {
                case INTEGER, DATE -> putInts(b.ints(), n);
                case VARCHAR -> {
                    List<String> local = b.localValues();
                    int[] map = new int[local.size()];
                    for (int i = 0; i < map.length; i++) {
                        map[i] = values.add(local.get(i));
                    }
                    int[] src = b.ints();
                    int[] out = new int[n];
                    for (int r = 0; r < n; r++) {
                        int c = src[r];
                        out[r] = c >= 0 && c < map.length && !b.isNull(r) ? map[c] : 0;
                    }
                    putInts(out, n);
                }
                case BIGINT, DECIMAL -> putLongs(b.longs(), n);
                case DOUBLE -> {
                    double[] d = b.doubles();
                    for (int r = 0; r < n; r++) {
                        ensure(8);
                        buf.putDouble(d[r]);
                    }
                }
                case BOOLEAN -> {
                    byte[] d = b.bytes();
                    for (int off = 0; off < n; ) {
                        ensure(1);
                        int k = Math.min(n - off, buf.remaining());
                        buf.put(d, off, k);
                        off += k;
                    }
                }
            }
            if (b.hasNulls()) {
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

        private void putInts(int[] src, int n) throws IOException {
            for (int off = 0; off < n; ) {
                ensure(4);
                int k = Math.min(n - off, buf.remaining() >> 2);
                buf.asIntBuffer().put(src, off, k);
                buf.position(buf.position() + (k << 2));
                off += k;
            }
        }

        private void putLongs(long[] src, int n) throws IOException {
            for (int off = 0; off < n; ) {
                ensure(8);
                int k = Math.min(n - off, buf.remaining() >> 3);
                buf.asLongBuffer().put(src, off, k);
                buf.position(buf.position() + (k << 3));
                off += k;
            }
        }

        private void ensure(int bytes) throws IOException {
            if (buf.remaining() < bytes) {
                flush();
            }
        }

        private void flush() throws IOException {
            buf.flip();
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            buf.clear();
        }

        /** Flushes, sorts the dictionary, writes validity, computes statistics and checksums. */
        Manifest.ColumnEntry finish(long totalRows) {
            try {
                flush();
                long bytes = totalRows * kind.byteWidth();
                if (ch.size() != bytes) {
                    throw new StorageException("column " + col.name() + " file " + tmpData + " has " + ch.size()
                            + " bytes, expected " + bytes);
                }
                FileEntry dict = null;
                ColumnStats stats;
                int[] order = null;
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment seg = bytes == 0 ? MemorySegment.NULL
                            : ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, a);
                    if (kind == TypeKind.VARCHAR) {
                        order = sortDictionaryAndRemap(seg, totalRows);
                        int n = order.length;
                        tmpDictionary = tableDir.resolve(col.name() + ".g" + generation + ".dict.tmp");
                        finalDictionary = tableDir.resolve(col.name() + ".g" + generation + ".dict");
                        long[] lengthAndCrc = values.write(tmpDictionary, order);
                        dict = new FileEntry(rel(finalDictionary), lengthAndCrc[0], lengthAndCrc[1]);
                        stats = new ColumnStats(nullCount, n, n == 0 ? null : values.value(order[0]),
                                n == 0 ? null : values.value(order[n - 1]),
                                n == totalRows - nullCount && StatsScanner.codesUnique(seg, totalRows, nullBits, n));
                    } else {
                        stats = StatsScanner.scan(kind, seg, totalRows, nullBits);
                    }
                    stats = HistogramBuilder.attach(stats, kind, seg, totalRows, nullBits, values, order);
                    if (bytes > 0) {
                        seg.force();
                    }
                    long crc = Database.crc32c(seg);
                    ch.force(true);
                    ch.close();
                    FileEntry data = new FileEntry(rel(finalData), bytes, crc);
                    FileEntry validity = nullCount > 0 ? writeValidity(totalRows) : null;
                    return new Manifest.ColumnEntry(data, validity, dict, stats);
                }
            } catch (IOException e) {
                throw new StorageException("cannot finish column " + col.name() + " of " + schema.name() + ": "
                        + e.getMessage(), e);
            }
        }

        /** Sorts the dictionary, rewrites the column's codes to the sorted ones; returns the codes in sorted order. */
        private int[] sortDictionaryAndRemap(MemorySegment seg, long totalRows) {
            int[] order = values.sortedOrder();
            int n = order.length;
            int[] remap = new int[n];
            boolean identity = true;
            for (int s = 0; s < n; s++) {
                remap[order[s]] = s;
                identity &= order[s] == s;
            }
            if (!identity) {
                for (long r = 0; r < totalRows; r++) {
                    int c = seg.get(Column.INT, r << 2);
                    seg.set(Column.INT, r << 2, c >= 0 && c < n ? remap[c] : 0);
                }
            }
            return order;
        }

        private FileEntry writeValidity(long totalRows) throws IOException {
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
            tmpValidity = tableDir.resolve(col.name() + ".g" + generation + ".valid.tmp");
            finalValidity = tableDir.resolve(col.name() + ".g" + generation + ".valid");
            Database.writeDurably(tmpValidity, out);
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

    /** Min, max and distinct estimate over the non-null values of a finished column file. */
    static final class StatsScanner {
        static ColumnStats scan(TypeKind kind, MemorySegment seg, long rows, long[] nullBits) {
            HyperLogLog hll = new HyperLogLog();
            long nulls = 0;
            boolean any = false;
            long minL = Long.MAX_VALUE;
            long maxL = Long.MIN_VALUE;
            double minD = Double.POSITIVE_INFINITY;
            double maxD = Double.NEGATIVE_INFINITY;
            for (long r = 0; r < rows; r++) {
                if (nullBits != null && (r >>> 6) < nullBits.length && (nullBits[(int) (r >>> 6)] & (1L << (r & 63))) != 0) {
                    nulls++;
                    continue;
                }
                any = true;
                switch (kind) {
                    case DOUBLE -> {
                        double d = seg.get(Column.DOUBLE, r << 3);
                        minD = Math.min(minD, d);
                        maxD = Math.max(maxD, d);
                        hll.add(Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
                    }
                    case BOOLEAN -> {
                        long v = seg.get(ValueLayout.JAVA_BYTE, r);
                        minL = Math.min(minL, v);
                        maxL = Math.max(maxL, v);
                        hll.add(v);
                    }
                    case BIGINT, DECIMAL -> {
                        long v = seg.get(Column.LONG, r << 3);
                        minL = Math.min(minL, v);
                        maxL = Math.max(maxL, v);
                        hll.add(v);
                    }
                    default -> {
                        long v = seg.get(Column.INT, r << 2);
                        minL = Math.min(minL, v);
                        maxL = Math.max(maxL, v);
                        hll.add(v);
                    }
                }
            }
            if (!any) {
                return new ColumnStats(nulls, 0, null, null);
            }
            long distinct = hll.estimate();
            if (kind == TypeKind.DOUBLE) {
                return new ColumnStats(nulls, distinct, minD, maxD);
            }
            // an estimate never exceeds what the range allows
            long range = maxL - minL + 1;
            if (range > 0 && distinct > range) {
                distinct = range;
            }
            distinct = Math.max(1, Math.min(distinct, rows - nulls));
            boolean unique = kind != TypeKind.BOOLEAN && distinct >= 0.9 * (rows - nulls)
                    && exactlyUnique(kind, seg, rows, nullBits, minL, maxL);
            return new ColumnStats(nulls, unique ? rows - nulls : distinct, minL, maxL, unique);
        }

        private static boolean isNull(long[] nullBits, long r) {
            return nullBits != null && (r >>> 6) < nullBits.length && (nullBits[(int) (r >>> 6)] & (1L << (r & 63))) != 0;
        }

        /** Exact check that no non-null value repeats: a bitmap over the value range, or a sort. */
        private static boolean exactlyUnique(TypeKind kind, MemorySegment seg, long rows, long[] nullBits, long min, long max) {
            long range = max - min + 1;
            boolean wide = kind == TypeKind.BIGINT || kind == TypeKind.DECIMAL;
            if (range > 0 && range <= (1L << 31)) {
                long[] seen = new long[(int) ((range + 63) >>> 6)];
                for (long r = 0; r < rows; r++) {
                    if (isNull(nullBits, r)) {
                        continue;
                    }
                    long v = (wide ? seg.get(Column.LONG, r << 3) : seg.get(Column.INT, r << 2)) - min;
                    long bit = 1L << (v & 63);
                    int w = (int) (v >>> 6);
                    if ((seen[w] & bit) != 0) {
                        return false;
                    }
                    seen[w] |= bit;
                }
                return true;
            }
            if (rows > Integer.MAX_VALUE - 8) {
                return false;
            }
            long[] vals = new long[(int) rows];
            int n = 0;
            for (long r = 0; r < rows; r++) {
                if (!isNull(nullBits, r)) {
                    vals[n++] = wide ? seg.get(Column.LONG, r << 3) : seg.get(Column.INT, r << 2);
                }
            }
            java.util.Arrays.sort(vals, 0, n);
            for (int i = 1; i < n; i++) {
                if (vals[i] == vals[i - 1]) {
                    return false;
                }
            }
            return true;
        }

        static boolean codesUnique(MemorySegment seg, long rows, long[] nullBits, int dictSize) {
            long[] seen = new long[(dictSize + 63) >>> 6];
            for (long r = 0; r < rows; r++) {
                if (isNull(nullBits, r)) {
                    continue;
                }
                int c = seg.get(Column.INT, r << 2);
                if ((seen[c >>> 6] & (1L << (c & 63))) != 0) {
                    return false;
                }
                seen[c >>> 6] |= 1L << (c & 63);
            }
            return true;
        }
    }
}
