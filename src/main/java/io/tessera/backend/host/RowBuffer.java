package io.tessera.backend.host;

import io.tessera.backend.ValueKind;
import io.tessera.storage.Dictionary;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows on the host, the one batch format of every device: each column is an int[], long[], double[], byte[] or
 * String[] by its {@link ValueKind}, with a NULL bitmap only once a NULL was written. Growable for one worker's rows
 * (materialized results, build sides: generated code calls {@link #next()} for a row slot and then stores into the
 * arrays directly), or of a fixed size ({@link #allocate}) for rows a device hands the host and the groups a
 * finalization writes ({@link RelationPart} adds their dictionaries' keys); a finished relation and a query's result
 * read it ({@link MatRelation}).
 */
public final class RowBuffer {

    public final ValueKind[] kinds;
    public int[][] ints;
    public long[][] longs;
    public double[][] doubles;
    public byte[][] bytes;
    public String[][] strings;
    public long[][] nulls; // per column, bit set = NULL; null until the first NULL
    public int size;
    private int capacity;
    /** The rows this buffer is expected to hold (0: unknown), which it grows towards in large steps. */
    private int expectedRows;

    /**
     * Below its expected rows a buffer grows eightfold per step, beyond them by half: where the estimate holds, the rows
     * are copied a few times fewer than by halves; where it was too large, the buffer is at most eight times its rows.
     */
    static final int GROWTH_TO_EXPECTED = 8;

    /** Empty columns of these kinds (copied: {@link #encodeStrings} changes this buffer's own). */
    public RowBuffer(ValueKind[] kinds, int initialCapacity) {
        this.kinds = kinds.clone();
        int n = kinds.length;
        ints = new int[n][];
        longs = new long[n][];
        doubles = new double[n][];
        bytes = new byte[n][];
        strings = new String[n][];
        nulls = new long[n][];
        capacity = Math.max(16, initialCapacity);
        for (int c = 0; c < n; c++) {
            switch (kinds[c]) {
                case INT, CODE -> ints[c] = new int[capacity];
                case LONG -> longs[c] = new long[capacity];
                case DOUBLE -> doubles[c] = new double[capacity];
                case BOOL -> bytes[c] = new byte[capacity];
                case STRING -> strings[c] = new String[capacity];
            }
        }
    }

    /** As above, growing towards {@code expectedRows} rows (0: unknown) in large steps rather than by halves. */
    public RowBuffer(ValueKind[] kinds, int initialCapacity, int expectedRows) {
        this(kinds, initialCapacity);
        this.expectedRows = Math.max(0, expectedRows);
    }

    /**
     * Rows whose columns are the given arrays (per column the one its kind uses, each {@code size} long), taken as
     * they are: host rows a device handed over become a buffer without a copy.
     */
    public RowBuffer(ValueKind[] kinds, int[][] ints, long[][] longs, double[][] doubles, byte[][] bytes, String[][] strings,
                     long[][] nulls, int size) {
        this.kinds = kinds;
        this.ints = ints;
        this.longs = longs;
        this.doubles = doubles;
        this.bytes = bytes;
        this.strings = strings;
        this.nulls = nulls;
        this.size = size;
        this.capacity = size;
    }

    /** Columns of exactly {@code size} rows, zeros, without NULLs: filled in place rather than row by row. */
    public static RowBuffer allocate(ValueKind[] kinds, int size) {
        RowBuffer b = new RowBuffer(kinds.clone(), new int[kinds.length][], new long[kinds.length][],
                new double[kinds.length][], new byte[kinds.length][], new String[kinds.length][], new long[kinds.length][],
                size);
        for (int c = 0; c < kinds.length; c++) {
            switch (kinds[c]) {
                case INT, CODE -> b.ints[c] = new int[size];
                case LONG -> b.longs[c] = new long[size];
                case DOUBLE -> b.doubles[c] = new double[size];
                case BOOL -> b.bytes[c] = new byte[size];
                case STRING -> b.strings[c] = new String[size];
            }
        }
        return b;
    }

    /**
     * Writes a raw 64-bit value into row {@code row} of column {@code c} as its kind holds it: the low bits of an
     * int, code or boolean, the bits of a double (how group keys travel in 64-bit words).
     */
    public void setRaw(int c, int row, long raw) {
        switch (kinds[c]) {
            case INT, CODE -> ints[c][row] = (int) raw;
            case LONG -> longs[c][row] = raw;
            case DOUBLE -> doubles[c][row] = Double.longBitsToDouble(raw);
            case BOOL -> bytes[c][row] = (byte) raw;
            case STRING -> throw new IllegalStateException("column " + c + " holds strings, not raw values");
        }
    }

    /** Columns {@code columns[0]}, {@code columns[1]}, ... of these rows, sharing their arrays. */
    public RowBuffer project(int[] columns) {
        int n = columns.length;
        ValueKind[] k = new ValueKind[n];
        int[][] i = new int[n][];
        long[][] l = new long[n][];
        double[][] d = new double[n][];
        byte[][] b = new byte[n][];
        String[][] s = new String[n][];
        long[][] nl = new long[n][];
        for (int c = 0; c < n; c++) {
            int from = columns[c];
            k[c] = kinds[from];
            i[c] = ints[from];
            l[c] = longs[from];
            d[c] = doubles[from];
            b[c] = bytes[from];
            s[c] = strings[from];
            nl[c] = nulls[from];
        }
        return new RowBuffer(k, i, l, d, b, s, nl, size);
    }

    /** Reserves the next row and returns its index; arrays may be replaced, so read them after this call. */
    public int next() {
        if (size == capacity) {
            grow();
        }
        return size++;
    }

    public void setNull(int column, int row) {
        long[] n = nulls[column];
        if (n == null) {
            n = nulls[column] = new long[(capacity + 63) >>> 6];
        }
        n[row >>> 6] |= 1L << row;
    }

    public boolean isNull(int column, int row) {
        long[] n = nulls[column];
        return n != null && (n[row >>> 6] & (1L << row)) != 0;
    }

    private void grow() {
        int cap = capacity < expectedRows ? (int) Math.min(expectedRows, (long) capacity * GROWTH_TO_EXPECTED)
                : capacity + (capacity >> 1) + 16;
        for (int c = 0; c < kinds.length; c++) {
            if (ints[c] != null) {
                ints[c] = Arrays.copyOf(ints[c], cap);
            }
            if (longs[c] != null) {
                longs[c] = Arrays.copyOf(longs[c], cap);
            }
            if (doubles[c] != null) {
                doubles[c] = Arrays.copyOf(doubles[c], cap);
            }
            if (bytes[c] != null) {
                bytes[c] = Arrays.copyOf(bytes[c], cap);
            }
            if (strings[c] != null) {
                strings[c] = Arrays.copyOf(strings[c], cap);
            }
            if (nulls[c] != null) {
                nulls[c] = Arrays.copyOf(nulls[c], (cap + 63) >>> 6);
            }
        }
        capacity = cap;
    }

    /** Replaces STRING column {@code c} by codes into a new sorted dictionary of its values. */
    public Dictionary encodeStrings(int c) {
        List<String> values = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (!isNull(c, r)) {
                values.add(strings[c][r]);
            }
        }
        Dictionary d = Dictionary.of(values);
        // as long as the other columns' arrays, in case the buffer grows
        int[] codes = new int[strings[c].length];
        for (int r = 0; r < size; r++) {
            codes[r] = isNull(c, r) ? 0 : d.code(strings[c][r]);
        }
        ints[c] = codes;
        strings[c] = null;
        kinds[c] = ValueKind.CODE;
        return d;
    }
}
