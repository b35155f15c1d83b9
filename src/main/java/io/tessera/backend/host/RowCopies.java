package io.tessera.backend.host;

import io.tessera.backend.ValueKind;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The workers' row buffers copied into one buffer by all workers, each buffer by one: concatenated in order, or
 * scattered to given rows (a radix partitioning: every partition's rows together). NULL bits of rows that are
 * next to another buffer's share a bitmap word with them, so they are set with an atomic or.
 */
public final class RowCopies {

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private RowCopies() {
    }

    /** The buffers' rows one after another (a single buffer is returned as it is: nothing to copy). */
    public static RowBuffer concat(ValueKind[] kinds, List<RowBuffer> parts, ExecutorService pool, int workers) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        int[] offsets = new int[parts.size() + 1];
        for (int i = 0; i < parts.size(); i++) {
            offsets[i + 1] = Math.addExact(offsets[i], parts.get(i).size);
        }
        ArrayAllocations arrays = new ArrayAllocations();
        RowBuffer out = unfilled(kinds, parts, offsets[parts.size()], arrays);
        arrays.run(pool, workers);
        WorkerTasks.run(pool, workers, parts.size(), i -> copy(parts.get(i), out, offsets[i]));
        return out;
    }

    /**
     * A buffer of {@code total} rows for the buffers' rows, its columns (and a NULL bitmap for every column that has
     * one in some part) added to {@code arrays}: allocated, zeroed, once {@code arrays} runs.
     */
    public static RowBuffer unfilled(ValueKind[] kinds, List<RowBuffer> parts, int total, ArrayAllocations arrays) {
        int n = kinds.length;
        RowBuffer out = new RowBuffer(kinds.clone(), new int[n][], new long[n][], new double[n][], new byte[n][],
                new String[n][], new long[n][], total);
        for (int c = 0; c < n; c++) {
            int col = c;
            switch (kinds[c]) {
                case INT, CODE -> arrays.add(4L * total, () -> out.ints[col] = new int[total]);
                case LONG -> arrays.add(8L * total, () -> out.longs[col] = new long[total]);
                case DOUBLE -> arrays.add(8L * total, () -> out.doubles[col] = new double[total]);
                case BOOL -> arrays.add(total, () -> out.bytes[col] = new byte[total]);
                case STRING -> arrays.add(4L * total, () -> out.strings[col] = new String[total]);
            }
            for (RowBuffer p : parts) {
                if (p.nulls[c] != null) {
                    int words = (Math.max(16, total) + 63) >>> 6;
                    arrays.add(8L * words, () -> out.nulls[col] = new long[words]);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The buffers' rows scattered into {@code out} (from {@link #unfilled}, allocated): row r of buffer i becomes row
     * {@code positions[i][r]}, every row of {@code out} the target of some row.
     */
    public static void scatter(List<RowBuffer> parts, int[][] positions, RowBuffer out, ExecutorService pool,
                               int workers) {
        WorkerTasks.run(pool, workers, parts.size(), i -> scatter(parts.get(i), positions[i], out));
    }

    private static void copy(RowBuffer p, RowBuffer out, int at) {
        int n = p.size;
        for (int c = 0; c < p.kinds.length; c++) {
            switch (p.kinds[c]) {
                case INT, CODE -> System.arraycopy(p.ints[c], 0, out.ints[c], at, n);
                case LONG -> System.arraycopy(p.longs[c], 0, out.longs[c], at, n);
                case DOUBLE -> System.arraycopy(p.doubles[c], 0, out.doubles[c], at, n);
                case BOOL -> System.arraycopy(p.bytes[c], 0, out.bytes[c], at, n);
                case STRING -> System.arraycopy(p.strings[c], 0, out.strings[c], at, n);
            }
            if (p.nulls[c] != null) {
                for (int r = 0; r < n; r++) {
                    if (p.isNull(c, r)) {
                        setNull(out.nulls[c], at + r);
                    }
                }
            }
        }
    }

    private static void scatter(RowBuffer p, int[] to, RowBuffer out) {
        int n = p.size;
        for (int c = 0; c < p.kinds.length; c++) {
            switch (p.kinds[c]) {
                case INT, CODE -> {
                    int[] s = p.ints[c];
                    int[] d = out.ints[c];
                    for (int r = 0; r < n; r++) {
                        d[to[r]] = s[r];
                    }
                }
                case LONG -> {
                    long[] s = p.longs[c];
                    long[] d = out.longs[c];
                    for (int r = 0; r < n; r++) {
                        d[to[r]] = s[r];
                    }
                }
                case DOUBLE -> {
                    double[] s = p.doubles[c];
                    double[] d = out.doubles[c];
                    for (int r = 0; r < n; r++) {
                        d[to[r]] = s[r];
                    }
                }
                case BOOL -> {
                    byte[] s = p.bytes[c];
                    byte[] d = out.bytes[c];
                    for (int r = 0; r < n; r++) {
                        d[to[r]] = s[r];
                    }
                }
                case STRING -> {
                    String[] s = p.strings[c];
                    String[] d = out.strings[c];
                    for (int r = 0; r < n; r++) {
                        d[to[r]] = s[r];
                    }
                }
            }
            if (p.nulls[c] != null) {
                for (int r = 0; r < n; r++) {
                    if (p.isNull(c, r)) {
                        setNull(out.nulls[c], to[r]);
                    }
                }
            }
        }
    }

    /** Sets a NULL bit in a bitmap other workers write too. */
    private static void setNull(long[] bits, int row) {
        LONGS.getAndBitwiseOr(bits, row >>> 6, 1L << row);
    }
}
