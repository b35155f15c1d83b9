package io.tessera.backend.cuda.exec;

import io.tessera.exec.*;
import io.tessera.backend.cuda.gen.CType;
import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.jvm.AggSpec;
import io.tessera.backend.jvm.DenseGroupTable;
import io.tessera.backend.jvm.GroupTable;
import io.tessera.backend.jvm.HashGroupTable;
import io.tessera.backend.jvm.JKind;
import io.tessera.plan.AggFunction;
import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM group table made from a GPU group table's non-empty slots (what the device's compaction reads back) is the
 * one the walk over every slot of the whole arrays made, for dense and shared device tables into dense and hash JVM
 * tables, with one to three keys, empty to full tables; and the arrays the device gathers into one buffer unpack to
 * the slots that the host's compaction of the whole arrays gives.
 */
class GpuGroupsTest {

    /** COUNT(*), SUM(long) FILTER, MIN(double), AVG(long), COUNT(x) FILTER: values and counts of every kind. */
    private static final AggSpec[] AGGS = {
            new AggSpec(AggFunction.COUNT_STAR, null, null, DataType.BIGINT),
            new AggSpec(AggFunction.SUM, JKind.LONG, DataType.BIGINT, DataType.BIGINT),
            new AggSpec(AggFunction.MIN, JKind.DOUBLE, DataType.DOUBLE, DataType.DOUBLE),
            new AggSpec(AggFunction.AVG, JKind.LONG, DataType.BIGINT, DataType.DOUBLE),
            new AggSpec(AggFunction.COUNT, JKind.INT, DataType.INTEGER, DataType.BIGINT),
    };
    private static final boolean[] HAS_VALUE = {false, true, true, true, false};
    private static final boolean[] OWN_COUNT = {false, true, false, false, true};

    private static List<SinkLayout.Agg> deviceAggs() {
        return List.of(new SinkLayout.Agg(AggFunction.COUNT_STAR, null, false),
                new SinkLayout.Agg(AggFunction.SUM, CType.LONG, true),
                new SinkLayout.Agg(AggFunction.MIN, CType.DOUBLE, false),
                new SinkLayout.Agg(AggFunction.AVG, CType.LONG, false),
                new SinkLayout.Agg(AggFunction.COUNT, null, true));
    }

    /** Whole device arrays, as a kernel leaves them. */
    private record Device(SinkLayout.Aggregate layout, long[] rows, int[] state, long[][] vals, long[][] cnts,
                          long[] keys) {
    }

