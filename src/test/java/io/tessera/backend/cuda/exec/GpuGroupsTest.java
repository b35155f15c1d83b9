package io.tessera.backend.cuda.exec;

import io.tessera.backend.GroupRows;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.ValueKind;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.plan.AggFunction;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The result rows made from a GPU group table's non-empty slots (what the device's compaction reads back) hold, in
 * slot order, every used slot's keys and each aggregate's final value as the query's semantics give them, for dense
 * and shared device tables with one to three keys, empty to full tables, through the host's compaction of whole
 * arrays and through the device's gather into one buffer alike; and the single group of an aggregate without
 * grouping is kept over no rows, its values NULL.
 */
class GpuGroupsTest {

    /** COUNT(*), SUM(long) FILTER, MIN(double), AVG(DECIMAL(12,2)), COUNT(x) FILTER: values and counts of every kind. */
    private static final GroupRows.Final[] AGGS = {
            new GroupRows.Final(AggFunction.COUNT_STAR, false, 0),
            new GroupRows.Final(AggFunction.SUM, false, 0),
            new GroupRows.Final(AggFunction.MIN, true, 0),
            new GroupRows.Final(AggFunction.AVG, false, 2),
            new GroupRows.Final(AggFunction.COUNT, false, 0),
    };
    private static final ValueKind[] AGG_KINDS = {ValueKind.LONG, ValueKind.LONG, ValueKind.DOUBLE, ValueKind.DOUBLE,
            ValueKind.LONG};
    private static final boolean[] HAS_VALUE = {false, true, true, true, false};
    private static final boolean[] OWN_COUNT = {false, true, false, false, true};

    private static List<SinkLayout.Agg> deviceAggs() {
        return List.of(new SinkLayout.Agg(AggFunction.COUNT_STAR, null, false),
                new SinkLayout.Agg(AggFunction.SUM, CType.LONG, true),
                new SinkLayout.Agg(AggFunction.MIN, CType.DOUBLE, false),
                new SinkLayout.Agg(AggFunction.AVG, CType.LONG, false),
                new SinkLayout.Agg(AggFunction.COUNT, null, true));
    }

    /** Keys as LONG (or INT) columns, then the aggregates. */
    private static GpuGroups.RowLayout layout(int nk, ValueKind keyKind) {
        ValueKind[] kinds = new ValueKind[nk + AGGS.length];
        Arrays.fill(kinds, 0, nk, keyKind);
        System.arraycopy(AGG_KINDS, 0, kinds, nk, AGGS.length);
        return new GpuGroups.RowLayout(kinds, new String[kinds.length], AGGS, nk);
    }

    /** Whole device arrays, as a kernel leaves them. */
    private record Device(SinkLayout.Aggregate layout, long[] rows, int[] state, long[][] vals, long[][] cnts,
                          long[] keys) {
    }

    @Test
    void compactedSlotsGiveTheRowsOfTheFullWalk() {
        SplittableRandom r = new SplittableRandom(20240607);
        double[] densities = {0, 0.0005, 0.01, 0.3, 1};
        int cases = 0;
        for (int nk = 1; nk <= 3; nk++) {
            for (double density : densities) {
                for (boolean shared : new boolean[] {false, true}) {
                    for (ValueKind keyKind : new ValueKind[] {ValueKind.LONG, ValueKind.INT}) {
                        long[] mins = new long[nk];
                        long[] sizes = new long[nk];
                        for (int k = 0; k < nk; k++) {
                            mins[k] = r.nextLong(-1000, 1000);
                            sizes[k] = nk == 1 ? r.nextLong(1, 70_000) : nk == 2 ? r.nextLong(1, 300) : r.nextLong(1, 40);
                        }
                        Device d = shared ? shared(r, nk, mins, sizes, density) : dense(r, nk, mins, sizes, density);
                        GpuGroups.RowLayout t = layout(nk, keyKind);
                        List<Object[]> expected = fullWalk(nk, d);
                        GpuGroups.Slots g = GpuGroups.compact(d.rows(), d.state(), d.vals(), d.cnts(), d.keys(), nk);
                        assertSlotsInOrder(d, g);
                        RowBuffer got = GpuGroups.rows(t, d.layout(), g).rows();
                        String what = (shared ? "shared" : "dense") + " device table, " + nk + " " + keyKind
                                + " keys, density " + density;
                        assertSameRows(expected, got, what);
                        cases++;
                    }
                }
            }
        }
        assertEquals(60, cases);
    }

