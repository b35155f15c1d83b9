package io.tessera.backend.cuda.check;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaModule;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.ops.SlotCompaction;
import io.tessera.backend.cuda.ops.SmallSort;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The GPU's ORDER BY of small relations ({@link SmallSort}) against the JVM's sort of the same rows: integers of
 * both signs, doubles with negative zero and NaN, dense slot digits and NULL flags, ascending and descending, with
 * ties, at sizes around the padding's powers of two, and LIMITs shorter than the rows; and the same for a kernel's
 * rows (32-bit values, their NULL flags, booleans), gathered in the sorted order.
 */
final class SmallSortCheck {

    private SmallSortCheck() {
    }

    /** Runs every case; {@code check} receives whether it matched and what it was. */
    static void run(CudaContext ctx, CudaModule module, BiConsumer<Boolean, String> check) {
        SmallSort sort = new SmallSort(module::kernel);
        int[][] cases = {{1, 1}, {2, 3}, {3, 1}, {100, 5}, {1000, 1000}, {1024, 2}, {1025, 1025}, {4096, 4096}};
        for (int[] c : cases) {
            check.accept(sortMatches(ctx, sort, c[0], c[1]), "ORDER BY of " + c[0] + " rows on the GPU (LIMIT "
                    + c[1] + ") against the JVM's: signed, double (NaN, -0.0), dense digit and NULL keys");
        }
        SlotCompaction gather = new SlotCompaction(module::kernel);
        for (int[] c : cases) {
            check.accept(kernelRowsMatch(ctx, sort, gather, c[0], c[1]), "ORDER BY of " + c[0] + " rows of a kernel "
                    + "on the GPU (LIMIT " + c[1] + ") against the JVM's: NULL flag bytes, 32-bit and boolean keys, "
                    + "the rows gathered in order");
        }
    }

    /**
     * A kernel's rows as {@code DeviceRowsSort} sorts them: ORDER BY a 32-bit column with NULL flags (NULLS FIRST)
     * DESC, then a boolean column ASC, then the row number; the 32-bit column gathered in that order.
     */
    private static boolean kernelRowsMatch(CudaContext ctx, SmallSort sort, SlotCompaction gather, int n, int limit) {
        int[] ints = new int[n];
        byte[] nulls = new byte[n];
        byte[] bools = new byte[n];
        for (int i = 0; i < n; i++) {
            long h = GpuSmokeCheck.mix(i * 104729L + n) & Long.MAX_VALUE;
            nulls[i] = (byte) ((h >>> 40) % 7 == 0 ? 1 : 0);
            ints[i] = nulls[i] != 0 ? 0 : (int) ((h % 9) - 4 + ((h >>> 20) % 3 == 0 ? Integer.MIN_VALUE / 2 : 0));
            bools[i] = (byte) ((h >>> 30) & 1);
        }
        Integer[] expect = new Integer[n];
        for (int i = 0; i < n; i++) {
            expect[i] = i;
        }
        Comparator<Integer> order = Comparator.<Integer>comparingInt(i -> nulls[i] != 0 ? 0 : 1)
                .thenComparing(i -> ints[i], Comparator.reverseOrder())
                .thenComparingInt(i -> bools[i]);
        Arrays.sort(expect, order);
        int out = Math.min(n, limit);
        try (Arena arena = Arena.ofConfined();
             DeviceBuffer dInts = ctx.allocate(Math.max(8, n * 4L));
             DeviceBuffer dNulls = ctx.allocate(Math.max(8, n));
             DeviceBuffer dBools = ctx.allocate(Math.max(8, n));
             DeviceBuffer scratch = ctx.allocate(SmallSort.scratchBytes(n, 3));
             DeviceBuffer index = ctx.allocate(Math.max(8, limit * 8L));
             DeviceBuffer gathered = ctx.allocate(Math.max(8, out * 4L))) {
            dInts.copyFromHost(arena.allocateFrom(JAVA_INT, ints), 0);
            dNulls.copyFromHost(arena.allocateFrom(JAVA_BYTE, nulls), 0);
            dBools.copyFromHost(arena.allocateFrom(JAVA_BYTE, bools), 0);
            List<SmallSort.Key> keys = new ArrayList<>();
            keys.add(SmallSort.Key.of(dNulls, 0, 1, 0, SmallSort.Kind.BYTE, true));
            keys.add(SmallSort.Key.of(dInts, 0, 1, 0, SmallSort.Kind.INT32, true));
            keys.add(SmallSort.Key.of(dBools, 0, 1, 0, SmallSort.Kind.BYTE, false));
            sort.sort(keys, n, limit, scratch, index);
            gather.gatherRows(dInts.address(), 4, index.address(), out, gathered.address());
            if (!indexEquals(arena, index, out, expect)) {
                return false;
            }
            MemorySegment host = arena.allocate(Math.max(8, out * 4L), 8);
            gathered.copyToHost(host.asSlice(0, out * 4L), 0);
            for (int i = 0; i < out; i++) {
                if (host.getAtIndex(JAVA_INT, i) != ints[expect[i]]) {
                    return false;
                }
            }
            return true;
        }
    }

