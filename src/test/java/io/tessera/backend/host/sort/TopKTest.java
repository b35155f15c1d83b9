package io.tessera.backend.host.sort;

import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.RowGather;
import io.tessera.plan.Expr;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Top-k against the first k rows of the reference stable sort ({@link SortedRowsTest#expected}): on one heap, and
 * cut per worker first (the workers' buffers then concatenated and cut again), with many ties (a LIMIT must cut them
 * as the full sort does), NULLs, DOUBLE -0.0 and NaN, k of 0, 1, more than the rows; and a SORT sink's end with its
 * OFFSET and LIMIT under every number of runs.
 */
class TopKTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final HostWorkers THREE = new HostWorkers(POOL, 3, () -> { });

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    @Test
    void oneHeapKeepsTheFirstRowsOfTheStableSort() {
        Random rnd = new Random(7);
        for (int round = 0; round < 80; round++) {
            int n = rnd.nextInt(3) == 0 ? rnd.nextInt(10) : 50 + rnd.nextInt(3000);
            RowBuffer b = SortedRowsTest.rows(rnd, n, rnd.nextBoolean(), rnd.nextBoolean());
            SortKey[] keys = SortedRowsTest.randomKeys(rnd);
            int[] want = SortedRowsTest.expected(b, keys, null, n);
            for (int k : new int[] {0, 1, 5, 1 + rnd.nextInt(200), n, n + 3}) {
                assertArrayEquals(Arrays.copyOf(want, Math.min(k, n)), TopK.order(b, keys, k),
                        "round " + round + ", k " + k + ", keys " + Arrays.toString(keys));
            }
        }
    }

    @Test
    void perWorkerCutsThenMergesToTheSameRows() {
        Random rnd = new Random(11);
        for (int round = 0; round < 40; round++) {
            int n = 100 + rnd.nextInt(4000);
            RowBuffer all = SortedRowsTest.rows(rnd, n, true, false);
            SortKey[] keys = SortedRowsTest.randomKeys(rnd);
            int[] want = SortedRowsTest.expected(all, keys, null, n);
            // the rows as 1 to 5 workers' buffers, in order
            int parts = 1 + rnd.nextInt(5);
            List<RowBuffer> buffers = new ArrayList<>();
            int[] identity = new int[n];
            Arrays.setAll(identity, i -> i);
            for (int t = 0; t < parts; t++) {
                buffers.add(RowGather.gather(all, identity, n * t / parts, n * (t + 1) / parts, HostWorkers.ONE));
            }
            int k = rnd.nextBoolean() ? 1 + rnd.nextInt(n / (4 * parts) + 1) : 1 + rnd.nextInt(n / 3);
            List<RowBuffer> cut = TopK.perWorker(buffers, keys, k, THREE);
            assertEquals(parts, cut.size());
            for (int t = 0; t < parts; t++) {
                int size = buffers.get(t).size;
                assertEquals(k >= size / 4 ? size : k, cut.get(t).size, "worker " + t + " keeps k rows, or all");
            }
            RowBuffer merged = io.tessera.backend.host.RowCopies.concat(all.kinds.clone(), cut, null, 1);
            int[] top = TopK.order(merged, keys, k);
            // the merged buffer's rows are copies: compare them by their first column's values and NULLs in turn
            RowBuffer got = RowGather.gather(merged, top, 0, top.length, HostWorkers.ONE);
            RowBuffer expected = RowGather.gather(all, want, 0, k, HostWorkers.ONE);
            assertSameRows(expected, got, "round " + round + ", " + parts + " workers, k " + k);
        }
    }

    @Test
    void aSortSinksEndCutsItsOffsetAndLimit() {
        Random rnd = new Random(3);
        RowBuffer b = SortedRowsTest.rows(rnd, 5000, true, true);
        SortKey[] keys = {new SortKey(2, true, false), new SortKey(0, false, true)};
        int[] want = SortedRowsTest.expected(b, keys, null, b.size);
        long[][] offsetFetch = {{0, -1}, {0, 10}, {7, 20}, {4990, 50}, {100, 2000}, {6000, 5}, {0, 0}};
        for (long[] of : offsetFetch) {
            Sink.Sort s = new Sink.Sort(List.of(new Expr.Literal(0, DataType.INTEGER)), List.of("c"), List.of(keys),
                    of[0], of[1], 0);
            int from = (int) Math.min(of[0], want.length);
            int to = of[1] < 0 ? want.length : (int) Math.min(want.length, of[0] + of[1]);
            RowBuffer expected = RowGather.gather(b, want, from, to, HostWorkers.ONE);
            for (int runs : new int[] {1, 3}) {
                assertSameRows(expected, Sorter.sorted(b, s, runs, runs == 1 ? HostWorkers.ONE : THREE),
                        "offset " + of[0] + ", fetch " + of[1] + ", " + runs + " runs");
            }
        }
    }

    /** Equal sizes, and every column equal row by row (values and NULLs). */
    static void assertSameRows(RowBuffer want, RowBuffer got, String what) {
        assertEquals(want.size, got.size, what);
        for (int c = 0; c < want.kinds.length; c++) {
            for (int r = 0; r < want.size; r++) {
                String at = what + ", column " + c + ", row " + r;
                assertEquals(want.isNull(c, r), got.isNull(c, r), at);
                if (want.isNull(c, r)) {
                    continue;
                }
                switch (want.kinds[c]) {
                    case INT, CODE -> assertEquals(want.ints[c][r], got.ints[c][r], at);
                    case LONG -> assertEquals(want.longs[c][r], got.longs[c][r], at);
                    case DOUBLE -> assertEquals(Double.doubleToRawLongBits(want.doubles[c][r]),
                            Double.doubleToRawLongBits(got.doubles[c][r]), at);
                    case BOOL -> assertEquals(want.bytes[c][r], got.bytes[c][r], at);
                    case STRING -> assertEquals(want.strings[c][r], got.strings[c][r], at);
                }
            }
        }
    }
}
