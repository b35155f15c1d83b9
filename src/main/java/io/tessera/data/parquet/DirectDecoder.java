package io.tessera.data.parquet;

import io.tessera.data.io.InvalidUtf8;
import io.tessera.data.io.Utf8;
import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.ColumnSchema;
import io.tessera.storage.TypeKind;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * The column chunks that most files hold, decoded a page at a time straight into the column's builder: version 1
 * data pages whose definition levels are RLE runs and whose values are PLAIN or dictionary ids, for 32-bit integers
 * and dates into INTEGER and DATE, 64-bit integers into BIGINT, decimals on INT32 or INT64 into a DECIMAL of the same
 * scale, doubles into DOUBLE and dictionary-encoded strings into VARCHAR. Everything else goes through parquet-java's column reader ({@link RowGroupReader}); both give the
 * same values, this one without a call per value.
 */
final class DirectDecoder {

    private final SourceColumn source;
    private final ColumnSchema target;
    private final ColumnBuilder out;
    private final InvalidUtf8 invalidUtf8;
    /** This thread's arrays for a page's levels, ids and values, kept from chunk to chunk. */
    private final Scratch scratch = SCRATCH.get();
    private int[] levels;
    private int[] ids;
    private int[] intValues;
    private long[] longValues;
    private double[] doubleValues;
    // the dictionary, decoded by type: values, or for strings the offsets of each entry's bytes
    private int[] dictInts;
    private long[] dictLongs;
    private double[] dictDoubles;
    private byte[] dictBytes;
    private int[] dictStart;
    private int[] dictLength;
    private int[] dictCodes;
    private int dictSize;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * A decoding thread's arrays for one page at a time, reused by every chunk the thread decodes: allocated anew
     * for each chunk, they were a quarter of an import's allocations (and of its garbage collections).
     */
    private static final class Scratch {
        int[] levels = new int[0];
        int[] ids = new int[0];
        int[] intValues = new int[0];
        long[] longValues = new long[0];
        double[] doubleValues = new double[0];
    }

    private DirectDecoder(SourceColumn source, ColumnSchema target, ColumnBuilder out, InvalidUtf8 invalidUtf8) {
        this.source = source;
        this.target = target;
        this.out = out;
        this.invalidUtf8 = invalidUtf8;
        levels = scratch.levels;
        ids = scratch.ids;
        intValues = scratch.intValues;
        longValues = scratch.longValues;
        doubleValues = scratch.doubleValues;
    }

    /** Keeps the arrays, grown or not, for the thread's next chunk. */
    private void keepScratch() {
        scratch.levels = levels;
        scratch.ids = ids;
        scratch.intValues = intValues;
        scratch.longValues = longValues;
        scratch.doubleValues = doubleValues;
    }

    /**
     * Whether the chunk's pages are all of the shapes this decoder reads, for this pair of types. PLAIN_DICTIONARY,
     * deprecated for new files, is what version 1 writers (DuckDB among them) still write.
     */
    @SuppressWarnings("deprecation")
    static boolean handles(SourceColumn source, ColumnSchema target, ChunkPages pages) {
        TypeKind t = target.type().kind();
        String physical = source.descriptor().getPrimitiveType().getPrimitiveTypeName().name();
        boolean types = switch (source.kind()) {
            case INTEGER -> physical.equals("INT32") && t == TypeKind.INTEGER && !target.type().isNarrowInteger()
                    || physical.equals("INT64") && t == TypeKind.BIGINT;
            case DATE -> t == TypeKind.DATE;
            case TIMESTAMP, INSTANT -> physical.equals("INT64") && (t == TypeKind.TIMESTAMP || t == TypeKind.TIMESTAMP_TZ)
                    && source.scale() == 6;
            case DECIMAL -> (physical.equals("INT32") || physical.equals("INT64")) && t == TypeKind.DECIMAL
                    && target.type().scale() == source.scale();
            case FLOATING -> physical.equals("DOUBLE") && t == TypeKind.DOUBLE;
            case STRING -> target.type().isText() && !target.type().isInterval();
            default -> false;
        };
        if (!types || pages.rawPages() == null) {
            return false;
        }
        ChunkPages.RawPage d = pages.rawDictionary();
        if (d != null && d.values() != Encoding.PLAIN && d.values() != Encoding.PLAIN_DICTIONARY) {
            return false;
        }
        for (ChunkPages.RawPage p : pages.rawPages()) {
            boolean dictionary = p.values() == Encoding.PLAIN_DICTIONARY || p.values() == Encoding.RLE_DICTIONARY;
            boolean values = dictionary ? d != null : p.values() == Encoding.PLAIN;
            boolean levels = source.descriptor().getMaxDefinitionLevel() == 0 || p.definitionLevels() == Encoding.RLE;
            if (!values || !levels) {
                return false;
            }
        }
        return true;
    }

