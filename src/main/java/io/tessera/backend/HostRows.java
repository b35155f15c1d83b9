package io.tessera.backend;

/**
 * Rows on the host in a device-neutral form: one array per column by its {@link ValueKind} (exactly
 * {@link #size} long), a NULL bitmap per column only where a NULL was written, and per CODE column the key of
 * the dictionary its codes belong to. What a device hands the host when one of its intermediates is moved, and
 * what the group-to-rows finalization writes.
 */
public final class HostRows {

    public final ValueKind[] kinds;
    public final int[][] ints;
    public final long[][] longs;
    public final double[][] doubles;
    public final byte[][] bytes;
    public final String[][] strings;
    /** Per column, bit set = NULL; null until the first NULL. */
    public final long[][] nulls;
    /** Per column, the dictionary key of a CODE column's codes (null for other kinds, or when unknown). */
    public final String[] dictionaries;
    public final int size;

    private HostRows(ValueKind[] kinds, String[] dictionaries, int size) {
        int n = kinds.length;
        this.kinds = kinds;
        this.dictionaries = dictionaries;
        this.size = size;
        ints = new int[n][];
        longs = new long[n][];
        doubles = new double[n][];
        bytes = new byte[n][];
        strings = new String[n][];
        nulls = new long[n][];
    }

    /** Empty columns of {@code size} rows (zeros); {@code dictionaries} null: none known. */
    public static HostRows allocate(ValueKind[] kinds, String[] dictionaries, int size) {
        HostRows r = new HostRows(kinds.clone(), dictionaries == null ? new String[kinds.length] : dictionaries.clone(), size);
        for (int c = 0; c < kinds.length; c++) {
            switch (kinds[c]) {
                case INT, CODE -> r.ints[c] = new int[size];
                case LONG -> r.longs[c] = new long[size];
                case DOUBLE -> r.doubles[c] = new double[size];
                case BOOL -> r.bytes[c] = new byte[size];
                case STRING -> r.strings[c] = new String[size];
            }
        }
        return r;
    }

    public int columns() {
        return kinds.length;
    }

    public void setNull(int column, int row) {
        long[] n = nulls[column];
        if (n == null) {
            n = nulls[column] = new long[(size + 63) >>> 6];
        }
        n[row >>> 6] |= 1L << row;
    }

    public boolean isNull(int column, int row) {
        long[] n = nulls[column];
        return n != null && (n[row >>> 6] & (1L << row)) != 0;
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

    /** Columns {@code columns[0]}, {@code columns[1]}, ... of {@code rows}, sharing their arrays. */
    public static HostRows project(HostRows rows, int[] columns) {
        ValueKind[] kinds = new ValueKind[columns.length];
        String[] dicts = new String[columns.length];
        for (int c = 0; c < columns.length; c++) {
            kinds[c] = rows.kinds[columns[c]];
            dicts[c] = rows.dictionaries[columns[c]];
        }
        HostRows out = new HostRows(kinds, dicts, rows.size);
        for (int c = 0; c < columns.length; c++) {
            int from = columns[c];
            out.ints[c] = rows.ints[from];
            out.longs[c] = rows.longs[from];
            out.doubles[c] = rows.doubles[from];
            out.bytes[c] = rows.bytes[from];
            out.strings[c] = rows.strings[from];
            out.nulls[c] = rows.nulls[from];
        }
        return out;
    }
}