    @Test
    void arraysGatheredIntoOneBufferUnpackToTheSlotsOfTheHostCompaction() {
        SplittableRandom r = new SplittableRandom(99);
        for (int nk = 1; nk <= 3; nk++) {
            long[] mins = {5, -3, 0};
            long[] sizes = {40, 7, 3};
            for (double density : new double[] {0, 0.02, 1}) {
                for (boolean shared : new boolean[] {false, true}) {
                    long[] m = Arrays.copyOf(mins, nk);
                    long[] z = Arrays.copyOf(sizes, nk);
                    Device d = shared ? shared(r, nk, m, z, density) : dense(r, nk, m, z, density);
                    GpuGroups.Slots expected = GpuGroups.compact(d.rows(), d.state(), d.vals(), d.cnts(), d.keys(), nk);
                    int n = expected.count();
                    // what the device does: indices in slot order, then a gather of every array into one buffer
                    long[] index = expected.slot().clone();
                    boolean[] hasValue = new boolean[AGGS.length];
                    boolean[] hasCount = new boolean[AGGS.length];
                    for (int a = 0; a < AGGS.length; a++) {
                        hasValue[a] = d.vals()[a] != null;
                        hasCount[a] = d.cnts()[a] != null;
                    }
                    GpuGroups.Packing p = GpuGroups.Packing.of(n, hasValue, hasCount, shared ? nk : 0);
                    long[] packed = new long[(int) p.words()];
                    gather(d.rows(), 1, index, packed, 0);
                    for (int a = 0; a < AGGS.length; a++) {
                        if (hasValue[a]) {
                            gather(d.vals()[a], 1, index, packed, p.valueAt()[a]);
                        }
                        if (hasCount[a]) {
                            gather(d.cnts()[a], 1, index, packed, p.countAt()[a]);
                        }
                    }
                    if (shared) {
                        gather(d.keys(), nk, index, packed, p.keysAt());
                    }
                    GpuGroups.Slots got = p.unpack(index, packed);
                    String what = (shared ? "shared" : "dense") + ", " + nk + " keys, density " + density;
                    assertEquals(n, got.count(), what);
                    assertArrayEquals(expected.slot(), got.slot(), what);
                    assertArrayEquals(expected.rows(), got.rows(), what);
                    assertArrayEquals(expected.keys(), got.keys(), what);
                    for (int a = 0; a < AGGS.length; a++) {
                        assertArrayEquals(expected.vals()[a], got.vals()[a], what + ", values " + a);
                        assertArrayEquals(expected.cnts()[a], got.cnts()[a], what + ", counts " + a);
                    }
                    int words = n;
                    for (int a = 0; a < AGGS.length; a++) {
                        words += (hasValue[a] ? n : 0) + (hasCount[a] ? n : 0);
                    }
                    assertEquals(words + (shared ? n * nk : 0), p.words(), what + ": no gap, no overlap");
                    assertSameRows(fullWalk(nk, d), GpuGroups.rows(layout(nk, ValueKind.LONG), d.layout(), got).rows(), what);
                }
            }
        }
    }

    /** tessera_gather64: dst[at + i * width + w] = src[index[i] * width + w]. */
    private static void gather(long[] src, int width, long[] index, long[] dst, long at) {
        for (int i = 0; i < index.length; i++) {
            for (int w = 0; w < width; w++) {
                dst[(int) at + i * width + w] = src[(int) index[i] * width + w];
            }
        }
    }