    /** Appends the chunk's values; {@link #handles} said yes. */
    static void decode(SourceColumn source, ColumnSchema target, ChunkPages pages, ColumnBuilder out,
                       InvalidUtf8 invalidUtf8, long firstRow, int column) throws RowGroupReader.Failure {
        DirectDecoder d = new DirectDecoder(source, target, out, invalidUtf8);
        long row = firstRow;
        try {
            if (pages.rawDictionary() != null) {
                d.readDictionary(pages.rawDictionary());
            }
            if (target.type().kind() == TypeKind.VARCHAR) {
                d.reservePlainStrings(pages.rawPages());
            }
            for (ChunkPages.RawPage p : pages.rawPages()) {
                d.page(p, row, column);
                row += p.valueCount();
            }
        } catch (IOException | RuntimeException e) { // what broken bytes make the decoding throw
            throw new RowGroupReader.Failure(row, column, "a broken page: " + e.getMessage(), e);
        } finally {
            d.keepScratch();
        }
    }

    private void readDictionary(ChunkPages.RawPage p) throws IOException {
        int n = p.valueCount();
        byte[] b = p.bytes();
        int end = p.length();
        int width = source.descriptor().getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32 ? 4
                : source.descriptor().getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY ? 4 : 8;
        if ((long) n * width > end) { // BINARY: a 4-byte length at least
            throw new IOException("a dictionary of " + n + " entries in " + end + " bytes");
        }
        dictSize = n;
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        switch (source.descriptor().getPrimitiveType().getPrimitiveTypeName()) {
            case INT32 -> {
                dictInts = new int[n];
                bb.asIntBuffer().get(dictInts);
            }
            case INT64 -> {
                dictLongs = new long[n];
                bb.asLongBuffer().get(dictLongs);
            }
            case DOUBLE -> {
                dictDoubles = new double[n];
                bb.asDoubleBuffer().get(dictDoubles);
            }
            case BINARY -> {
                dictBytes = b;
                dictStart = new int[n];
                dictLength = new int[n];
                dictCodes = new int[n];
                Arrays.fill(dictCodes, -1);
                int pos = 0;
                for (int i = 0; i < n; i++) {
                    int len = bb.getInt(pos);
                    if (len < 0 || pos + 4 + len > end) {
                        throw new IOException("a dictionary entry runs past its page");
                    }
                    dictStart[i] = pos + 4;
                    dictLength[i] = len;
                    pos += 4 + len;
                }
            }
            default -> throw new IOException("a dictionary of " + source.descriptor().getPrimitiveType());
        }
    }

