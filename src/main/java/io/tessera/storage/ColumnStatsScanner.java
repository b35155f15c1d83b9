package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

/**
 * Computes the {@link ColumnStats} of a finished column file: the one place where a column's statistics are made.
 * The rows are scanned in ranges on all cores, each range into a {@link Partial} (null count, min, max, distinct
 * sketch), and the partials merged; what needs every value at once (the exact uniqueness check) runs afterwards over
 * the whole file, also in ranges. A writer may instead make the partials of the batches it writes while it writes
 * them ({@link #part}) and hand their merge to {@link #scan(TypeKind, MemorySegment, long, long[], long, Partial)},
 * so that the commit reads no value again. A new statistic is a field of {@link Partial} with its merge.
 */
final class ColumnStatsScanner {

    /** Rows a range: large enough that a range's sketch costs little beside its scan. */
    static final long RANGE_ROWS = 1 << 20;
    /** Values read into an array at a time. */
    private static final int BLOCK = 4096;

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private ColumnStatsScanner() {
    }

    /** Statistics of a column of {@code kind} (not VARCHAR) over {@code rows} values; {@code nullBits}: set = NULL. */
    static ColumnStats scan(TypeKind kind, MemorySegment seg, long rows, long[] nullBits) {
        return scan(kind, seg, rows, nullBits, rows, new Partial());
    }

    /**
     * As {@link #scan(TypeKind, MemorySegment, long, long[])}, where only rows [0, {@code scanRows}) are scanned and
     * {@code written} holds the partial of the others, made as they were written ({@link #part}).
     */
    static ColumnStats scan(TypeKind kind, MemorySegment seg, long rows, long[] nullBits, long scanRows,
                            Partial written) {
        Partial p = IntStream.range(0, ranges(scanRows)).parallel()
                .mapToObj(i -> Partial.of(kind, seg, i * RANGE_ROWS, Math.min(scanRows, (i + 1) * RANGE_ROWS),
                        nullBits))
                .reduce(Partial::merge).orElseGet(Partial::new).merge(written);
        if (!p.any) {
            return new ColumnStats(p.nulls, 0, null, null);
        }
        long distinct = p.hll.estimate();
        if (kind == TypeKind.DOUBLE) {
            return new ColumnStats(p.nulls, distinct, p.minD, p.maxD);
        }
        // an estimate never exceeds what the range allows
        long range = p.maxL - p.minL + 1;
        if (range > 0 && distinct > range) {
            distinct = range;
        }
        distinct = Math.max(1, Math.min(distinct, rows - p.nulls));
        boolean unique = kind != TypeKind.BOOLEAN && distinct >= 0.9 * (rows - p.nulls)
                && exactlyUnique(kind, seg, rows, nullBits, p.minL, p.maxL);
        return new ColumnStats(p.nulls, unique ? rows - p.nulls : distinct, p.minL, p.maxL, unique);
    }

    /**
     * Statistics of a VARCHAR column from its sorted dictionary of {@code dictSize} strings ({@code min} and
     * {@code max} its first and last) and its codes in {@code seg}.
     */
    static ColumnStats strings(MemorySegment seg, long rows, long[] nullBits, long nullCount, int dictSize,
                               String min, String max) {
        boolean unique = dictSize == rows - nullCount && codesUnique(seg, rows, nullBits, dictSize);
        return new ColumnStats(nullCount, dictSize, dictSize == 0 ? null : min, dictSize == 0 ? null : max, unique);
    }

    /** The partial of a batch's first {@code n} values (a column of {@code kind}, not VARCHAR), from its arrays. */
    static Partial part(TypeKind kind, ColumnBuilder b, int n) {
        MemorySegment values = switch (kind) {
            case DOUBLE -> MemorySegment.ofArray(b.doubles());
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> MemorySegment.ofArray(b.longs());
            case BOOLEAN -> MemorySegment.ofArray(b.bytes());
            case INTEGER, DATE -> MemorySegment.ofArray(b.ints());
            case VARCHAR -> throw new IllegalArgumentException(
                    "a VARCHAR column's statistics come from its dictionary");
        };
        return Partial.of(kind, values, 0, n, b.nullBits());
    }

    private static int ranges(long rows) {
        return (int) ((rows + RANGE_ROWS - 1) / RANGE_ROWS);
    }

    private static boolean isNull(long[] nullBits, long r) {
        return nullBits != null && (r >>> 6) < nullBits.length && (nullBits[(int) (r >>> 6)] & (1L << (r & 63))) != 0;
    }

    /** Null count, min, max and distinct sketch over the non-null values of rows [from, to). */
    static final class Partial {
        final HyperLogLog hll = new HyperLogLog();
        long nulls;
        boolean any;
        long minL = Long.MAX_VALUE;
        long maxL = Long.MIN_VALUE;
        // DuckDB's order, in which NaN is above every number: min ignores NaN unless every value is one (NaN is
        // so min's start), max is NaN where any value is (Math.max keeps NaN)
        double minD = Double.NaN;
        double maxD = Double.NEGATIVE_INFINITY;

