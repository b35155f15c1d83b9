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
        RowBuffer out = allocate(kinds, parts, offsets[parts.size()]);
        WorkerTasks.run(pool, workers, parts.size(), i -> copy(parts.get(i), out, offsets[i]));
        return out;
    }

    /**
     * The buffers' rows scattered: row r of buffer i becomes row {@code positions[i][r]} of a buffer of {@code total}
     * rows, every one of which some row is scattered to.
     */
    public static RowBuffer scatter(ValueKind[] kinds, List<RowBuffer> parts, int[][] positions, int total,
                                    ExecutorService pool, int workers) {
        RowBuffer out = allocate(kinds, parts, total);
        WorkerTasks.run(pool, workers, parts.size(), i -> scatter(parts.get(i), positions[i], out));
        return out;
    }

    /** An empty buffer of {@code total} rows, with a NULL bitmap for every column that has one in some part. */
    private static RowBuffer allocate(ValueKind[] kinds, List<RowBuffer> parts, int total) {
        RowBuffer out = new RowBuffer(kinds.clone(), total);
        for (int c = 0; c < kinds.length; c++) {
            for (RowBuffer p : parts) {
                if (p.nulls[c] != null) {
                    out.nulls[c] = new long[(Math.max(16, total) + 63) >>> 6];
                    break;
                }
            }
        }
        out.size = total;
        return out;
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