    private void page(ChunkPages.RawPage p, long firstRow, int column) throws IOException, RowGroupReader.Failure {
        byte[] b = p.bytes();
        int end = p.length();
        int n = p.valueCount();
        int pos = 0;
        int present = n;
        if (source.descriptor().getMaxDefinitionLevel() > 0) {
            if (end < 4) {
                throw new IOException("a page too short for its levels");
            }
            int len = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            if (len < 0 || 4 + len > end) {
                throw new IOException("definition levels run past their page");
            }
            levels = grow(levels, n);
            HybridRuns.decode(b, 4, 4 + len, 1, levels, n);
            pos = 4 + len;
            present = 0;
            for (int i = 0; i < n; i++) {
                present += levels[i];
            }
            if (present < n && !target.nullable()) {
                int r = 0;
                while (levels[r] != 0) {
                    r++;
                }
                throw new RowGroupReader.Failure(firstRow + r, column, "NULL in a NOT NULL column", null);
            }
        }
        boolean dictionary = p.values() != Encoding.PLAIN;
        if (dictionary) {
            if (pos >= end && present > 0) {
                throw new IOException("a page without its dictionary ids");
            }
            int bitWidth = present > 0 ? b[pos] : 0;
            ids = grow(ids, present);
            if (present > 0) {
                HybridRuns.decode(b, pos + 1, end, bitWidth, ids, present);
            }
            for (int i = 0; i < present; i++) {
                if (ids[i] < 0 || ids[i] >= dictSize) {
                    throw new IOException("dictionary id " + ids[i] + " of a dictionary of " + dictSize);
                }
            }
        }
        // a method per kind: each stays small enough for the JIT to compile quickly (one method with every kind's
        // loops took C2 seconds to compile, much of a first import's CPU time)
        switch (target.type().kind()) {
            case INTEGER, DATE -> ints(b, pos, end, n, present, dictionary);
            case BIGINT, TIMESTAMP, TIMESTAMP_TZ, TIME -> longs(b, pos, end, n, present, dictionary);
            case DOUBLE -> doubles(b, pos, end, n, present, dictionary);
            case DECIMAL -> decimals(b, pos, end, n, present, dictionary, firstRow, column);
            case VARCHAR -> {
                if (dictionary) {
                    dictionaryStrings(n, present, firstRow, column);
                } else {
                    plainStrings(b, pos, end, n, present, firstRow, column);
                }
            }
            default -> throw new IllegalStateException("no direct decoding into " + target.type());
        }
    }

    private void ints(byte[] b, int pos, int end, int n, int present, boolean dictionary) throws IOException {
        intValues = grow(intValues, present);
        if (dictionary) {
            for (int i = 0; i < present; i++) {
                intValues[i] = dictInts[ids[i]];
            }
        } else {
            plain(b, pos, end, present, 4).asIntBuffer().get(intValues, 0, present);
        }
        if (present == n) {
            out.appendInts(intValues, 0, n);
        } else {
            for (int i = 0, k = 0; i < n; i++) {
                if (levels[i] != 0) {
                    out.appendInt(intValues[k++]);
                } else {
                    out.appendNull();
                }
            }
        }
    }

    private void longs(byte[] b, int pos, int end, int n, int present, boolean dictionary) throws IOException {
        longValues = grow(longValues, present);
        if (dictionary) {
            for (int i = 0; i < present; i++) {
                longValues[i] = dictLongs[ids[i]];
            }
        } else {
            plain(b, pos, end, present, 8).asLongBuffer().get(longValues, 0, present);
        }
        if (present == n) {
            out.appendLongs(longValues, 0, n);
        } else {
            for (int i = 0, k = 0; i < n; i++) {
                if (levels[i] != 0) {
                    out.appendLong(longValues[k++]);
                } else {
                    out.appendNull();
                }
            }
        }
    }

    private void doubles(byte[] b, int pos, int end, int n, int present, boolean dictionary) throws IOException {
        doubleValues = grow(doubleValues, present);
        if (dictionary) {
            for (int i = 0; i < present; i++) {
                doubleValues[i] = dictDoubles[ids[i]];
            }
        } else {
            plain(b, pos, end, present, 8).asDoubleBuffer().get(doubleValues, 0, present);
        }
        if (present == n) {
            out.appendDoubles(doubleValues, 0, n);
        } else {
            for (int i = 0, k = 0; i < n; i++) {
                if (levels[i] != 0) {
                    out.appendDouble(doubleValues[k++]);
                } else {
                    out.appendNull();
                }
            }
        }
    }

