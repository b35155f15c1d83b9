package io.tessera.backend.jvm.window;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.plan.WindowFunction;
import io.tessera.plan.WindowFunction.Bound;
import io.tessera.plan.WindowFunction.BoundKind;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The window order (partitions and peers, NULLs at one end, ties kept in collection order), the frames of ROWS,
 * RANGE and GROUPS bounds with offsets in both directions, the pieces an EXCLUDE clause leaves, NTILE's buckets, and exact sums past the 64-bit range. Expected
 * values are worked out by hand in the comments.
 */
class WindowFramesTest {

    /** Keys in collection order: 3, 1, NULL, 2, 2, 5; partition column: p, q, p, p, q, p. */
    private static RowBuffer rows() {
        RowBuffer b = new RowBuffer(new ValueKind[] {ValueKind.INT, ValueKind.INT}, 8);
        int[] keys = {3, 1, 0, 2, 2, 5};
        int[] part = {0, 1, 0, 0, 1, 0};
        for (int r = 0; r < keys.length; r++) {
            int w = b.next();
            b.ints[0][w] = keys[r];
            b.ints[1][w] = part[r];
        }
        b.setNull(0, 2);
        return b;
    }

    private static Bound b(BoundKind k, long offset) {
        return new Bound(k, offset);
    }

    private static Bound b(BoundKind k) {
        return new Bound(k, null);
    }

