package io.tessera.backend.jvm.join;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.RowBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Join tables built by every strategy, on many workers, from several workers' buffers: every layout finds exactly
 * the rows of each key (in any order within its chain), nothing for keys not built, and every row's payload (NULLs
 * included) is where its index points.
 */
class JoinBuildStrategyTest {

    private static final int WORKERS = 8;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(WORKERS);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    /**
     * The build side split into {@code buffers} buffers of uneven sizes: payload column 0 holds the row's number
     * (NULL for every 7th row), column 1 a copy of it as a LONG, then the keys.
     */
    private static List<RowBuffer> buffers(long[][] keys, int buffers) {
        int n = keys[0].length;
        ValueKind[] kinds = kinds(keys.length);
        List<RowBuffer> out = new ArrayList<>();
        int at = 0;
        for (int b = 0; b < buffers; b++) {
            int end = b == buffers - 1 ? n : Math.min(n, at + (n / buffers) * (b % 2 == 0 ? 1 : 2) / 2 + b);
            RowBuffer buf = new RowBuffer(kinds, 16);
            for (int r = at; r < end; r++) {
                int w = buf.next();
                buf.ints[0][w] = r;
                if (r % 7 == 3) {
                    buf.setNull(0, w);
                }
                buf.longs[1][w] = r;
                for (int k = 0; k < keys.length; k++) {
                    buf.longs[2 + k][w] = keys[k][r];
                }
            }
            out.add(buf);
            at = end;
        }
        return out;
    }

    private static ValueKind[] kinds(int width) {
        ValueKind[] kinds = new ValueKind[2 + width];
        kinds[0] = ValueKind.INT;
        Arrays.fill(kinds, 1, kinds.length, ValueKind.LONG);
        return kinds;
    }

