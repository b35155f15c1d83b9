package io.tessera.storage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A growable, on-heap chunk of values of one column, filled by a generator or an importer and handed to a
 * {@link TableWriter} as part of a {@link RowBatch}. VARCHAR values are kept as codes into a chunk-local
 * dictionary, so a chunk of repeated strings costs one int per row.
 */
public final class ColumnBuilder {

    private final DataType type;
    /** SMALLINT and TINYINT: the range every stored value is checked against (INTEGER: no check). */
    private final boolean narrow;
    /** REAL: every stored value is rounded to float (a double that is one already stays as it is). */
    private final boolean real;
    private final int min;
    private final int max;
    /** DECIMAL(p,s): 10^p, which every unscaled value must stay below in magnitude (0: no check). */
    private final long decimalLimit;
    private int size;
    private int[] ints;
    private long[] longs;
    private double[] doubles;
    private byte[] bytes;
    private long[] nullBits; // bit set = NULL; allocated on the first null
    /**
     * VARCHAR: the local codes by hash, open addressing, each slot {@code hash << 32 | code + 1} (0: empty), at most
     * three quarters full. Leaner than a {@code HashMap<String, Integer>}: no entry objects, no boxed codes, one array
     * read a probe, which matters where nearly every row brings a new string.
     */
    private long[] localCodes;
    /** Lookups made so far, and whether values are no longer looked up (see {@link #localCode}). */
    private int lookups;
    private boolean unlooked;
    private static final int PROBE_LOOKUPS = 4096;
    private ArrayList<String> localValues;
    /** VARCHAR: the local values as UTF-8 bytes instead, once the first arrived as bytes ({@link #appendUtf8}). */
    private LocalUtf8 utf8;
    /** The last batch's {@link #utf8}, emptied by {@link #clear}: its arrays serve the next batch's bytes. */
    private LocalUtf8 spareUtf8;

    public ColumnBuilder(DataType type, int initialCapacity) {
        this.type = type;
        this.narrow = type.isNarrowInteger();
        this.real = type.isReal();
        this.min = narrow ? (int) type.minValue() : Integer.MIN_VALUE;
        this.max = narrow ? (int) type.maxValue() : Integer.MAX_VALUE;
        this.decimalLimit = type.kind() == TypeKind.DECIMAL ? Values.pow10(type.precision()) : 0;
        int cap = Math.max(16, initialCapacity);
        switch (type.kind()) {
            case INTEGER, DATE -> ints = new int[cap];
            case VARCHAR -> {
                ints = new int[cap];
                localCodes = new long[16];
                localValues = new ArrayList<>();
            }
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> longs = new long[cap];
            case DOUBLE -> doubles = new double[cap];
            case BOOLEAN -> bytes = new byte[cap];
        }
    }

    public DataType type() {
        return type;
    }

    public int size() {
        return size;
    }

    private void grow() {
        int cap = Math.max(16, size + (size >> 1));
        if (ints != null) {
            ints = Arrays.copyOf(ints, cap);
        } else if (longs != null) {
            longs = Arrays.copyOf(longs, cap);
        } else if (doubles != null) {
            doubles = Arrays.copyOf(doubles, cap);
        } else {
            bytes = Arrays.copyOf(bytes, cap);
        }
    }

    private int capacity() {
        if (ints != null) {
            return ints.length;
        } else if (longs != null) {
            return longs.length;
        } else if (doubles != null) {
            return doubles.length;
        }
        return bytes.length;
    }

    /** INTEGER, DATE (days since epoch). */
    public void appendInt(int v) {
        if (narrow && (v < min || v > max)) {
            throw new IllegalArgumentException(Values.outOfRangeMessage(Integer.toString(v), type.toString()));
        }
        if (size == capacity()) {
            grow();
        }
        ints[size++] = v;
    }

    /** BIGINT, DECIMAL (unscaled). */
    public void appendLong(long v) {
        if (decimalLimit != 0 && (v <= -decimalLimit || v >= decimalLimit)) {
            throw new IllegalArgumentException(Values.outOfRangeMessage(Values.formatDecimal(v, type.scale()),
                    type.toString()));
        }
        if (size == capacity()) {
            grow();
        }
        longs[size++] = v;
    }

    /** INTEGER, DATE: appends {@code v[from, from + n)}, range-checked for SMALLINT and TINYINT as one by one. */
    public void appendInts(int[] v, int from, int n) {
        if (type.kind() != TypeKind.INTEGER && type.kind() != TypeKind.DATE) {
            throw new IllegalStateException(type + " values are not appended as ints");
        }
        if (narrow) {
            for (int i = from; i < from + n; i++) {
                if (v[i] < min || v[i] > max) {
                    throw new IllegalArgumentException(Values.outOfRangeMessage(Integer.toString(v[i]),
                            type.toString()));
                }
            }
        }
        reserve(n);
        System.arraycopy(v, from, ints, size, n);
        size += n;
    }

