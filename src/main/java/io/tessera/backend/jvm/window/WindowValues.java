package io.tessera.backend.jvm.window;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.WindowFunction;
import io.tessera.storage.Dictionary;

import java.util.function.Function;

/**
 * One result column of a window sink: stores numbers, NULLs and values copied from the collected rows (decoding
 * VARCHAR codes where the column holds strings), and computes the functions that pick a row's value: LAG and LEAD
 * (a row at an offset in the partition, else the default), FIRST_VALUE, LAST_VALUE and NTH_VALUE (a row of the
 * frame).
 */
final class WindowValues {

    private final RowBuffer in;
    private final String[] inDicts;
    private final Function<String, Dictionary> dictionaries;
    private final RowBuffer out;
    private final int c;
    /** The input columns' dictionaries, looked up once each. */
    private final Dictionary[] decoders;
    /**
     * Rows whose result is NULL, kept here rather than set where workers fill one column side by side: two rows of
     * one word of the NULL bitmap may belong to different workers ({@link #applyNulls} sets them afterwards).
     */
    private int[] pendingNulls;
    private int pending;

    /** A result column whose NULLs are set as they come ({@code deferNulls} false) or kept for {@link #applyNulls}. */
    WindowValues(RowBuffer in, String[] inDicts, Function<String, Dictionary> dictionaries, RowBuffer out, int c,
                 boolean deferNulls) {
        this.in = in;
        this.inDicts = inDicts;
        this.dictionaries = dictionaries;
        this.out = out;
        this.c = c;
        this.decoders = new Dictionary[inDicts.length];
        this.pendingNulls = deferNulls ? new int[16] : null;
    }

    void setNull(int row) {
        if (pendingNulls == null) {
            out.setNull(c, row);
            return;
        }
        if (pending == pendingNulls.length) {
            pendingNulls = java.util.Arrays.copyOf(pendingNulls, pending * 2);
        }
        pendingNulls[pending++] = row;
    }

    /** Sets the NULLs that were kept; on one thread, after the workers are done. */
    void applyNulls() {
        for (int i = 0; i < pending; i++) {
            out.setNull(c, pendingNulls[i]);
        }
        pending = 0;
    }

    private Dictionary decoder(int col) {
        Dictionary d = decoders[col];
        if (d == null) {
            d = decoders[col] = dictionaries.apply(inDicts[col]);
        }
        return d;
    }

    /** An integer result (ranks, counts, sums) in the column's representation. */
    void setLong(int row, long v) {
        switch (out.kinds[c]) {
            case INT -> out.ints[c][row] = Math.toIntExact(v);
            case LONG -> out.longs[c][row] = v;
            case DOUBLE -> out.doubles[c][row] = v;
            default -> throw new IllegalStateException("an integer into a " + out.kinds[c] + " column");
        }
    }

    void setDouble(int row, double v) {
        out.doubles[c][row] = v;
    }

    /** The value of column {@code col} of collected row {@code from} as this column's value of {@code row}. */
    void copy(int col, int from, int row) {
        if (in.isNull(col, from)) {
            setNull(row);
            return;
        }
        switch (out.kinds[c]) {
            case INT, CODE -> out.ints[c][row] = in.ints[col][from];
            case LONG -> out.longs[c][row] = in.kinds[col] == ValueKind.INT ? in.ints[col][from] : in.longs[col][from];
            case DOUBLE -> out.doubles[c][row] = switch (in.kinds[col]) {
                case INT -> in.ints[col][from];
                case LONG -> in.longs[col][from];
                default -> in.doubles[col][from];
            };
            case BOOL -> out.bytes[c][row] = in.bytes[col][from];
            case STRING -> out.strings[c][row] = in.kinds[col] == ValueKind.STRING ? in.strings[col][from]
                    : decoder(col).value(in.ints[col][from]);
        }
    }

    /** A constant (in the representation of a plan literal) as this column's value of {@code row}. */
    void constant(Object v, int row) {
        if (v == null) {
            setNull(row);
            return;
        }
        switch (out.kinds[c]) {
            case INT -> out.ints[c][row] = ((Number) v).intValue();
            case LONG -> out.longs[c][row] = ((Number) v).longValue();
            case DOUBLE -> out.doubles[c][row] = ((Number) v).doubleValue();
            case BOOL -> out.bytes[c][row] = (byte) (((Boolean) v) ? 1 : 0);
            case STRING -> out.strings[c][row] = v.toString();
            case CODE -> throw new IllegalStateException("a constant into a column of codes");
        }
    }

    /** LAG (the row {@code offset} positions before) and LEAD (after), within the partition; else the default. */
    void shifted(WindowFunction fn, WindowOrder o) {
        long step = fn.kind() == WindowFunction.Kind.LAG ? -fn.offset() : fn.offset();
        for (int i = 0; i < o.rows.length; i++) {
            int row = o.rows[i];
            long j = i + step;
            if (j >= o.partStart[i] && j < o.partEnd[i]) {
                copy(fn.arg(), o.rows[(int) j], row);
            } else if (fn.defaultColumn() >= 0) {
                copy(fn.defaultColumn(), row, row);
            } else {
                constant(fn.defaultValue(), row);
            }
        }
    }

    /**
     * FIRST_VALUE and LAST_VALUE: the argument at the frame's first or last row; NTH_VALUE: at its n-th row (counted
     * from 1, the excluded rows skipped). NULL where the frame has no such row.
     */
    void edge(WindowFunction fn, WindowOrder o, WindowFrames f) {
        int[] pieces = new int[6];
        for (int i = 0; i < o.rows.length; i++) {
            int row = o.rows[i];
            int np = f.pieces(i, pieces);
            int at = switch (fn.kind()) {
                case FIRST_VALUE -> np == 0 ? -1 : pieces[0];
                case LAST_VALUE -> np == 0 ? -1 : pieces[2 * np - 1] - 1;
                default -> nth(pieces, np, fn.offset());
            };
            if (at < 0) {
                setNull(row);
            } else {
                copy(fn.arg(), o.rows[at], row);
            }
        }
    }

    /** The position of the n-th row of a frame's ranges, or -1 where it has fewer rows. */
    private static int nth(int[] pieces, int np, long n) {
        long left = n - 1;
        for (int p = 0; p < np; p++) {
            int len = pieces[2 * p + 1] - pieces[2 * p];
            if (left < len) {
                return pieces[2 * p] + (int) left;
            }
            left -= len;
        }
        return -1;
    }
}