    @Test
    void compactedSlotsGiveTheTablesOfTheFullWalk() {
        SplittableRandom r = new SplittableRandom(20240607);
        double[] densities = {0, 0.0005, 0.01, 0.3, 1};
        int cases = 0;
        for (int nk = 1; nk <= 3; nk++) {
            for (double density : densities) {
                for (boolean shared : new boolean[] {false, true}) {
                    for (boolean jvmDense : new boolean[] {true, false}) {
                        long[] mins = new long[nk];
                        long[] sizes = new long[nk];
                        for (int k = 0; k < nk; k++) {
                            mins[k] = r.nextLong(-1000, 1000);
                            sizes[k] = nk == 1 ? r.nextLong(1, 70_000) : nk == 2 ? r.nextLong(1, 300) : r.nextLong(1, 40);
                        }
                        // the JVM's dense table: a NULL slot per key, and ranges that may start lower
                        long[] jvmMins = new long[nk];
                        long[] jvmSizes = new long[nk];
                        for (int k = 0; k < nk; k++) {
                            long below = r.nextLong(0, 3);
                            jvmMins[k] = mins[k] - below;
                            jvmSizes[k] = sizes[k] + below + 1 + r.nextLong(0, 3);
                        }
                        Device d = shared ? shared(r, nk, mins, sizes, density) : dense(r, nk, mins, sizes, density);
                        GpuGroups.Target t = new GpuGroups.Target(AGGS, nk, jvmDense, jvmMins, jvmSizes,
                                nk, false, r.nextBoolean());
                        GroupTable expected = fullWalk(t, d);
                        GpuGroups.Slots g = GpuGroups.compact(d.rows(), d.state(), d.vals(), d.cnts(), d.keys(), nk);
                        assertSlotsInOrder(d, g);
                        GroupTable got = GpuGroups.table(t, d.layout(), g);
                        String what = (shared ? "shared" : "dense") + " device table into a " + (jvmDense ? "dense" : "hash")
                                + " JVM table, " + nk + " keys, density " + density;
                        assertSameTable(expected, got, what);
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
    void keysGoIntoAHashTableWithANullMaskAsTheJvmEncodesThem() {
        SplittableRandom r = new SplittableRandom(7);
        for (int nk = 1; nk <= 3; nk++) {
            long[] mins = new long[nk];
            long[] sizes = new long[nk];
            Arrays.fill(sizes, 12);
            for (boolean shared : new boolean[] {false, true}) {
                Device d = shared ? shared(r, nk, mins, sizes, 0.5) : dense(r, nk, mins, sizes, 0.5);
                GpuGroups.Target t = new GpuGroups.Target(AGGS, nk, false, null, null, nk + 1, true, false);
                GpuGroups.Slots g = GpuGroups.compact(d.rows(), d.state(), d.vals(), d.cnts(), d.keys(), nk);
                HashGroupTable h = (HashGroupTable) GpuGroups.table(t, d.layout(), g);
                assertEquals(g.count(), h.groups);
                for (int i = 0; i < g.count(); i++) {
                    long[] enc = new long[nk + 1]; // the keys, then a NULL mask of 0
                    long rest = g.slot()[i];
                    for (int k = nk - 1; k >= 0; k--) {
                        enc[k] = shared ? g.keys()[i * nk + k] : rest % sizes[k];
                        rest /= sizes[k];
                    }
                    int grp = find(h, enc);
                    assertEquals(i, grp, nk + " keys, entry " + i);
                    assertEquals(g.rows()[i], h.counts[0][grp]);
                    for (int k = 0; k < nk; k++) {
                        assertTrue(!h.isNullKey(grp, k));
                    }
                }
                assertEquals(g.count(), h.groups, "no group was added by looking them up");
            }
        }
    }

    @Test
    void theSingleGroupIsKeptOverNoRows() {
        long[][] vals = {null, {0}, {Double.doubleToRawLongBits(Double.POSITIVE_INFINITY)}, {0}, null};
        long[][] cnts = {null, {0}, null, null, {0}};
        DenseGroupTable t = GpuGroups.single(AGGS, new GpuGroups.Slots(1, new long[1], new long[] {0}, vals, cnts, null));
        assertEquals(1, t.slots());
        assertEquals(0, t.rows[0]);
        assertEquals(Double.POSITIVE_INFINITY, t.dvals[2][0]);
        long[][] vals5 = {null, {42}, {Double.doubleToRawLongBits(1.5)}, {7}, null};
        long[][] cnts5 = {null, {3}, null, null, {2}};
        t = GpuGroups.single(AGGS, new GpuGroups.Slots(1, new long[1], new long[] {5}, vals5, cnts5, null));
        assertEquals(5, t.rows[0]);
        assertEquals(5, t.counts[0][0]);
        assertEquals(3, t.counts[1][0]);
        assertEquals(42, t.lvals[1][0]);
        assertEquals(1.5, t.dvals[2][0]);
        assertEquals(5, t.counts[3][0]);
        assertEquals(2, t.counts[4][0]);
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

    /** The walk GpuOffload made over every slot of the whole arrays before groups were compacted. */
    private static GroupTable fullWalk(GpuGroups.Target t, Device dev) {
        long[] rows = dev.rows();
        int[] state = dev.state();
        long[] keys = dev.keys();
        long[][] cnts = new long[AGGS.length][];
        for (int i = 0; i < cnts.length; i++) {
            cnts[i] = dev.cnts()[i] != null ? dev.cnts()[i] : rows;
        }
        SinkLayout.Aggregate a = dev.layout();
        boolean dense = t.dense();
        DenseGroupTable d = dense ? new DenseGroupTable(t.aggs(), t.denseMins(), t.denseSizes()) : null;
        HashGroupTable h = dense ? null : new HashGroupTable(t.aggs(), t.keyWidth(), t.nullableKeys(), t.murmur(), 1024);
        int nk = t.keys();
        long[] key = new long[nk];
        for (long s = 0; s < rows.length; s++) {
            if (rows[(int) s] == 0 || (state != null && state[(int) s] != 2)) {
                continue;
            }
            if (keys != null) {
                System.arraycopy(keys, (int) (s * nk), key, 0, nk);
            } else {
                long rest = s;
                for (int i = nk - 1; i >= 0; i--) {
                    key[i] = a.mins()[i] + rest % a.sizes()[i];
                    rest /= a.sizes()[i];
                }
            }
            int g;
            if (dense) {
                long idx = 0;
                for (int i = 0; i < nk; i++) {
                    idx = idx * t.denseSizes()[i] + (key[i] - t.denseMins()[i]);
                }
                g = (int) idx;
                d.rows[g] += rows[(int) s];
                fill(d, t.aggs(), g, (int) s, dev.vals(), cnts);
            } else {
                if (nk == 1) {
                    g = h.find1(key[0]);
                } else if (nk == 2) {
                    g = h.find2(key[0], key[1]);
                } else {
                    System.arraycopy(key, 0, h.scratch, 0, nk);
                    g = h.findN();
                }
                fill(h, t.aggs(), g, (int) s, dev.vals(), cnts);
            }
        }
        return dense ? d : h;
    }

    private static void fill(GroupTable t, AggSpec[] specs, int g, int s, long[][] vals, long[][] cnts) {
        for (int i = 0; i < specs.length; i++) {
            t.counts[i][g] = cnts[i][s];
            if (specs[i].hasValue() && vals[i] != null) {
                if (specs[i].doubleValue()) {
                    t.dvals[i][g] = Double.longBitsToDouble(vals[i][s]);
                } else {
                    t.lvals[i][g] = vals[i][s];
                }
            }
        }
    }

    /** A group of a JVM hash table by its encoded key, as generated code finds it. */
    private static int find(HashGroupTable h, long[] enc) {
        if (h.width == 1) {
            return h.find1(enc[0]);
        }
        if (h.width == 2) {
            return h.find2(enc[0], enc[1]);
        }
        System.arraycopy(enc, 0, h.scratch, 0, h.width);
        return h.findN();
    }

    private static void assertSameTable(GroupTable expected, GroupTable got, String what) {
        int groups;
        if (expected instanceof DenseGroupTable e) {
            DenseGroupTable g = (DenseGroupTable) got;
            assertArrayEquals(e.rows, g.rows, what + ": rows");
            groups = e.slots();
            assertEquals(groups, g.slots(), what);
        } else {
            HashGroupTable e = (HashGroupTable) expected;
            HashGroupTable g = (HashGroupTable) got;
            groups = e.groups;
            assertEquals(groups, g.groups, what + ": groups");
            assertEquals(e.width, g.width, what);
            assertArrayEquals(Arrays.copyOf(e.keys, groups * e.width), Arrays.copyOf(g.keys, groups * g.width),
                    what + ": keys");
            for (int i = 0; i < groups; i++) {
                assertEquals(i, find(g, Arrays.copyOfRange(e.keys, i * e.width, (i + 1) * e.width)),
                        what + ": group " + i + " is found by its key");
            }
            assertEquals(groups, g.groups, what + ": looking keys up added groups");
        }
        assertTrue(groups >= 0);
        for (int a = 0; a < AGGS.length; a++) {
            assertArrayEquals(Arrays.copyOf(expected.counts[a], groups), Arrays.copyOf(got.counts[a], groups),
                    what + ": counts of aggregate " + a);
            if (expected.lvals[a] != null) {
                assertArrayEquals(Arrays.copyOf(expected.lvals[a], groups), Arrays.copyOf(got.lvals[a], groups),
                        what + ": long values of aggregate " + a);
            }
            if (expected.dvals[a] != null) {
                assertArrayEquals(Arrays.copyOf(expected.dvals[a], groups), Arrays.copyOf(got.dvals[a], groups),
                        what + ": double values of aggregate " + a);
            }
        }
    }
}
