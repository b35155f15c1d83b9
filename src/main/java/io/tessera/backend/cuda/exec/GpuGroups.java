package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.gen.SinkLayout;
import io.tessera.backend.jvm.AggSpec;
import io.tessera.backend.jvm.DenseGroupTable;
import io.tessera.backend.jvm.EmittedPipeline;
import io.tessera.backend.jvm.GroupTable;
import io.tessera.backend.jvm.HashGroupTable;
import io.tessera.variant.JvmDimensions;

import java.util.Arrays;

/**
 * The groups a GROUP_AGGREGATE kernel left on the device, as host arrays over its non-empty slots, and the JVM
 * backend's group table made from them. The device's arrays come back either whole (small tables; {@link #compact}
 * then picks the non-empty slots on the host) or compacted on the device and gathered into one buffer
 * ({@link Packing}); both end in {@link #table}.
 */
final class GpuGroups {

    private GpuGroups() {
    }

    /**
     * The non-empty slots of a device group table: entry i is slot {@code slot[i]} of the device's table with
     * {@code rows[i]} rows; aggregate a's value bits are {@code vals[a][i]} (vals[a] null when it has no value) and
     * its count {@code cnts[a][i]} (cnts[a] null when it counts the group's rows); for agg=shared the group's key
     * words are {@code keys[i * keyWidth ...]} (keys null for the dense modes, whose slot gives the key).
     */
    record Slots(int count, long[] slot, long[] rows, long[][] vals, long[][] cnts, long[] keys) {
    }

    /** The JVM table the groups go into: the pipeline's aggregates, key count and table kind. */
    record Target(AggSpec[] aggs, int keys, boolean dense, long[] denseMins, long[] denseSizes, int keyWidth,
                  boolean nullableKeys, boolean murmur) {

        static Target of(EmittedPipeline e) {
            return new Target(e.aggs(), e.keyKinds().length, e.dense(), e.denseMins(), e.denseSizes(), e.keyWidth(),
                    e.nullableKeys(), "murmur".equals(e.genome().get(JvmDimensions.HASH)));
        }
    }

    /**
     * Where the device's compaction gathers the arrays of {@code n} non-empty slots in one buffer of {@code words}
     * 64-bit words: the row counts at word 0, then per aggregate its values at {@code valueAt[a]} and its own counts
     * at {@code countAt[a]} (-1 where it has none), n words each, then {@code keyWidth} key words per slot at
     * {@code keysAt} (keyWidth 0: no keys, the dense modes).
     */
    record Packing(int n, long[] valueAt, long[] countAt, long keysAt, int keyWidth, long words) {

        static Packing of(int n, boolean[] hasValue, boolean[] hasCount, int keyWidth) {
            long[] valueAt = new long[hasValue.length];
            long[] countAt = new long[hasValue.length];
            long words = n;
            for (int a = 0; a < hasValue.length; a++) {
                valueAt[a] = hasValue[a] ? words : -1;
                words += hasValue[a] ? n : 0;
                countAt[a] = hasCount[a] ? words : -1;
                words += hasCount[a] ? n : 0;
            }
            long keysAt = words;
            words += (long) n * keyWidth;
            return new Packing(n, valueAt, countAt, keysAt, keyWidth, words);
        }

        /** The slots from their indices and the buffer's {@link #words} words, read back. */
        Slots unpack(long[] slot, long[] packed) {
            long[][] vals = new long[valueAt.length][];
            long[][] cnts = new long[valueAt.length][];
            for (int a = 0; a < valueAt.length; a++) {
                vals[a] = valueAt[a] >= 0 ? range(packed, valueAt[a], n) : null;
                cnts[a] = countAt[a] >= 0 ? range(packed, countAt[a], n) : null;
            }
            return new Slots(n, slot, range(packed, 0, n), vals, cnts,
                    keyWidth > 0 ? range(packed, keysAt, (long) n * keyWidth) : null);
        }

        private static long[] range(long[] packed, long from, long length) {
            return Arrays.copyOfRange(packed, (int) from, (int) (from + length));
        }
    }