    @Test
    void theSingleGroupIsKeptOverNoRows() {
        SinkLayout.Aggregate single = new SinkLayout.Aggregate("single", deviceAggs(), new long[0], new long[0], 1, 0);
        long[][] vals = {null, {0}, {Double.doubleToRawLongBits(Double.POSITIVE_INFINITY)}, {0}, null};
        long[][] cnts = {null, {0}, null, null, {0}};
        RowBuffer none = GpuGroups.rows(layout(0, ValueKind.LONG), single,
                new GpuGroups.Slots(1, new long[1], new long[] {0}, vals, cnts, null)).rows();
        assertEquals(1, none.size);
        assertEquals(0, none.longs[0][0]);
        assertTrue(none.isNull(1, 0), "SUM over no rows");
        assertTrue(none.isNull(2, 0), "MIN over no rows");
        assertTrue(none.isNull(3, 0), "AVG over no rows");
        assertEquals(0, none.longs[4][0]);
        long[][] vals5 = {null, {42}, {Double.doubleToRawLongBits(1.5)}, {701}, null};
        long[][] cnts5 = {null, {3}, null, null, {2}};
        RowBuffer five = GpuGroups.rows(layout(0, ValueKind.LONG), single,
                new GpuGroups.Slots(1, new long[1], new long[] {5}, vals5, cnts5, null)).rows();
        assertEquals(5, five.longs[0][0]);
        assertEquals(42, five.longs[1][0]);
        assertEquals(1.5, five.doubles[2][0]);
        assertEquals(1.402, five.doubles[3][0]); // 7.01 / 5
        assertEquals(2, five.longs[4][0]);
        for (int c = 0; c < 5; c++) {
            assertTrue(!five.isNull(c, 0));
        }
    }

    private static Device dense(SplittableRandom r, int nk, long[] mins, long[] sizes, double density) {
        int slots = (int) Arrays.stream(sizes).reduce(1, Math::multiplyExact);
        long[] rows = new long[slots];
        for (int s = 0; s < slots; s++) {
            rows[s] = r.nextDouble() < density ? r.nextLong(1, 1_000_000) : 0;
        }
        SinkLayout.Aggregate layout = new SinkLayout.Aggregate("dense", deviceAggs(), mins, sizes, slots, nk);
        return new Device(layout, rows, null, values(r, rows), counts(r, rows), null);
    }

    /** A device hash table: distinct keys in claimed slots; also claims without rows and rows without a claim. */
    private static Device shared(SplittableRandom r, int nk, long[] mins, long[] sizes, double density) {
        int slots = 1 << r.nextInt(4, 17);
        long[] rows = new long[slots];
        int[] state = new int[slots];
        long[] keys = new long[slots * nk];
        long domain = Arrays.stream(sizes).reduce(1, Math::multiplyExact);
        boolean[] taken = new boolean[(int) domain];
        for (int s = 0; s < slots; s++) {
            if (r.nextDouble() >= density) {
                int odd = r.nextInt(50);
                state[s] = odd == 0 ? 2 : odd == 1 ? 1 : 0; // never seen on a device: both walks must skip them
                rows[s] = odd == 2 ? 1 : 0;
                continue;
            }
            long code = r.nextLong(domain);
            if (taken[(int) code]) {
                continue; // each group once
            }
            taken[(int) code] = true;
            state[s] = 2;
            rows[s] = r.nextLong(1, 1_000_000);
            for (int k = nk - 1; k >= 0; k--) {
                keys[s * nk + k] = mins[k] + code % sizes[k];
                code /= sizes[k];
            }
        }
        SinkLayout.Aggregate layout = new SinkLayout.Aggregate("shared", deviceAggs(), new long[nk], new long[nk], 0, nk);
        return new Device(layout, rows, state, values(r, rows), counts(r, rows), keys);
    }

