package io.tessera.backend.jvm;

import java.util.Arrays;

/**
 * A join's hash table over the rows of its build side: payload columns in a {@link RowBuffer}, and an index
 * from key to row. Perfect: {@code first[key - min]} (dense key ranges). Linear probing: open addressing over
 * {@code slotKeys}/{@code slotRows} (one key) or {@code slotRows} plus {@code keyCols} (several keys). Rows with
 * equal keys are chained through {@code next} unless the keys are unique.
 */
public final class JoinTable {

    public final boolean perfect;
    public final boolean murmur;
    public final boolean unique;
    public final RowBuffer payload;
    public final int rows;
    public long min;
    public long max;
    public int[] first;
    public int bits;
    public int mask;
    public long[] slotKeys;
    public int[] slotRows;
    public long[][] keyCols;
    public int[] next;

    private JoinTable(boolean perfect, boolean murmur, boolean unique, RowBuffer payload, int rows) {
        this.perfect = perfect;
        this.murmur = murmur;
        this.unique = unique;
        this.payload = payload;
        this.rows = rows;
    }

    /**
     * Builds the table from the build side's rows: {@code all}'s first {@code payloadColumns} columns are the payload,
     * the remaining {@code keyCount} LONG columns the encoded keys (rows with a NULL key were never added).
     */
    public static JoinTable build(RowBuffer all, int payloadColumns, int keyCount, boolean perfect, long min, long max,
                                  boolean murmur, boolean unique) {
        int n = all.size;
        JoinTable t = new JoinTable(perfect, murmur, unique, all, n);
        long[][] keys = new long[keyCount][];
        for (int k = 0; k < keyCount; k++) {
            keys[k] = all.longs[payloadColumns + k];
        }
        t.keyCols = keys;
        if (!unique) {
            t.next = new int[Math.max(1, n)];
            Arrays.fill(t.next, -1);
        }
        if (perfect) {
            t.min = min;
            t.max = max;
            long range = max - min + 1;
            t.first = new int[(int) Math.max(1, range)];
            Arrays.fill(t.first, -1);
            long[] k0 = keys[0];
            for (int r = n - 1; r >= 0; r--) {
                long k = k0[r];
                if (k < min || k > max) {
                    throw new IllegalStateException("build key " + k + " outside its planned range [" + min + ", " + max + "]");
                }
                int s = (int) (k - min);
                link(t, s, r);
            }
        } else {
            t.bits = Hashing.bitsFor(n);
            t.mask = (1 << t.bits) - 1;
            t.slotRows = new int[1 << t.bits];
            Arrays.fill(t.slotRows, -1);
            if (keyCount == 1) {
                t.slotKeys = new long[1 << t.bits];
            }
            for (int r = n - 1; r >= 0; r--) {
                long h = 0;
                for (int k = 0; k < keyCount; k++) {
                    h = keyCount == 1 ? keys[0][r] : Hashing.combine(h, keys[k][r]);
                }
                int s = Hashing.hash(h, t.bits, murmur);
                while (true) {
                    int at = t.slotRows[s];
                    if (at < 0) {
                        t.slotRows[s] = r;
                        if (t.slotKeys != null) {
                            t.slotKeys[s] = keys[0][r];
                        }
                        break;
                    }
                    if (sameKey(keys, at, r)) {
                        if (unique) {
                            throw new IllegalStateException("duplicate key in a join table planned as unique");
                        }
                        t.next[r] = at;
                        t.slotRows[s] = r;
                        break;
                    }
                    s = (s + 1) & t.mask;
                }
            }
        }
        return t;
    }

    private static void link(JoinTable t, int s, int r) {
        int at = t.first[s];
        if (at >= 0) {
            if (t.unique) {
                throw new IllegalStateException("duplicate key in a join table planned as unique");
            }
            t.next[r] = at;
        }
        t.first[s] = r;
    }

    private static boolean sameKey(long[][] keys, int a, int b) {
        for (long[] k : keys) {
            if (k[a] != k[b]) {
                return false;
            }
        }
        return true;
    }

    /** The first row with these keys (several-key tables), or -1. Generated code calls this for composite keys. */
    public int find(long[] key) {
        long h = 0;
        for (long k : key) {
            h = Hashing.combine(h, k);
        }
        int s = Hashing.hash(h, bits, murmur);
        while (true) {
            int at = slotRows[s];
            if (at < 0) {
                return -1;
            }
            boolean same = true;
            for (int k = 0; k < key.length && same; k++) {
                same = keyCols[k][at] == key[k];
            }
            if (same) {
                return at;
            }
            s = (s + 1) & mask;
        }
    }

    public int find2(long k0, long k1) {
        int s = Hashing.hash(Hashing.combine(Hashing.combine(0, k0), k1), bits, murmur);
        long[] c0 = keyCols[0];
        long[] c1 = keyCols[1];
        while (true) {
            int at = slotRows[s];
            if (at < 0 || (c0[at] == k0 && c1[at] == k1)) {
                return at;
            }
            s = (s + 1) & mask;
        }
    }
}