    /** BIGINT, TIMESTAMP, TIMESTAMP WITH TIME ZONE, TIME: appends {@code v[from, from + n)} (DECIMAL values go one by one, through their range check). */
    public void appendLongs(long[] v, int from, int n) {
        if (!type.kind().isInt64() || type.kind() == TypeKind.DECIMAL) {
            throw new IllegalStateException(type + " values are not appended as longs in bulk (DECIMAL: one by one,"
                    + " through its range check)");
        }
        reserve(n);
        System.arraycopy(v, from, longs, size, n);
        size += n;
    }

    public void appendDoubles(double[] v, int from, int n) {
        if (type.kind() != TypeKind.DOUBLE) {
            throw new IllegalStateException(type + " values are not appended as doubles");
        }
        reserve(n);
        System.arraycopy(v, from, doubles, size, n);
        if (real) {
            for (int i = size; i < size + n; i++) {
                doubles[i] = Floats.round(doubles[i]);
            }
        }
        size += n;
    }

    /** Room for {@code n} more values without growing one by one. */
    private void reserve(int n) {
        while (capacity() - size < n) {
            int cap = Math.max(size + n, size + (size >> 1));
            if (ints != null) {
                ints = Arrays.copyOf(ints, cap);
            } else if (longs != null) {
                longs = Arrays.copyOf(longs, cap);
            } else if (doubles != null) {
                doubles = Arrays.copyOf(doubles, cap);
            } else {
                bytes = Arrays.copyOf(bytes, cap);
            }
        }
    }

    public void appendDouble(double v) {
        if (size == capacity()) {
            grow();
        }
        doubles[size++] = real ? Floats.round(v) : v;
    }

    public void appendBoolean(boolean v) {
        if (size == capacity()) {
            grow();
        }
        bytes[size++] = (byte) (v ? 1 : 0);
    }

    public void appendString(String v) {
        int code = localCode(v);
        if (size == capacity()) {
            grow();
        }
        ints[size++] = code;
    }

    /**
     * VARCHAR: appends the string whose UTF-8 bytes are {@code b[from, from + len)}, which the caller checked to be
     * UTF-8. Where the batch's first value arrives this way, its values are kept as bytes ({@link LocalUtf8}) and
     * reach the writer without a String per value; after strings they become one.
     */
    public void appendUtf8(byte[] b, int from, int len) {
        int code = localUtf8Code(b, from, len);
        if (size == capacity()) {
            grow();
        }
        ints[size++] = code;
    }

    /**
     * VARCHAR: room for {@code values} more values of {@code bytes} bytes together, appended with
     * {@link #appendUtf8} (a column chunk's, say), so that they are not copied again and again as the builder grows;
     * nothing where values are held as strings.
     */
    public void reserveUtf8(int values, int bytes) {
        if (utf8 == null && localValues.isEmpty()) {
            utf8 = newUtf8();
        }
        if (utf8 != null) {
            utf8.reserve(values, bytes);
        }
    }

    /** VARCHAR: {@link #localCode} of the string whose UTF-8 bytes (checked by the caller) are given. */
    public int localUtf8Code(byte[] b, int from, int len) {
        if (utf8 == null) {
            if (!localValues.isEmpty()) {
                return localCode(new String(b, from, len, StandardCharsets.UTF_8));
            }
            utf8 = newUtf8();
        }
        return utf8.code(b, from, len);
    }

    /**
     * VARCHAR: a chunk-local code of {@code v}, adding it to this builder's dictionary when new, without
     * appending a row. A generator drawing from a small fixed list registers the list once and then appends
     * codes with {@link #appendCode}, sparing a hash lookup per row; registering the list in sorted order also
     * spares the writer its remapping pass. A registered value enters the column's dictionary even when no row
     * uses it. Where the first {@value #PROBE_LOOKUPS} values looked up were nearly all new (comments, names), the
     * builder stops looking values up: each value then gets a code of its own, a repeat too, and the writer, which
     * sorts a chunk's strings anyway, merges the repeats.
     */
    public int localCode(String v) {
        if (utf8 != null) {
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            return utf8.code(b, 0, b.length);
        }
        if (unlooked) {
            localValues.add(v);
            return localValues.size() - 1;
        }
        if (++lookups == PROBE_LOOKUPS && localValues.size() > PROBE_LOOKUPS - PROBE_LOOKUPS / 8) {
            unlooked = true;
            localCodes = null;
            localValues.add(v);
            return localValues.size() - 1;
        }
        int h = v.hashCode() * 0x9E3779B9;
        int mask = localCodes.length - 1;
        for (int i = h >>> 7 & mask; ; i = (i + 1) & mask) {
            long slot = localCodes[i];
            if (slot == 0) {
                int code = localValues.size();
                localValues.add(v);
                localCodes[i] = (long) h << 32 | (code + 1L);
                if (4L * localValues.size() > 3L * localCodes.length) {
                    growCodes();
                }
                return code;
            }
            if ((int) (slot >>> 32) == h) {
                int code = (int) slot - 1;
                if (localValues.get(code).equals(v)) {
                    return code;
                }
            }
        }
    }

