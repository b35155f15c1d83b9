package io.tessera.backend.cuda.check;

import io.tessera.backend.cuda.driver.CudaContext;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.CudaModule;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;
import io.tessera.backend.cuda.ops.SearchIndex;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.BiConsumer;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The GPU's sorted searches (tessera_search.cuh: binary, p-ary, and p-ary over the index of cache lines) against
 * the host's binary search: both bounds of every lookup, over sorted arrays whose sizes end inside a line, a level
 * or a warp's round of lookups, with long runs of equal keys and keys at the top of the unsigned range.
 */
final class SortedSearchCheck {

    private static final int THREADS = 256;
    private static final int[] SIZES = {1, 17, 257, 4097, 100_003};
    private static final int LOOKUPS = 10_007;

    private SortedSearchCheck() {
    }

    /** Runs every case; {@code check} receives whether it matched and what it was. */
    static void run(CudaContext ctx, CudaModule sortModule, BiConsumer<Boolean, String> check) {
        for (int n : SIZES) {
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                long h = GpuSmokeCheck.mix(i * 31L + n);
                keys[i] = (h & 7) == 0 ? -1L - (h >>> 60 & 1) : (h >>> 8) % (n / 3 + 2);
            }
            long[] sorted = Arrays.stream(keys).map(k -> k ^ Long.MIN_VALUE).sorted().map(k -> k ^ Long.MIN_VALUE).toArray();
            long[] lookups = new long[LOOKUPS];
            for (int j = 0; j < LOOKUPS; j++) {
                long h = GpuSmokeCheck.mix(j * 17L + 5);
                lookups[j] = switch ((int) (h & 3)) {
                    case 0 -> sorted[(int) ((h >>> 8) % n)];
                    case 1 -> sorted[(int) ((h >>> 8) % n)] + 1;
                    case 2 -> (h >>> 8) % (n / 3 + 3);
                    default -> (h & 4) == 0 ? 0 : -1L;
                };
            }
            long[] lower = new long[LOOKUPS];
            long[] upper = new long[LOOKUPS];
            for (int j = 0; j < LOOKUPS; j++) {
                lower[j] = bound(sorted, lookups[j], false);
                upper[j] = bound(sorted, lookups[j], true);
            }
            try (Arena arena = Arena.ofConfined();
                 DeviceBuffer dSorted = SmallSortCheck.upload(ctx, arena, sorted);
                 DeviceBuffer dLookups = SmallSortCheck.upload(ctx, arena, lookups);
                 DeviceBuffer dLower = ctx.allocate(LOOKUPS * 8L);
                 DeviceBuffer dUpper = ctx.allocate(LOOKUPS * 8L);
                 DeviceBuffer index = ctx.allocate(SearchIndex.size(n) * 8)) {
                SearchIndex.build(sortModule.kernel("tessera_search_index_level"), dSorted.address(), n, index);
                String what = " of " + LOOKUPS + " lookups in " + n + " sorted keys on the GPU against the host's";
                clear(dLower, dUpper);
                launch(sortModule.kernel("tessera_search_binary"), 1, KernelArgs.of().ptr(dSorted).i64(n).ptr(dLookups)
                        .i64(LOOKUPS).ptr(dLower).ptr(dUpper));
                check.accept(equal(arena, dLower, lower) && equal(arena, dUpper, upper), "binary search" + what);
                for (int p : new int[] {4, 32}) {
                    clear(dLower, dUpper);
                    launch(sortModule.kernel("tessera_search_pary_" + p), p, KernelArgs.of().ptr(dSorted).i64(n)
                            .ptr(dLookups).i64(LOOKUPS).ptr(dLower).ptr(dUpper));
                    check.accept(equal(arena, dLower, lower) && equal(arena, dUpper, upper), "p-ary search (p = " + p
                            + ")" + what);
                }
                for (int g : new int[] {1, 4, 8, 16}) {
                    clear(dLower, dUpper);
                    launch(sortModule.kernel(SearchIndex.kernel(g)), g, KernelArgs.of().ptr(dSorted).i64(n)
                            .ptr(index).i32(SearchIndex.levels(n)).ptr(dLookups).i64(LOOKUPS).ptr(dLower).ptr(dUpper));
                    check.accept(equal(arena, dLower, lower) && equal(arena, dUpper, upper), "p-ary search over the "
                            + "index of lines (" + g + " lanes a lookup, " + SearchIndex.levels(n) + " levels)" + what);
                }
            }
        }
    }

    private static void clear(DeviceBuffer lower, DeviceBuffer upper) {
        lower.fill32(-1, LOOKUPS * 2L); // a lookup left unanswered then differs
        upper.fill32(-1, LOOKUPS * 2L);
    }

    private static void launch(CudaKernel k, int lanes, KernelArgs args) {
        k.launch((int) ((LOOKUPS * (long) lanes + THREADS - 1) / THREADS), THREADS, args);
    }

    private static boolean equal(Arena arena, DeviceBuffer got, long[] expect) {
        MemorySegment host = arena.allocate(expect.length * 8L, 8);
        got.copyToHost(host, 0);
        return host.mismatch(MemorySegment.ofArray(expect)) == -1;
    }

    private static long bound(long[] sorted, long q, boolean upper) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(sorted[mid], q);
            if (c < 0 || (upper && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