    @Test
    void orderGroupsPeersAndPutsNullsLast() {
        WindowOrder o = new WindowOrder(rows(), List.of(), List.of(new SortKey(0, false, false)));
        // keys by position: 1, 2, 2, 3, 5, NULL; the two 2s keep their collection order (rows 3, 4)
        assertArrayEquals(new int[] {1, 3, 4, 0, 5, 2}, o.rows);
        assertArrayEquals(new int[] {0, 1, 1, 3, 4, 5}, o.peerStart);
        assertArrayEquals(new int[] {1, 3, 3, 4, 5, 6}, o.peerEnd);
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0}, o.partStart);
        assertArrayEquals(new int[] {6, 6, 6, 6, 6, 6}, o.partEnd);
    }

    @Test
    void partitionsAreRunsOfPositions() {
        WindowOrder o = new WindowOrder(rows(), List.of(1), List.of(new SortKey(0, true, true)));
        // partition 0 (rows 0, 2, 3, 5) by key descending, NULLs first: NULL, 5, 3, 2; then partition 1: 2, 1
        assertArrayEquals(new int[] {2, 5, 0, 3, 4, 1}, o.rows);
        assertArrayEquals(new int[] {0, 0, 0, 0, 4, 4}, o.partStart);
        assertArrayEquals(new int[] {4, 4, 4, 4, 6, 6}, o.partEnd);
    }

    @Test
    void rowsFramesClampToThePartition() {
        RowBuffer b = rows();
        List<SortKey> order = List.of(new SortKey(0, false, false));
        WindowOrder o = new WindowOrder(b, List.of(), order);
        WindowFrames f = new WindowFrames(b, o,
                new WindowFunction.Frame(true, b(BoundKind.PRECEDING, 1), b(BoundKind.FOLLOWING, 1)), order);
        assertArrayEquals(new int[] {0, 0, 1, 2, 3, 4}, f.start);
        assertArrayEquals(new int[] {2, 3, 4, 5, 6, 6}, f.end);
        // a frame that ends before it starts is empty
        WindowFrames empty = new WindowFrames(b, o,
                new WindowFunction.Frame(true, b(BoundKind.FOLLOWING, 2), b(BoundKind.FOLLOWING, 1)), order);
        for (int i = 0; i < 6; i++) {
            assertTrue(empty.start[i] >= empty.end[i], "position " + i);
        }
    }

    @Test
    void rangeOffsetsAscending() {
        RowBuffer b = rows();
        List<SortKey> order = List.of(new SortKey(0, false, false));
        WindowOrder o = new WindowOrder(b, List.of(), order);
        // keys 1, 2, 2, 3, 5, NULL; RANGE 1 PRECEDING AND CURRENT ROW: [k-1, k] and its peers; NULL: its peers
        WindowFrames f = new WindowFrames(b, o,
                new WindowFunction.Frame(false, b(BoundKind.PRECEDING, 1L), b(BoundKind.CURRENT_ROW)), order);
        assertArrayEquals(new int[] {0, 0, 0, 1, 4, 5}, f.start);
        assertArrayEquals(new int[] {1, 3, 3, 4, 5, 6}, f.end);
    }

    @Test
    void groupsOffsetsCountPeerGroupsWithNullsOneGroup() {
        RowBuffer b = rows();
        List<SortKey> order = List.of(new SortKey(0, false, false));
        WindowOrder o = new WindowOrder(b, List.of(), order);
        // groups by position: {1}, {2, 2}, {3}, {5}, {NULL}; 1 PRECEDING AND 1 FOLLOWING: the group before, its own
        // and the one after
        WindowFrames f = new WindowFrames(b, o, new WindowFunction.Frame(WindowFunction.Unit.GROUPS,
                b(BoundKind.PRECEDING, 1L), b(BoundKind.FOLLOWING, 1L), WindowFunction.Exclusion.NO_OTHERS), order);
        assertArrayEquals(new int[] {0, 0, 0, 1, 3, 4}, f.start);
        assertArrayEquals(new int[] {3, 4, 4, 5, 6, 6}, f.end);
        // 2 FOLLOWING AND 3 FOLLOWING: empty from the fourth group on
        WindowFrames later = new WindowFrames(b, o, new WindowFunction.Frame(WindowFunction.Unit.GROUPS,
                b(BoundKind.FOLLOWING, 2L), b(BoundKind.FOLLOWING, 3L), WindowFunction.Exclusion.NO_OTHERS), order);
        assertArrayEquals(new int[] {3, 4, 4, 5, 6, 6}, later.start);
        assertArrayEquals(new int[] {5, 6, 6, 6, 6, 6}, later.end);
    }

    @Test
    void exclusionsCutTheFrameIntoPieces() {
        RowBuffer b = rows();
        List<SortKey> order = List.of(new SortKey(0, false, false));
        WindowOrder o = new WindowOrder(b, List.of(), order);
        WindowFunction.Frame whole = new WindowFunction.Frame(true, b(BoundKind.UNBOUNDED_PRECEDING),
                b(BoundKind.UNBOUNDED_FOLLOWING));
        int[] into = new int[6];
        // position 2 (the second 2, peers at 1 and 2) of the whole partition [0, 6)
        WindowFrames current = new WindowFrames(b, o, exclude(whole, WindowFunction.Exclusion.CURRENT_ROW), order);
        assertEquals(2, current.pieces(2, into));
        assertArrayEquals(new int[] {0, 2, 3, 6}, java.util.Arrays.copyOf(into, 4));
        WindowFrames group = new WindowFrames(b, o, exclude(whole, WindowFunction.Exclusion.GROUP), order);
        assertEquals(2, group.pieces(2, into));
        assertArrayEquals(new int[] {0, 1, 3, 6}, java.util.Arrays.copyOf(into, 4));
        WindowFrames ties = new WindowFrames(b, o, exclude(whole, WindowFunction.Exclusion.TIES), order);
        assertEquals(3, ties.pieces(2, into));
        assertArrayEquals(new int[] {0, 1, 2, 3, 3, 6}, into);
        // a frame of the row alone, less the row: no pieces
        WindowFrames alone = new WindowFrames(b, o, new WindowFunction.Frame(WindowFunction.Unit.ROWS,
                b(BoundKind.CURRENT_ROW), b(BoundKind.CURRENT_ROW), WindowFunction.Exclusion.CURRENT_ROW), order);
        assertEquals(0, alone.pieces(4, into));
    }

    private static WindowFunction.Frame exclude(WindowFunction.Frame f, WindowFunction.Exclusion x) {
        return new WindowFunction.Frame(f.unit(), f.lower(), f.upper(), x);
    }

    @Test
    void rangeOffsetsDescending() {
        RowBuffer b = rows();
        List<SortKey> order = List.of(new SortKey(0, true, false));
        WindowOrder o = new WindowOrder(b, List.of(), order);
        // keys 5, 3, 2, 2, 1, NULL; CURRENT ROW AND 2 FOLLOWING reaches down to k-2
        WindowFrames f = new WindowFrames(b, o,
                new WindowFunction.Frame(false, b(BoundKind.CURRENT_ROW), b(BoundKind.FOLLOWING, 2L)), order);
        assertArrayEquals(new int[] {0, 1, 2, 2, 4, 5}, f.start);
        assertArrayEquals(new int[] {2, 5, 5, 5, 5, 6}, f.end);
        // UNBOUNDED PRECEDING AND 1 PRECEDING: the keys at least k+1; a NULL key: up to the end of its NULL peers
        WindowFrames g = new WindowFrames(b, o,
                new WindowFunction.Frame(false, b(BoundKind.UNBOUNDED_PRECEDING), b(BoundKind.PRECEDING, 1L)), order);
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0}, g.start);
        assertArrayEquals(new int[] {0, 1, 2, 2, 4, 6}, g.end);
    }

    @Test
    void ntileBucketsDifferByAtMostOneLargerFirst() {
        for (int n = 1; n <= 30; n++) {
            for (int buckets = 1; buckets <= 35; buckets++) {
                int[] size = new int[buckets + 1];
                long last = 1;
                for (int at = 0; at < n; at++) {
                    long t = WindowRanks.ntile(at, n, buckets);
                    assertTrue(t >= last && t <= buckets, n + " rows, " + buckets + " buckets, row " + at);
                    last = t;
                    size[(int) t]++;
                }
                for (int t = 2; t <= Math.min(n, buckets); t++) {
                    assertTrue(size[t - 1] >= size[t] && size[t - 1] - size[t] <= 1);
                }
            }
        }
        assertEquals(3, WindowRanks.ntile(9, 10, 3)); // 10 rows in 3: 4, 3, 3
        assertEquals(1, WindowRanks.ntile(3, 10, 3));
        assertEquals(2, WindowRanks.ntile(4, 10, 3));
    }

    @Test
    void sumsPastSixtyFourBitsAreExact() {
        RowBuffer b = new RowBuffer(new ValueKind[] {ValueKind.LONG}, 4);
        long[] v = {Long.MAX_VALUE, Long.MAX_VALUE, -Long.MAX_VALUE, 5};
        for (long x : v) {
            b.longs[0][b.next()] = x;
        }
        WindowFunction.Frame running = new WindowFunction.Frame(true, b(BoundKind.UNBOUNDED_PRECEDING), b(BoundKind.CURRENT_ROW));
        WindowFunction.Frame next = new WindowFunction.Frame(true, b(BoundKind.CURRENT_ROW), b(BoundKind.FOLLOWING, 1L));
        WindowFunction sum = new WindowFunction(WindowFunction.Kind.SUM, 0, 1, -1, null, List.of(), List.of(), next,
                DataType.BIGINT, true, "s");
        // frames (current, next): MAX+MAX overflows, MAX-MAX = 0, -MAX+5, 5
        assertThrows(ArithmeticException.class, () -> WindowEvaluator.evaluate(new RelationPart(b, new String[1]),
                w(sum), k -> null, () -> { }));
        WindowFunction tail = new WindowFunction(WindowFunction.Kind.SUM, 0, 1, -1, null, List.of(), List.of(),
                new WindowFunction.Frame(true, b(BoundKind.FOLLOWING, 1L), b(BoundKind.FOLLOWING, 2L)), DataType.BIGINT, true, "t");
        RowBuffer out = WindowEvaluator.evaluate(new RelationPart(b, new String[1]), w(tail), k -> null, () -> { }).rows();
        // rows 1..2 of row 0: MAX - MAX = 0; rows 2..3: -MAX + 5; row 3: 5; none: NULL
        assertEquals(0L, out.longs[1][0]);
        assertEquals(-Long.MAX_VALUE + 5, out.longs[1][1]);
        assertEquals(5L, out.longs[1][2]);
        assertTrue(out.isNull(1, 3));
        WindowFunction total = new WindowFunction(WindowFunction.Kind.SUM, 0, 1, -1, null, List.of(), List.of(), running,
                DataType.BIGINT, true, "r");
        assertThrows(ArithmeticException.class, () -> WindowEvaluator.evaluate(new RelationPart(b, new String[1]),
                w(total), k -> null, () -> { }));
    }

    private static Sink.Window w(WindowFunction f) {
        return new Sink.Window(List.of(new io.tessera.plan.Expr.Literal(0L, DataType.BIGINT)), List.of("v"), List.of(f), 0);
    }
}