        static Partial of(TypeKind kind, MemorySegment seg, long from, long to, long[] nullBits) {
            Partial p = new Partial();
            // values are read a block at a time into an array, which the loops below then walk
            switch (kind) {
                case DOUBLE -> {
                    double[] v = new double[BLOCK];
                    for (long at = from; at < to; at += BLOCK) {
                        int k = (int) Math.min(BLOCK, to - at);
                        MemorySegment.copy(seg, Column.DOUBLE, at << 3, v, 0, k);
                        for (int i = 0; i < k; i++) {
                            if (isNull(nullBits, at + i)) {
                                p.nulls++;
                            } else {
                                p.addDouble(v[i]);
                            }
                        }
                    }
                }
                case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> {
                    long[] v = new long[BLOCK];
                    for (long at = from; at < to; at += BLOCK) {
                        int k = (int) Math.min(BLOCK, to - at);
                        MemorySegment.copy(seg, Column.LONG, at << 3, v, 0, k);
                        for (int i = 0; i < k; i++) {
                            if (isNull(nullBits, at + i)) {
                                p.nulls++;
                            } else {
                                p.addLong(v[i]);
                            }
                        }
                    }
                }
                case BOOLEAN -> {
                    for (long r = from; r < to; r++) {
                        if (isNull(nullBits, r)) {
                            p.nulls++;
                        } else {
                            p.addLong(seg.get(ValueLayout.JAVA_BYTE, r));
                        }
                    }
                }
                default -> {
                    int[] v = new int[BLOCK];
                    for (long at = from; at < to; at += BLOCK) {
                        int k = (int) Math.min(BLOCK, to - at);
                        MemorySegment.copy(seg, Column.INT, at << 2, v, 0, k);
                        for (int i = 0; i < k; i++) {
                            if (isNull(nullBits, at + i)) {
                                p.nulls++;
                            } else {
                                p.addLong(v[i]);
                            }
                        }
                    }
                }
            }
            return p;
        }

        private void addDouble(double d) {
            any = true;
            minD = minNanLast(minD, d);
            maxD = Math.max(maxD, d);
            hll.add(Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
        }

        private void addLong(long v) {
            any = true;
            minL = Math.min(minL, v);
            maxL = Math.max(maxL, v);
            hll.add(v);
        }

        Partial merge(Partial o) {
            nulls += o.nulls;
            any |= o.any;
            minL = Math.min(minL, o.minL);
            maxL = Math.max(maxL, o.maxL);
            minD = minNanLast(minD, o.minD);
            maxD = Math.max(maxD, o.maxD);
            hll.merge(o.hll);
            return this;
        }

        /** The lesser of two doubles where NaN is the greatest (Math.min's NaN would hide every number). */
        private static double minNanLast(double a, double b) {
            return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
        }
    }

    /** Exact check that no non-null value repeats: a bitmap over the value range filled on all cores, or a sort. */
    private static boolean exactlyUnique(TypeKind kind, MemorySegment seg, long rows, long[] nullBits, long min,
                                         long max) {
        long range = max - min + 1;
        boolean wide = kind.isInt64();
        if (range > 0 && range <= (1L << 31)) {
            long[] seen = new long[(int) ((range + 63) >>> 6)];
            return noneSeenTwice(rows, nullBits, seen,
                    r -> (wide ? seg.get(Column.LONG, r << 3) : seg.get(Column.INT, r << 2)) - min);
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
        Arrays.parallelSort(vals, 0, n);
        for (int i = 1; i < n; i++) {
            if (vals[i] == vals[i - 1]) {
                return false;
            }
        }
        return true;
    }

    static boolean codesUnique(MemorySegment seg, long rows, long[] nullBits, int dictSize) {
        long[] seen = new long[(dictSize + 63) >>> 6];
        return noneSeenTwice(rows, nullBits, seen, r -> seg.get(Column.INT, r << 2));
    }

    @FunctionalInterface
    private interface RowValue {
        long at(long row);
    }

    /** Sets a bit of {@code seen} per non-null row, in ranges on all cores; false at the first bit already set. */
    private static boolean noneSeenTwice(long rows, long[] nullBits, long[] seen, RowValue value) {
        AtomicBoolean repeated = new AtomicBoolean();
        IntStream.range(0, ranges(rows)).parallel().forEach(i -> {
            long to = Math.min(rows, (i + 1) * RANGE_ROWS);
            for (long r = i * RANGE_ROWS; r < to && !repeated.get(); r++) {
                if (isNull(nullBits, r)) {
                    continue;
                }
                long v = value.at(r);
                long bit = 1L << (v & 63);
                if (((long) WORDS.getAndBitwiseOr(seen, (int) (v >>> 6), bit) & bit) != 0) {
                    repeated.set(true);
                }
            }
        });
        return !repeated.get();
    }
}