    /** Unscaled values of the table's scale, each through the builder's precision check. */
    private void decimals(byte[] b, int pos, int end, int n, int present, boolean dictionary, long firstRow,
                          int column) throws IOException, RowGroupReader.Failure {
        longValues = grow(longValues, present);
        if (source.descriptor().getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32) {
            intValues = grow(intValues, present);
            if (dictionary) {
                for (int i = 0; i < present; i++) {
                    longValues[i] = dictInts[ids[i]];
                }
            } else {
                plain(b, pos, end, present, 4).asIntBuffer().get(intValues, 0, present);
                for (int i = 0; i < present; i++) {
                    longValues[i] = intValues[i];
                }
            }
        } else if (dictionary) {
            for (int i = 0; i < present; i++) {
                longValues[i] = dictLongs[ids[i]];
            }
        } else {
            plain(b, pos, end, present, 8).asLongBuffer().get(longValues, 0, present);
        }
        int i = 0;
        try {
            for (int k = 0; i < n; i++) {
                if (present == n || levels[i] != 0) {
                    out.appendLong(longValues[k++]);
                } else {
                    out.appendNull();
                }
            }
        } catch (IllegalArgumentException e) {
            throw new RowGroupReader.Failure(firstRow + i, column, e.getMessage(), e);
        }
    }

    private void dictionaryStrings(int n, int present, long firstRow, int column) throws RowGroupReader.Failure {
        for (int i = 0, k = 0; i < n; i++) {
            if (present == n || levels[i] != 0) {
                out.appendCode(code(ids[k++], firstRow + i, column));
            } else {
                out.appendNull();
            }
        }
    }

    /**
     * PLAIN strings: each a 4-byte little-endian length and its UTF-8 bytes, read where they lie and handed to the
     * builder as bytes once checked (a String only for text that is not UTF-8, replaced or refused).
     */
    private void plainStrings(byte[] b, int pos, int end, int n, int present, long firstRow, int column)
            throws IOException, RowGroupReader.Failure {
        int at = pos;
        for (int i = 0; i < n; i++) {
            if (present != n && levels[i] == 0) {
                out.appendNull();
                continue;
            }
            if (at + 4 > end) {
                throw new IOException("PLAIN values run past their page");
            }
            int len = (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
            if (len < 0 || at + 4L + len > end) {
                throw new IOException("a PLAIN string runs past its page");
            }
            if (Utf8.firstInvalid(b, at + 4, at + 4 + len) < 0) {
                out.appendUtf8(b, at + 4, len); // kept as bytes: no String per value
            } else {
                try {
                    out.appendString(ValueConverters.text(b, at + 4, len, invalidUtf8));
                } catch (IllegalArgumentException e) {
                    throw new RowGroupReader.Failure(firstRow + i, column, e.getMessage(), e);
                }
            }
            at += 4 + len;
        }
    }

    /** Room in the builder for the chunk's PLAIN strings, whose bytes (and lengths) its pages hold. */
    private void reservePlainStrings(List<ChunkPages.RawPage> pages) {
        long values = 0;
        long bytes = 0;
        for (ChunkPages.RawPage p : pages) {
            if (p.values() == Encoding.PLAIN) {
                values += p.valueCount();
                bytes += p.length();
            }
        }
        if (values > 0 && bytes < Integer.MAX_VALUE / 2) {
            out.reserveUtf8((int) values, (int) bytes);
        }
    }

    /** The builder's code of dictionary entry {@code id}, decoded and checked on its first use. */
    private int code(int id, long row, int column) throws RowGroupReader.Failure {
        int c = dictCodes[id];
        if (c < 0) {
            if (Utf8.firstInvalid(dictBytes, dictStart[id], dictStart[id] + dictLength[id]) < 0) {
                c = out.localUtf8Code(dictBytes, dictStart[id], dictLength[id]);
            } else {
                try {
                    c = out.localCode(ValueConverters.text(dictBytes, dictStart[id], dictLength[id], invalidUtf8));
                } catch (IllegalArgumentException e) {
                    throw new RowGroupReader.Failure(row, column, e.getMessage(), e);
                }
            }
            dictCodes[id] = c;
        }
        return c;
    }

    private static ByteBuffer plain(byte[] b, int pos, int end, int count, int width) throws IOException {
        if (pos + (long) count * width > end) {
            throw new IOException("PLAIN values run past their page");
        }
        return ByteBuffer.wrap(b, pos, count * width).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int[] grow(int[] a, int n) {
        return a.length >= n ? a : new int[Math.max(n, a.length * 2)];
    }

    private static long[] grow(long[] a, int n) {
        return a.length >= n ? a : new long[Math.max(n, a.length * 2)];
    }

    private static double[] grow(double[] a, int n) {
        return a.length >= n ? a : new double[Math.max(n, a.length * 2)];
    }
}
