package io.tessera.backend.cuda.check;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaModule;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.ops.LargeSort;
import io.tessera.backend.cuda.ops.RadixScatter;
import io.tessera.backend.cuda.ops.SmallSort;
import io.tessera.backend.cuda.ops.SortMethod;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;


/**
 * The GPU's ORDER BY of large relations ({@link LargeSort}) against the JVM's sort of the same rows: the radix sort,
 * by each of its scatter kernels ({@link RadixScatter}; tails of tiles of 2,048 to 5,760 pairs), over four key words (a dense slot digit, a NULL flag, a signed value descending with ties, a double with -0.0 and
 * NaN), with a word that is the same in every row and digits that never vary; the bitonic top-k over one key for
 * LIMITs from 1 to 1,024, with its filter and without (fewer rows, or a sample of large keys that lets too many
 * pass); sizes around the tiles of both, and LIMITs shorter than the rows.
 */
final class LargeSortCheck {

    private LargeSortCheck() {
    }

    /** Runs every case; {@code check} receives whether it matched and what it was. */
    static void run(CudaContext ctx, CudaModule utility, CudaModule sortModule, BiConsumer<Boolean, String> check) {
        SmallSort small = new SmallSort(utility::kernel);
        LargeSort sort = new LargeSort(sortModule::kernel, small);
        long[][] radixCases = {{4097, 4097}, {2047, 100}, {2049, 2049}, {100_000, 100_000}, {1_000_003, 5000}};
        for (RadixScatter scatter : RadixScatter.values()) {
            for (long[] c : radixCases) {
                check.accept(matches(ctx, sort, (int) c[0], (int) c[1], false, 0, scatter), "radix sort ("
                        + scatter.label() + ") of " + c[0] + " rows on the GPU (LIMIT " + c[1] + ") against the JVM's: "
                        + "dense digit, NULL flag, signed DESC, double, a constant word");
            }
        }
        // {rows, LIMIT, period}: every row whose number is a multiple of the period (0: none) has a key above all
        // others; at 1,000,003 rows these are the top-k filter's sample, so that most rows pass it
        long[][] topCases = {{4096, 1, 0}, {4097, 16, 0}, {100_000, 256, 0}, {1_000_003, 1000, 0}, {9000, 1024, 0},
                {LargeSort.TOPK_FILTER_ROWS, 16, 0}, {1_000_003, 64, 1_000_003 / LargeSort.TOPK_SAMPLE}};
        for (long[] c : topCases) {
            check.accept(matches(ctx, sort, (int) c[0], (int) c[1], true, c[2], RadixScatter.DEFAULT), "bitonic top-"
                    + c[1] + " of " + c[0]
                    + " rows on the GPU against the JVM's sort (signed keys with ties"
                    + (c[2] > 0 ? ", large keys every " + c[2] + " rows)" : ")"));
        }
    }

    private static boolean matches(CudaContext ctx, LargeSort sort, int n, int limit, boolean topK, long period,
                                   RadixScatter scatter) {
        long[] signed = new long[n];
        long[] doubles = new long[n];
        long[] slots = new long[n];
        long[] counts = new long[n];
        long[] constant = new long[n];
        double[] special = {0.0, -0.0, Double.NaN, -1.5, 1e300, Double.NEGATIVE_INFINITY};
        for (int i = 0; i < n; i++) {
            long h = GpuSmokeCheck.mix(i * 7919L + n) & Long.MAX_VALUE;
            long large = period > 0 && i % period == 0 ? 1_000_000 : 0;
            signed[i] = topK ? (h % 50_000) - 25_000 + large : (h % 5) - 2 + ((h >>> 20) % 3 == 0 ? Long.MIN_VALUE / 2 : 0);
            double d = (h >>> 8) % 4 == 0 ? special[(int) ((h >>> 12) % special.length)] : ((h >>> 16) % 200) - 100.0;
            doubles[i] = Double.doubleToRawLongBits(d);
            slots[i] = (h >>> 24) % 1_750_000;
            counts[i] = (h >>> 30) % 6 == 0 ? 0 : 1;
            constant[i] = 7;
        }
        Integer[] expect = new Integer[n];
        for (int i = 0; i < n; i++) {
            expect[i] = i;
        }
        Comparator<Integer> order = topK ? Comparator.comparingLong(i -> signed[i])
                : Comparator.<Integer>comparingLong(i -> 1992 + (slots[i] / 250) % 7)
                .thenComparing(i -> counts[i] == 0 ? 0 : 1)
                .thenComparing(i -> signed[i], Comparator.reverseOrder())
                .thenComparing((a, b) -> Double.compare(Double.longBitsToDouble(doubles[a]),
                        Double.longBitsToDouble(doubles[b])));
        Arrays.sort(expect, order); // stable: ties keep the row order, as on the GPU
        List<DeviceBuffer> buffers = new ArrayList<>();
        LargeSort.Scratch scratch = new LargeSort.Scratch() {
            @Override
            public DeviceBuffer take(long bytes) {
                DeviceBuffer b = ctx.allocate(bytes);
                buffers.add(b);
                return b;
            }

            @Override
            public void give(DeviceBuffer b) {
                // freed once the sort's result is read back
            }
        };
        try (Arena arena = Arena.ofConfined()) {
            DeviceBuffer dSigned = upload(ctx, arena, signed, buffers);
            List<SmallSort.Key> keys = new ArrayList<>();
            if (topK) {
                keys.add(SmallSort.Key.of(dSigned, 0, 1, 0, SmallSort.Kind.SIGNED, false));
            } else {
                keys.add(SmallSort.Key.of(upload(ctx, arena, constant, buffers), 0, 1, 0, SmallSort.Kind.SIGNED, false));
                keys.add(SmallSort.Key.denseDigit(upload(ctx, arena, slots, buffers), 1992, 250, 7, false));
                keys.add(SmallSort.Key.of(upload(ctx, arena, counts, buffers), 0, 1, 0, SmallSort.Kind.NULL_FLAG, true));
                keys.add(SmallSort.Key.of(dSigned, 0, 1, 0, SmallSort.Kind.SIGNED, true));
                keys.add(SmallSort.Key.of(upload(ctx, arena, doubles, buffers), 0, 1, 0, SmallSort.Kind.DOUBLE, false));
            }
            int out = Math.min(n, limit);
            DeviceBuffer index = scratch.take(Math.max(8, out * 8L));
            LargeSort.Outcome outcome = sort.sort(keys, n, limit, SortMethod.Preference.BITONIC, scatter, scratch, index);
            if (outcome.method() != (topK ? SortMethod.TOP_K : SortMethod.RADIX)) {
                return false;
            }
            return SmallSortCheck.indexEquals(arena, index, out, expect);
        } finally {
            for (DeviceBuffer b : buffers) {
                b.close();
            }
        }
    }

    private static DeviceBuffer upload(CudaContext ctx, Arena arena, long[] values, List<DeviceBuffer> buffers) {
        DeviceBuffer b = SmallSortCheck.upload(ctx, arena, values);
        buffers.add(b);
        return b;
    }
}