    /**
     * The non-empty slots of whole device arrays, in slot order, as the device's compaction leaves them: slots with
     * rows, and with a state array (agg=shared) only those whose state is 2 (holds a group). {@code cnts[a]} null:
     * aggregate a counts the rows; {@code keys}: keyWidth words per slot, or null.
     */
    static Slots compact(long[] rows, int[] state, long[][] vals, long[][] cnts, long[] keys, int keyWidth) {
        int n = 0;
        for (int s = 0; s < rows.length; s++) {
            if (used(rows, state, s)) {
                n++;
            }
        }
        long[] slot = new long[n];
        long[] r = new long[n];
        long[][] v = new long[vals.length][];
        long[][] c = new long[cnts.length][];
        for (int a = 0; a < vals.length; a++) {
            v[a] = vals[a] == null ? null : new long[n];
            c[a] = cnts[a] == null ? null : new long[n];
        }
        long[] k = keys == null ? null : new long[n * keyWidth];
        int i = 0;
        for (int s = 0; s < rows.length; s++) {
            if (!used(rows, state, s)) {
                continue;
            }
            slot[i] = s;
            r[i] = rows[s];
            for (int a = 0; a < vals.length; a++) {
                if (v[a] != null) {
                    v[a][i] = vals[a][s];
                }
                if (c[a] != null) {
                    c[a][i] = cnts[a][s];
                }
            }
            if (k != null) {
                System.arraycopy(keys, s * keyWidth, k, i * keyWidth, keyWidth);
            }
            i++;
        }
        return new Slots(n, slot, r, v, c, k);
    }

    private static boolean used(long[] rows, int[] state, int s) {
        return rows[s] != 0 && (state == null || state[s] == 2);
    }

    /**
     * The JVM group table holding the device's groups {@code g} of a GROUP_AGGREGATE whose device layout is
     * {@code a}: the key of a dense slot is decoded from its index ({@code a.mins()}, {@code a.sizes()}, the last
     * key varying fastest), a shared slot's key is its key words. Each group occurs once on the device.
     */
    static GroupTable table(Target t, SinkLayout.Aggregate a, Slots g) {
        DenseGroupTable d = t.dense() ? new DenseGroupTable(t.aggs(), t.denseMins(), t.denseSizes()) : null;
        HashGroupTable h = t.dense() ? null : new HashGroupTable(t.aggs(), t.keyWidth(), t.nullableKeys(), t.murmur(),
                Math.max(1024, g.count()));
        int nk = t.keys();
        long[] key = new long[nk];
        for (int i = 0; i < g.count(); i++) {
            if (g.keys() != null) {
                System.arraycopy(g.keys(), i * a.keyWidth(), key, 0, nk);
            } else {
                long rest = g.slot()[i];
                for (int k = nk - 1; k >= 0; k--) {
                    key[k] = a.mins()[k] + rest % a.sizes()[k];
                    rest /= a.sizes()[k];
                }
            }
            int to;
            if (d != null) {
                long idx = 0;
                for (int k = 0; k < nk; k++) {
                    idx = idx * t.denseSizes()[k] + (key[k] - t.denseMins()[k]);
                }
                to = (int) idx;
                d.rows[to] += g.rows()[i];
            } else {
                to = find(h, key);
            }
            fill(d != null ? d : h, t.aggs(), to, i, g);
        }
        return d != null ? d : h;
    }

    /**
     * The group of a key in a JVM hash table, found as the JVM's generated code finds it: by the width of its encoded
     * key, whose NULL mask word (when its keys are nullable) is 0, since keys on the GPU are never NULL.
     */
    private static int find(HashGroupTable h, long[] key) {
        int w = h.width;
        long k0 = key.length > 0 ? key[0] : 0;
        long k1 = key.length > 1 ? key[1] : 0;
        if (w == 1) {
            return h.find1(k0);
        }
        if (w == 2) {
            return h.find2(k0, k1);
        }
        System.arraycopy(key, 0, h.scratch, 0, key.length);
        Arrays.fill(h.scratch, key.length, w, 0);
        return h.findN();
    }

    /**
     * The single group of an AGGREGATE without grouping (agg=single: one slot, present even over no rows).
     */
    static DenseGroupTable single(AggSpec[] aggs, Slots g) {
        DenseGroupTable t = new DenseGroupTable(aggs, new long[0], new long[0]);
        t.rows[0] = g.rows()[0];
        fill(t, aggs, 0, 0, g);
        return t;
    }

    /** Sets group {@code to} of a JVM table from entry i of the device's groups. */
    private static void fill(GroupTable t, AggSpec[] specs, int to, int i, Slots g) {
        for (int a = 0; a < specs.length; a++) {
            long[] c = g.cnts()[a];
            t.counts[a][to] = (c == null ? g.rows() : c)[i];
            long[] v = g.vals()[a];
            if (specs[a].hasValue() && v != null) {
                if (specs[a].doubleValue()) {
                    t.dvals[a][to] = Double.longBitsToDouble(v[i]);
                } else {
                    t.lvals[a][to] = v[i];
                }
            }
        }
    }
}