    private static long[][] values(SplittableRandom r, long[] rows) {
        long[][] vals = new long[AGGS.length][];
        for (int a = 0; a < AGGS.length; a++) {
            if (HAS_VALUE[a]) {
                vals[a] = new long[rows.length];
                for (int s = 0; s < rows.length; s++) {
                    vals[a][s] = AGGS[a].doubleValue() ? Double.doubleToRawLongBits(r.nextDouble() * 1e6) : r.nextLong();
                }
            }
        }
        return vals;
    }

    private static long[][] counts(SplittableRandom r, long[] rows) {
        long[][] cnts = new long[AGGS.length][];
        for (int a = 0; a < AGGS.length; a++) {
            if (OWN_COUNT[a]) {
                cnts[a] = new long[rows.length];
                for (int s = 0; s < rows.length; s++) {
                    cnts[a][s] = rows[s] == 0 ? 0 : r.nextLong(0, rows[s] + 1);
                }
            }
        }
        return cnts;
    }

    private static void assertSlotsInOrder(Device d, GpuGroups.Slots g) {
        int n = 0;
        for (int s = 0; s < d.rows().length; s++) {
            if (d.rows()[s] != 0 && (d.state() == null || d.state()[s] == 2)) {
                assertEquals(s, g.slot()[n], "entry " + n);
                assertEquals(d.rows()[s], g.rows()[n]);
                n++;
            }
        }
        assertEquals(n, g.count());
        assertEquals(n, g.slot().length);
        assertNull(g.vals()[0]);
        assertNull(g.cnts()[0]);
    }

    /**
     * The rows a walk over every slot of the whole arrays gives, in slot order: the keys, COUNT(*) (the rows),
     * SUM (NULL where its own count is 0), MIN (a double), AVG (the DECIMAL sum over the rows, rounded once),
     * COUNT (its own count).
     */
    private static List<Object[]> fullWalk(int nk, Device dev) {
        long[] rows = dev.rows();
        int[] state = dev.state();
        long[] keys = dev.keys();
        SinkLayout.Aggregate a = dev.layout();
        List<Object[]> out = new java.util.ArrayList<>();
        for (int s = 0; s < rows.length; s++) {
            if (rows[s] == 0 || (state != null && state[s] != 2)) {
                continue;
            }
            Object[] row = new Object[nk + AGGS.length];
            long rest = s;
            for (int k = nk - 1; k >= 0; k--) {
                if (keys != null) {
                    row[k] = keys[s * nk + k];
                } else {
                    row[k] = a.mins()[k] + rest % a.sizes()[k];
                    rest /= a.sizes()[k];
                }
            }
            long[][] v = dev.vals();
            long[][] c = dev.cnts();
            row[nk] = rows[s];
            row[nk + 1] = c[1][s] == 0 ? null : v[1][s];
            row[nk + 2] = Double.longBitsToDouble(v[2][s]);
            row[nk + 3] = BigDecimal.valueOf(v[3][s], 2).divide(BigDecimal.valueOf(rows[s]), MathContext.DECIMAL64)
                    .doubleValue();
            row[nk + 4] = c[4][s];
            out.add(row);
        }
        return out;
    }

    private static void assertSameRows(List<Object[]> expected, RowBuffer got, String what) {
        assertEquals(expected.size(), got.size, what + ": groups");
        for (int i = 0; i < expected.size(); i++) {
            Object[] e = expected.get(i);
            for (int c = 0; c < e.length; c++) {
                Object v;
                if (got.isNull(c, i)) {
                    v = null;
                } else {
                    v = switch (got.kinds[c]) {
                        case INT -> (long) got.ints[c][i];
                        case LONG -> got.longs[c][i];
                        case DOUBLE -> got.doubles[c][i];
                        default -> throw new AssertionError(got.kinds[c]);
                    };
                }
                Object want = e[c];
                if (want instanceof Long l && got.kinds[c] == ValueKind.INT) {
                    want = (long) (int) (long) l;
                }
                assertEquals(want, v, what + ": group " + i + ", column " + c);
            }
        }
    }
}