    private LocalUtf8 newUtf8() {
        LocalUtf8 u = spareUtf8 != null ? spareUtf8 : new LocalUtf8();
        spareUtf8 = null;
        return u;
    }

    private void growCodes() {
        long[] t = new long[localCodes.length * 2];
        int mask = t.length - 1;
        for (long slot : localCodes) {
            if (slot != 0) {
                int i = (int) (slot >>> 32) >>> 7 & mask;
                while (t[i] != 0) {
                    i = (i + 1) & mask;
                }
                t[i] = slot;
            }
        }
        localCodes = t;
    }

    /** VARCHAR: appends the value whose code {@link #localCode} returned. */
    public void appendCode(int code) {
        int values = utf8 != null ? utf8.count() : localValues.size();
        if (code < 0 || code >= values) {
            throw new IllegalArgumentException("no local code " + code + " (" + values + " values)");
        }
        if (size == capacity()) {
            grow();
        }
        ints[size++] = code;
    }

    /** A NULL: the slot holds a zero value (or the empty string's code for VARCHAR is not used). */
    public void appendNull() {
        if (size == capacity()) {
            grow();
        }
        if (nullBits == null) {
            nullBits = new long[Math.max(1, (capacity() + 63) >>> 6)];
        } else if ((size >>> 6) >= nullBits.length) {
            nullBits = Arrays.copyOf(nullBits, Math.max(nullBits.length * 2, (size >>> 6) + 1));
        }
        nullBits[size >>> 6] |= 1L << (size & 63);
        if (ints != null) {
            ints[size] = -1; // VARCHAR: no code; INTEGER/DATE: ignored
            if (type.kind() != TypeKind.VARCHAR) {
                ints[size] = 0;
            }
        } else if (longs != null) {
            longs[size] = 0;
        } else if (doubles != null) {
            doubles[size] = 0;
        } else {
            bytes[size] = 0;
        }
        size++;
    }

    public boolean isNull(int row) {
        return nullBits != null && (row >>> 6) < nullBits.length && (nullBits[row >>> 6] & (1L << (row & 63))) != 0;
    }

    public boolean hasNulls() {
        return nullBits != null;
    }

    /** Drops the last row (an importer undoing a partly parsed line). */
    public void truncate(int newSize) {
        for (int r = newSize; r < size; r++) {
            if (nullBits != null && (r >>> 6) < nullBits.length) {
                nullBits[r >>> 6] &= ~(1L << (r & 63));
            }
        }
        size = Math.min(size, newSize);
    }

    /**
     * Empties the builder for the next batch, keeping its arrays (an importer reuses its batches rather than
     * allocating each group's anew: kept, they stay out of the young collections' copying).
     */
    public void clear() {
        size = 0;
        nullBits = null;
        if (localValues != null) {
            localCodes = new long[16];
            localValues.clear();
            lookups = 0;
            unlooked = false;
            if (utf8 != null) {
                utf8.clear();
                spareUtf8 = utf8;
            }
            utf8 = null;
        }
    }

    int[] ints() {
        return ints;
    }

    /** The NULL rows' bits (set = NULL), or null while the builder holds no NULL. */
    long[] nullBits() {
        return nullBits;
    }

    long[] longs() {
        return longs;
    }

    double[] doubles() {
        return doubles;
    }

    byte[] bytes() {
        return bytes;
    }

    /** The local values in code order (made from the bytes where they are held as bytes). */
    List<String> localValues() {
        if (utf8 != null) {
            List<String> values = new ArrayList<>(utf8.count());
            for (int i = 0; i < utf8.count(); i++) {
                values.add(utf8.value(i));
            }
            return values;
        }
        return localValues;
    }

    /** The local values as UTF-8 bytes, or null where they are held as strings ({@link #localValues}). */
    LocalUtf8 localUtf8() {
        return utf8;
    }

    /** Value of a row as a Java object (tests and debugging). */
    public Object get(int row) {
        if (isNull(row)) {
            return null;
        }
        return switch (type.kind()) {
            case INTEGER -> ints[row];
            case DATE -> Values.dateOf(ints[row]);
            case VARCHAR -> utf8 != null ? utf8.value(ints[row]) : localValues.get(ints[row]);
            case BIGINT -> longs[row];
            case TIMESTAMP -> Values.timestampOf(longs[row]);
            case TIMESTAMP_TZ -> ZonedTimestamps.valueOf(longs[row], java.time.ZoneOffset.UTC);
            case TIME -> Values.timeOf(longs[row]);
            case DECIMAL -> Values.decimalOf(longs[row], type.scale());
            case DOUBLE -> doubles[row];
            case BOOLEAN -> bytes[row] != 0;
        };
    }
}
