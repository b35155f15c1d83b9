package io.tessera.backend.jvm.window;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.Expr;
import io.tessera.plan.Sink;
import io.tessera.plan.SortKey;
import io.tessera.plan.WindowFunction;
import io.tessera.plan.WindowFunction.Bound;
import io.tessera.plan.WindowFunction.BoundKind;
import io.tessera.plan.WindowFunction.Kind;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Window functions evaluated by workers over groups of whole partitions give what one thread gives: rows with
 * partition values that SQL holds equal (-0.0 and 0.0, NaNs, NULLs) land in one group, every function sees its
 * whole partition, NULL results of different groups that share a word of the NULL bitmap all survive, and sinks
 * whose functions share no PARTITION BY column are sorted in runs instead.
 */
class WindowPartitionsTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final HostWorkers THREE = new HostWorkers(POOL, 3, () -> { });

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    private static final double[] DOUBLES = {0.0, -0.0, Double.NaN, 1.5, Double.NEGATIVE_INFINITY};
    private static final String[] STRINGS = {"", "a", "\u00e9", "b"};

    /** Columns: a INT, d DOUBLE, s STRING (partition candidates), o INT (order, ties), v BIGINT (values); NULLs in all. */
    private static RowBuffer rows(Random rnd, int n) {
        RowBuffer b = new RowBuffer(new ValueKind[] {ValueKind.INT, ValueKind.DOUBLE, ValueKind.STRING, ValueKind.INT, ValueKind.LONG}, 16);
        for (int r = 0; r < n; r++) {
            int w = b.next();
            b.ints[0][w] = rnd.nextInt(9);
            b.doubles[1][w] = DOUBLES[rnd.nextInt(DOUBLES.length)];
            b.strings[2][w] = STRINGS[rnd.nextInt(STRINGS.length)];
            b.ints[3][w] = rnd.nextInt(12);
            b.longs[4][w] = rnd.nextInt(1000) - 500;
            for (int c = 0; c < 5; c++) {
                if (rnd.nextInt(9) == 0) {
                    b.setNull(c, w);
                }
            }
        }
        return b;
    }

    private static final WindowFunction.Frame RUNNING = new WindowFunction.Frame(false,
            new Bound(BoundKind.UNBOUNDED_PRECEDING, null), new Bound(BoundKind.CURRENT_ROW, null));
    private static final WindowFunction.Frame AROUND = new WindowFunction.Frame(true,
            new Bound(BoundKind.PRECEDING, 1L), new Bound(BoundKind.FOLLOWING, 1L));
    private static final WindowFunction.Frame NEAR = new WindowFunction.Frame(false,
            new Bound(BoundKind.PRECEDING, 2L), new Bound(BoundKind.FOLLOWING, 1L));

    private static WindowFunction fn(Kind kind, int arg, long offset, int defaultColumn, List<Integer> partition,
                                     List<SortKey> order, WindowFunction.Frame frame, DataType type) {
        return new WindowFunction(kind, arg, offset, defaultColumn, null, partition, order, frame, type, true,
                kind.name().toLowerCase());
    }

    private static Sink.Window sink(List<WindowFunction> fns) {
        List<Expr> outputs = List.of(new Expr.Literal(0, DataType.INTEGER), new Expr.Literal(0.0, DataType.DOUBLE),
                new Expr.Literal("", DataType.VARCHAR), new Expr.Literal(0, DataType.INTEGER),
                new Expr.Literal(0L, DataType.BIGINT));
        return new Sink.Window(outputs, List.of("a", "d", "s", "o", "v"), fns, 0);
    }

    /** Functions whose PARTITION BY lists all hold column a (and some also d or s, in any order). */
    private static List<WindowFunction> sharingA() {
        SortKey o = new SortKey(3, false, false);
        SortKey oDesc = new SortKey(3, true, true);
        SortKey v = new SortKey(4, false, true);
        return List.of(
                fn(Kind.ROW_NUMBER, -1, 0, -1, List.of(0, 1), List.of(o), RUNNING, DataType.BIGINT),
                fn(Kind.RANK, -1, 0, -1, List.of(0), List.of(oDesc), RUNNING, DataType.BIGINT),
                fn(Kind.DENSE_RANK, -1, 0, -1, List.of(2, 1, 0), List.of(o), RUNNING, DataType.BIGINT),
                fn(Kind.LAG, 4, 1, -1, List.of(0, 2), List.of(o, v), RUNNING, DataType.BIGINT),
                fn(Kind.LEAD, 4, 2, 4, List.of(0), List.of(o, v), RUNNING, DataType.BIGINT),
                fn(Kind.SUM, 4, 0, -1, List.of(0, 1), List.of(o, v), AROUND, DataType.BIGINT),
                fn(Kind.MIN, 4, 0, -1, List.of(0), List.of(o), RUNNING, DataType.BIGINT),
                fn(Kind.MAX, 4, 0, -1, List.of(0), List.of(o), NEAR, DataType.BIGINT),
                fn(Kind.FIRST_VALUE, 4, 0, -1, List.of(0), List.of(oDesc), RUNNING, DataType.BIGINT),
                fn(Kind.COUNT_STAR, -1, 0, -1, List.of(0), List.of(), RUNNING, DataType.BIGINT),
                fn(Kind.NTILE, -1, 3, -1, List.of(0, 2), List.of(o, v), RUNNING, DataType.BIGINT),
                fn(Kind.AVG, 4, 0, -1, List.of(0, 1), List.of(), RUNNING, DataType.DOUBLE));
    }

    @Test
    void workersOverGroupsOfPartitionsGiveWhatOneThreadGives() {
        Random rnd = new Random(13);
        List<List<WindowFunction>> sets = new ArrayList<>();
        sets.add(sharingA());
        // d alone: -0.0 and 0.0, and the NaNs, must each be one partition
        sets.add(List.of(fn(Kind.ROW_NUMBER, -1, 0, -1, List.of(1), List.of(new SortKey(3, false, true)), RUNNING,
                DataType.BIGINT), fn(Kind.COUNT, 4, 0, -1, List.of(1), List.of(), RUNNING, DataType.BIGINT)));
        // strings, then no shared column at all (sorted in runs, evaluated on one thread)
        sets.add(List.of(fn(Kind.CUME_DIST, -1, 0, -1, List.of(2), List.of(new SortKey(4, true, false)), RUNNING,
                DataType.DOUBLE)));
        List<WindowFunction> noShared = new ArrayList<>(sharingA());
        noShared.add(fn(Kind.ROW_NUMBER, -1, 0, -1, List.of(), List.of(new SortKey(4, false, false),
                new SortKey(3, false, false)), RUNNING, DataType.BIGINT));
        sets.add(noShared);
        for (int round = 0; round < 12; round++) {
            int n = round < 2 ? round : 100 + rnd.nextInt(6000);
            RowBuffer b = rows(rnd, n);
            for (List<WindowFunction> fns : sets) {
                Sink.Window w = sink(fns);
                RowBuffer one = WindowEvaluator.evaluate(new RelationPart(b, new String[5]), w, k -> null,
                        HostWorkers.ONE).rows();
                RowBuffer three = WindowEvaluator.evaluate(new RelationPart(b, new String[5]), w, k -> null, THREE).rows();
                assertSame(one, three, "round " + round + ", " + n + " rows, " + fns.size() + " functions");
            }
        }
    }

    @Test
    void rowsEqualInSqlShareAGroup() {
        Random rnd = new Random(17);
        RowBuffer b = rows(rnd, 3000);
        List<Integer> cols = List.of(0, 1, 2);
        Map<String, Integer> groupOfKey = new HashMap<>();
        int[][] groups = WindowPartitions.groups(b, cols, 7, THREE);
        int seen = 0;
        for (int g = 0; g < groups.length; g++) {
            assertTrue(groups[g].length > 0, "no empty group");
            for (int i = 0; i < groups[g].length; i++) {
                int r = groups[g][i];
                assertTrue(i == 0 || groups[g][i - 1] < r, "rows ascending in a group");
                String key = (b.isNull(0, r) ? "N" : b.ints[0][r]) + "|"
                        + (b.isNull(1, r) ? "N" : Double.toString(b.doubles[1][r] + 0.0)) + "|"
                        + (b.isNull(2, r) ? "N" : b.strings[2][r]);
                Integer before = groupOfKey.putIfAbsent(key, g);
                assertEquals(before == null ? g : before, g, "key " + key + " in one group");
                seen++;
            }
        }
        assertEquals(b.size, seen, "every row in one group");
        assertTrue(groups.length > 1, "the keys spread over groups");
        assertEquals(List.of(0), WindowPartitions.shared(sharingA()));
        assertEquals(List.of(), WindowPartitions.shared(List.of(sharingA().get(0),
                fn(Kind.ROW_NUMBER, -1, 0, -1, List.of(), List.of(), RUNNING, DataType.BIGINT))));
    }

    private static void assertSame(RowBuffer want, RowBuffer got, String what) {
        assertEquals(want.size, got.size, what);
        assertEquals(want.kinds.length, got.kinds.length, what);
        for (int c = 0; c < want.kinds.length; c++) {
            assertEquals(want.kinds[c], got.kinds[c], what);
            for (int r = 0; r < want.size; r++) {
                String at = what + ", column " + c + ", row " + r;
                assertEquals(want.isNull(c, r), got.isNull(c, r), at);
                if (want.isNull(c, r)) {
                    continue;
                }
                switch (want.kinds[c]) {
                    case INT, CODE -> assertEquals(want.ints[c][r], got.ints[c][r], at);
                    case LONG -> assertEquals(want.longs[c][r], got.longs[c][r], at);
                    case DOUBLE -> {
                        double x = want.doubles[c][r];
                        double y = got.doubles[c][r];
                        // the same input column, or the same sums in the same order: equal, NaN as NaN
                        assertTrue(Double.compare(x, y) == 0 || Math.abs(x - y) <= 1e-9 * Math.abs(x), at + ": " + x + " " + y);
                    }
                    case BOOL -> assertEquals(want.bytes[c][r], got.bytes[c][r], at);
                    case STRING -> assertEquals(want.strings[c][r], got.strings[c][r], at);
                }
            }
        }
    }
}