    /** Keys from a small domain (duplicates) or distinct ones, extremes mixed in; {@code range}: within [0, range). */
    private static long[][] keys(Random rnd, int n, int width, boolean unique, long range) {
        long[][] keys = new long[width][n];
        Set<List<Long>> seen = new HashSet<>();
        long[] extremes = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, 1L << 40};
        for (int r = 0; r < n; r++) {
            while (true) {
                List<Long> key = new ArrayList<>();
                for (int k = 0; k < width; k++) {
                    long v = range > 0 ? (unique ? r * 3L + 1 : rnd.nextInt((int) Math.max(1, range / 4)) * 4L)
                            : rnd.nextInt(10) == 0 ? extremes[rnd.nextInt(extremes.length)]
                            : unique ? rnd.nextLong() : rnd.nextInt(Math.max(1, n / 3));
                    key.add(v);
                }
                if (!unique || seen.add(key)) {
                    for (int k = 0; k < width; k++) {
                        keys[k][r] = key.get(k);
                    }
                    break;
                }
            }
        }
        return keys;
    }

    private static int lookup(JoinTable t, long[] key) {
        return switch (key.length) {
            case 1 -> t.find1(key[0]);
            case 2 -> t.find2(key[0], key[1]);
            default -> t.find(key);
        };
    }

    /** Every key finds exactly its rows, payload intact; keys not built find nothing. */
    private static void check(String what, JoinTable t, long[][] keys, boolean unique, Random rnd) {
        int n = keys[0].length;
        assertEquals(n, t.rows, what);
        Map<List<Long>, Set<Integer>> expected = new HashMap<>();
        for (int r = 0; r < n; r++) {
            List<Long> key = new ArrayList<>();
            for (long[] k : keys) {
                key.add(k[r]);
            }
            expected.computeIfAbsent(key, x -> new HashSet<>()).add(r);
        }
        int found = 0;
        for (Map.Entry<List<Long>, Set<Integer>> e : expected.entrySet()) {
            long[] key = e.getKey().stream().mapToLong(Long::longValue).toArray();
            Set<Integer> rows = new HashSet<>();
            for (int r = lookup(t, key); r >= 0; r = unique ? -1 : t.next[r]) {
                int original = (int) t.payload.longs[1][r];
                assertEquals(original % 7 == 3, t.payload.isNull(0, r), what + ": NULL payload of row " + original);
                if (original % 7 != 3) {
                    assertEquals(original, t.payload.ints[0][r], what);
                }
                for (int k = 0; k < key.length; k++) {
                    assertEquals(key[k], t.keyCols[k][r], what);
                }
                assertTrue(rows.add(original), what + ": row " + original + " twice in its chain");
                found++;
            }
            assertEquals(e.getValue(), rows, what + " key " + e.getKey());
            assertEquals(lookup(t, key), t.find(key), what + " generic lookup of " + e.getKey());
        }
        assertEquals(n, found, what + ": every row in exactly one chain");
        for (int i = 0; i < 300; i++) {
            long[] key = new long[keys.length];
            for (int k = 0; k < key.length; k++) {
                key[k] = rnd.nextLong();
            }
            if (!expected.containsKey(Arrays.stream(key).boxed().toList())) {
                assertEquals(-1, lookup(t, key), what + " absent key " + Arrays.toString(key));
            }
        }
    }

    private static JoinTable build(JoinBuildStrategy s, List<RowBuffer> buffers, int width, JoinTable.Layout layout,
                                   long min, long max, boolean murmur, boolean unique, int maxBits) {
        return s.build(kinds(width), buffers, 2, width, layout, min, max, murmur, unique, POOL, WORKERS, maxBits, 1);
    }

    @Test
    void everyStrategyBuildsEveryHashedLayoutOnManyWorkers() {
        Random rnd = new Random(21);
        for (JoinBuildStrategy s : JoinBuildStrategy.values()) {
            for (JoinTable.Layout layout : List.of(JoinTable.Layout.LINEAR, JoinTable.Layout.CUCKOO2,
                    JoinTable.Layout.CUCKOO3, JoinTable.Layout.CUCKOO4)) {
                for (boolean unique : new boolean[] {true, false}) {
                    for (int width = 1; width <= 3; width++) {
                        for (int n : new int[] {1, 100, 20_000}) {
                            boolean murmur = rnd.nextBoolean();
                            long[][] keys = keys(rnd, n, width, unique, 0);
                            JoinTable t = build(s, buffers(keys, 1 + rnd.nextInt(WORKERS)), width, layout, 0, 0,
                                    murmur, unique, JoinTable.MAX_BITS);
                            String what = s.label() + " " + layout.label() + (unique ? " unique" : "") + " width "
                                    + width + " rows " + n;
                            check(what, t, keys, unique, rnd);
                            assertEquals(0, t.stashSize, what + " needed a stash");
                        }
                    }
                }
            }
        }
    }

    @Test
    void everyStrategyBuildsPerfectTables() {
        Random rnd = new Random(22);
        for (JoinBuildStrategy s : JoinBuildStrategy.values()) {
            for (boolean unique : new boolean[] {true, false}) {
                for (int n : new int[] {1, 50, 30_000}) {
                    long range = 3L * n + 2;
                    long[][] keys = keys(rnd, n, 1, unique, range);
                    long min = -5;
                    for (int r = 0; r < n; r++) {
                        keys[0][r] += min;
                    }
                    JoinTable t = build(s, buffers(keys, 1 + rnd.nextInt(WORKERS)), 1, JoinTable.Layout.PERFECT,
                            min, min + range, false, unique, JoinTable.MAX_BITS);
                    check(s.label() + " perfect" + (unique ? " unique" : "") + " rows " + n, t, keys, unique, rnd);
                    assertEquals(-1, t.find1(min - 1));
                    assertEquals(-1, t.find1(min + range + 1));
                }
            }
        }
    }

    @Test
    void partitionedLinearTablesAreRangedWhereTheKeysSpreadAndHashedWhereTheyBunch() {
        Random rnd = new Random(26);
        for (boolean unique : new boolean[] {true, false}) {
            int n = 30_000;
            // spread over a span of about 150M: ranged, every key found, nothing outside the span or between keys
            long[][] spread = {new long[n]};
            for (int r = 0; r < n; r++) {
                spread[0][r] = unique ? -77 + r * 5_003L : -77 + rnd.nextInt(n / 4) * 20_011L;
            }
            JoinTable t = build(JoinBuildStrategy.PARTITIONED, buffers(spread, WORKERS), 1, JoinTable.Layout.LINEAR,
                    0, 0, false, unique, JoinTable.MAX_BITS);
            assertTrue(t.ranged, "evenly spread keys make a ranged table");
            check("ranged" + (unique ? " unique" : ""), t, spread, unique, rnd);
            long lo = Arrays.stream(spread[0]).min().orElseThrow();
            long hi = Arrays.stream(spread[0]).max().orElseThrow();
            for (long k : new long[] {lo - 1, hi + 1, lo + 1, hi - 1, Long.MIN_VALUE, Long.MAX_VALUE, lo + (1L << 32)}) {
                assertEquals(-1, t.find1(k), "ranged table, key " + k);
                assertEquals(-1, t.find(new long[] {k}), "ranged table, generic lookup of key " + k);
            }

            // most keys dense at the bottom of a span of 4e9, ten near its top: bunched, so hashed, every key found
            long[][] bunched = {new long[n]};
            for (int r = 0; r < n; r++) {
                bunched[0][r] = r < n - 10 ? (unique ? r : r / 3) : 4_000_000_000L + r;
            }
            t = build(JoinBuildStrategy.PARTITIONED, buffers(bunched, WORKERS), 1, JoinTable.Layout.LINEAR, 0, 0,
                    rnd.nextBoolean(), unique, JoinTable.MAX_BITS);
            assertFalse(t.ranged, "keys bunched in part of their span make a hashed table");
            check("bunched" + (unique ? " unique" : ""), t, bunched, unique, rnd);
        }
        // keys that span 2^32 values or more, and tables of two keys, are hashed
        long[][] wide = {{0, 1L << 32, 5, 6}};
        assertFalse(build(JoinBuildStrategy.PARTITIONED, buffers(wide, 2), 1, JoinTable.Layout.LINEAR, 0, 0, false,
                true, JoinTable.MAX_BITS).ranged);
        long[][] two = keys(rnd, 20_000, 2, true, 1_000_000);
        assertFalse(build(JoinBuildStrategy.PARTITIONED, buffers(two, WORKERS), 2, JoinTable.Layout.LINEAR, 0, 0,
                false, true, JoinTable.MAX_BITS).ranged);
    }

    @Test
    void oneKeyWithEveryRowChainsThemAll() {
        for (JoinBuildStrategy s : JoinBuildStrategy.values()) {
            for (JoinTable.Layout layout : JoinTable.Layout.values()) {
                long[][] keys = {new long[10_000]};
                Arrays.fill(keys[0], 42);
                JoinTable t = build(s, buffers(keys, WORKERS), 1, layout, 40, 50, false, false, JoinTable.MAX_BITS);
                check(s.label() + " " + layout.label() + " one key", t, keys, false, new Random(23));
            }
        }
    }

    @Test
    void duplicatesInATablePlannedUniqueFailWithEveryStrategy() {
        long[][] keys = keys(new Random(24), 20_000, 1, true, 0);
        keys[0][19_999] = keys[0][3];
        for (JoinBuildStrategy s : JoinBuildStrategy.values()) {
            for (JoinTable.Layout layout : List.of(JoinTable.Layout.LINEAR, JoinTable.Layout.CUCKOO2)) {
                assertThrows(IllegalStateException.class, () -> build(s, buffers(keys, 3), 1, layout, 0, 0, false,
                        true, JoinTable.MAX_BITS), s + " " + layout);
            }
            long[][] small = {{1, 2, 3, 2}};
            assertThrows(IllegalStateException.class, () -> build(s, buffers(small, 2), 1, JoinTable.Layout.PERFECT,
                    0, 5, false, true, JoinTable.MAX_BITS), s + " perfect");
            long[][] outside = {{1, 2, 9}};
            assertThrows(IllegalStateException.class, () -> build(s, buffers(outside, 2), 1, JoinTable.Layout.PERFECT,
                    0, 5, false, false, JoinTable.MAX_BITS), s + " perfect key outside its range");
        }
    }

    @Test
    void parallelCuckooGrowsOrStashesKeysThatFindNoSlot() {
        Random rnd = new Random(25);
        for (JoinTable.Layout layout : List.of(JoinTable.Layout.CUCKOO2, JoinTable.Layout.CUCKOO4)) {
            for (boolean unique : new boolean[] {true, false}) {
                // 16 slots at most: some keys must go to the stash
                long[][] keys = keys(rnd, unique ? 40 : 120, 2, unique, 0);
                JoinTable t = build(JoinBuildStrategy.PARTITIONED, buffers(keys, 4), 2, layout, 0, 0, true, unique, 4);
                assertEquals(16, t.slotRows.length);
                assertTrue(t.stashSize > 0, layout + " with 16 slots left no key in the stash");
                check("partitioned " + layout.label() + " stash", t, keys, unique, rnd);
            }
            // a table that must grow: every key in one of its candidate slots afterwards
            long[][] keys = keys(rnd, 50_000, 1, true, 0);
            JoinTable t = build(JoinBuildStrategy.PARTITIONED, buffers(keys, WORKERS), 1, layout, 0, 0, false, true,
                    JoinTable.MAX_BITS);
            for (int s = 0; s < t.slotRows.length; s++) {
                int r = t.slotRows[s];
                if (r >= 0) {
                    assertEquals(keys[0][(int) t.payload.longs[1][r]], t.slotKeys[s]);
                    boolean candidate = false;
                    for (int fn = 0; fn < t.ways; fn++) {
                        candidate |= Hashing.cuckoo(t.slotKeys[s], fn, t.bits, false) == s;
                    }
                    assertTrue(candidate, layout + ": a key outside its candidate slots");
                }
            }
        }
    }

    @Test
    void partitionedLinearTablesAreTheSizeOfSerialOnesAndProbeAlike() {
        // the probes read the table's bits and slots as they are: the same size as the serial build's
        long[][] keys = keys(new Random(26), 100_000, 1, false, 0);
        JoinTable serial = build(JoinBuildStrategy.SERIAL, buffers(keys, 4), 1, JoinTable.Layout.LINEAR, 0, 0, true,
                false, JoinTable.MAX_BITS);
        for (JoinBuildStrategy s : List.of(JoinBuildStrategy.PARTITIONED, JoinBuildStrategy.ATOMIC)) {
            JoinTable t = build(s, buffers(keys, 4), 1, JoinTable.Layout.LINEAR, 0, 0, true, false, JoinTable.MAX_BITS);
            assertEquals(serial.bits, t.bits);
            assertEquals(serial.slotRows.length, t.slotRows.length);
            for (int i = 0; i < 1000; i++) {
                long k = keys[0][i * 97];
                assertNotEquals(-1, t.find1(k));
                assertEquals(serial.payload.longs[2][serial.find1(k)], t.payload.longs[2][t.find1(k)]);
            }
        }
    }

    @Test
    void strategiesAreNamedAsTheGenomeNamesThem() {
        for (JoinBuildStrategy s : JoinBuildStrategy.values()) {
            assertEquals(s, JoinBuildStrategy.of(s.label()));
        }
        assertEquals(List.of("serial", "partitioned", "atomic"),
                Arrays.stream(JoinBuildStrategy.values()).map(JoinBuildStrategy::label).toList());
    }
}
