package io.tessera.backend.jvm.lib;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The vectorized filter selects exactly the rows that Java's comparisons select, on any morsel bounds. */
class VectorFilterTest {

    private static final int N = 5000;
    private static final String[] OPS = {"EQ", "NE", "LT", "LE", "GT", "GE"};

    private static boolean holds(int op, int c) {
        return VectorFilter.holds(op, c);
    }

    /** DuckDB's order of doubles: NaN above every number (the constant is never NaN), -0.0 equal to 0.0. */
    private static boolean holds(int op, double x, double c) {
        return switch (op) {
            case VectorFilter.EQ -> x == c;
            case VectorFilter.NE -> x != c;
            case VectorFilter.LT -> x < c;
            case VectorFilter.LE -> x <= c;
            case VectorFilter.GT -> x > c || Double.isNaN(x);
            default -> x >= c || Double.isNaN(x);
        };
    }

    private static void assertSelects(VectorFilter f, boolean[] expected, long from, long to, String what) {
        long[] bits = f.select(from, to);
        assertEquals((to - from + 63) / 64, bits.length, what);
        for (long r = from; r < to; r++) {
            boolean got = (bits[(int) ((r - from) >>> 6)] & (1L << ((r - from) & 63))) != 0;
            assertEquals(expected[(int) r], got, what + ": row " + r + " of [" + from + ", " + to + ")");
        }
    }

    @Test
    void intsLongsAndDoublesOffHeapAndOnHeap() {
        Random rnd = new Random(3);
        int[] ints = new int[N];
        long[] longs = new long[N];
        double[] doubles = new double[N];
        double[] specials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int i = 0; i < N; i++) {
            ints[i] = rnd.nextInt(20) - 10;
            longs[i] = rnd.nextInt(5) == 0 ? (rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : rnd.nextInt(100) - 50;
            doubles[i] = rnd.nextInt(10) == 0 ? specials[rnd.nextInt(specials.length)] : rnd.nextInt(7) - 3.5;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeInts = arena.allocate((long) N * 4);
            MemorySegment nativeLongs = arena.allocate((long) N * 8);
            MemorySegment nativeDoubles = arena.allocate((long) N * 8);
            for (int i = 0; i < N; i++) {
                nativeInts.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, ints[i]);
                nativeLongs.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, longs[i]);
                nativeDoubles.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, doubles[i]);
            }
            long[][] bounds = {{0, N}, {0, 64}, {0, 63}, {1, 65}, {100, 4097}, {4990, 5000}, {7, 7 + 64 * 20}};
            for (int op = 0; op < OPS.length; op++) {
                for (boolean onHeap : new boolean[] {false, true}) {
                    MemorySegment si = onHeap ? MemorySegment.ofArray(ints) : nativeInts;
                    MemorySegment sl = onHeap ? MemorySegment.ofArray(longs) : nativeLongs;
                    MemorySegment sd = onHeap ? MemorySegment.ofArray(doubles) : nativeDoubles;
                    // no NaN constant: a comparison with one is not vectorized (PipelineAnalysis)
                    for (double dc : new double[] {0.5, 0.0, -0.0, Double.POSITIVE_INFINITY}) {
                        int ic = (int) Math.round(dc == dc && !Double.isInfinite(dc) ? dc : 3);
                        long lc = dc == dc && !Double.isInfinite(dc) ? -7 : Long.MAX_VALUE;
                        boolean[] eInt = new boolean[N];
                        boolean[] eLong = new boolean[N];
                        boolean[] eDouble = new boolean[N];
                        boolean[] eAll = new boolean[N];
                        for (int i = 0; i < N; i++) {
                            eInt[i] = holds(op, Integer.compare(ints[i], ic));
                            eLong[i] = holds(op, Long.compare(longs[i], lc));
                            eDouble[i] = holds(op, doubles[i], dc);
                            eAll[i] = eInt[i] && eLong[i] && eDouble[i];
                        }
                        String what = OPS[op] + (onHeap ? " on heap" : " off heap") + ", constant " + dc;
                        for (long[] b : bounds) {
                            assertSelects(new VectorFilter().ints(si, op, ic), eInt, b[0], b[1], "ints " + what);
                            assertSelects(new VectorFilter().longs(sl, op, lc), eLong, b[0], b[1], "longs " + what);
                            assertSelects(new VectorFilter().doubles(sd, op, dc), eDouble, b[0], b[1], "doubles " + what);
                            assertSelects(new VectorFilter().ints(si, op, ic).longs(sl, op, lc).doubles(sd, op, dc), eAll,
                                    b[0], b[1], "all three " + what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aHeapSegmentThatStartsInsideItsArray() {
        int[] ints = new int[300];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = i % 7;
        }
        MemorySegment slice = MemorySegment.ofArray(ints).asSlice(40L * 4);
        boolean[] expected = new boolean[260];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = ints[40 + i] < 3;
        }
        assertSelects(new VectorFilter().ints(slice, VectorFilter.LT, 3), expected, 0, 260, "slice");
        assertSelects(new VectorFilter().ints(slice, VectorFilter.LT, 3), expected, 3, 200, "slice");
    }
}