    private static boolean sortMatches(CudaContext ctx, SmallSort sort, int n, int limit) {
        // source columns: a signed value with ties, a double, a dense slot number, a count (0: NULL)
        long[] signed = new long[n];
        long[] doubles = new long[n];
        long[] slots = new long[n];
        long[] counts = new long[n];
        double[] special = {0.0, -0.0, Double.NaN, -1.5, 1e300, Double.NEGATIVE_INFINITY};
        for (int i = 0; i < n; i++) {
            long h = GpuSmokeCheck.mix(i * 7919L + n) & Long.MAX_VALUE;
            signed[i] = (h % 5) - 2 + ((h >>> 20) % 3 == 0 ? Long.MIN_VALUE / 2 : 0);
            double d = (h >>> 8) % 4 == 0 ? special[(int) ((h >>> 12) % special.length)] : ((h >>> 16) % 200) - 100.0;
            doubles[i] = Double.doubleToRawLongBits(d);
            slots[i] = (h >>> 24) % 1_750_000;
            counts[i] = (h >>> 30) % 6 == 0 ? 0 : 1;
        }
        // ORDER BY (slot / 250) % 7 + 1992 ASC, count IS NULL first, signed DESC, double ASC, then row number
        Integer[] expect = new Integer[n];
        for (int i = 0; i < n; i++) {
            expect[i] = i;
        }
        Comparator<Integer> order = Comparator.<Integer>comparingLong(i -> 1992 + (slots[i] / 250) % 7)
                .thenComparing(i -> counts[i] == 0 ? 0 : 1)
                .thenComparing(i -> signed[i], Comparator.reverseOrder())
                .thenComparing((a, b) -> Double.compare(Double.longBitsToDouble(doubles[a]),
                        Double.longBitsToDouble(doubles[b])));
        Arrays.sort(expect, order); // stable: ties keep the row order, as on the GPU
        try (Arena arena = Arena.ofConfined();
             DeviceBuffer dSigned = upload(ctx, arena, signed);
             DeviceBuffer dDoubles = upload(ctx, arena, doubles);
             DeviceBuffer dSlots = upload(ctx, arena, slots);
             DeviceBuffer dCounts = upload(ctx, arena, counts);
             DeviceBuffer scratch = ctx.allocate(SmallSort.scratchBytes(n, 4));
             DeviceBuffer index = ctx.allocate(Math.max(8, limit * 8L))) {
            List<SmallSort.Key> keys = new ArrayList<>();
            keys.add(SmallSort.Key.denseDigit(dSlots, 1992, 250, 7, false));
            keys.add(SmallSort.Key.of(dCounts, 0, 1, 0, SmallSort.Kind.NULL_FLAG, true));
            keys.add(SmallSort.Key.of(dSigned, 0, 1, 0, SmallSort.Kind.SIGNED, true));
            keys.add(SmallSort.Key.of(dDoubles, 0, 1, 0, SmallSort.Kind.DOUBLE, false));
            sort.sort(keys, n, limit, scratch, index);
            return indexEquals(arena, index, Math.min(n, limit), expect);
        }
    }

    /** Whether the first {@code out} row numbers of the device index are {@code expect}'s (the JVM's sort). */
    static boolean indexEquals(Arena arena, DeviceBuffer index, int out, Integer[] expect) {
        MemorySegment host = arena.allocate(Math.max(8, out * 8L), 8);
        index.copyToHost(host.asSlice(0, out * 8L), 0);
        for (int i = 0; i < out; i++) {
            if (host.getAtIndex(JAVA_LONG, i) != expect[i]) {
                return false;
            }
        }
        return true;
    }

    /** A device copy of {@code values}; the caller closes it. */
    static DeviceBuffer upload(CudaContext ctx, Arena arena, long[] values) {
        DeviceBuffer b = ctx.allocate(values.length * 8L);
        b.copyFromHost(arena.allocateFrom(JAVA_LONG, values), 0);
        return b;
    }
}
