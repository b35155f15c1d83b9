package io.tessera.backend.jvm.join;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.RowBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Join tables of every hashed layout against a plain map of the same rows: lookups, duplicate chains, misses. */
class JoinTableTest {

    private static final JoinTable.Layout[] HASHED = {JoinTable.Layout.LINEAR, JoinTable.Layout.CUCKOO2,
            JoinTable.Layout.CUCKOO3, JoinTable.Layout.CUCKOO4};

    /** A build side: payload column 0 holds the row's number, then {@code keys[k]} as LONG key columns. */
    private static RowBuffer rows(long[][] keys) {
        int n = keys[0].length;
        ValueKind[] kinds = new ValueKind[1 + keys.length];
        kinds[0] = ValueKind.INT;
        Arrays.fill(kinds, 1, kinds.length, ValueKind.LONG);
        RowBuffer b = new RowBuffer(kinds, n);
        for (int r = 0; r < n; r++) {
            int w = b.next();
            b.ints[0][w] = r;
            for (int k = 0; k < keys.length; k++) {
                b.longs[1 + k][w] = keys[k][r];
            }
        }
        return b;
    }

    /** Random keys from a small domain (duplicates) or distinct ones, with extreme values mixed in. */
    private static long[][] keys(Random rnd, int n, int width, boolean unique) {
        long[][] keys = new long[width][n];
        Set<List<Long>> seen = new HashSet<>();
        long[] extremes = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, 1L << 40};
        for (int r = 0; r < n; r++) {
            while (true) {
                List<Long> key = new ArrayList<>();
                for (int k = 0; k < width; k++) {
                    long v = rnd.nextInt(10) == 0 ? extremes[rnd.nextInt(extremes.length)]
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

    /** Every key finds exactly its rows (first, then the chain), and keys not built find nothing. */
    private static void check(JoinTable t, long[][] keys, boolean unique, Random rnd) {
        int n = keys[0].length;
        Map<List<Long>, List<Integer>> expected = new HashMap<>();
        for (int r = 0; r < n; r++) {
            List<Long> key = new ArrayList<>();
            for (long[] k : keys) {
                key.add(k[r]);
            }
            expected.computeIfAbsent(key, x -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<List<Long>, List<Integer>> e : expected.entrySet()) {
            long[] key = e.getKey().stream().mapToLong(Long::longValue).toArray();
            List<Integer> found = new ArrayList<>();
            for (int r = lookup(t, key); r >= 0; r = unique ? -1 : t.next[r]) {
                found.add(t.payload.ints[0][r]);
            }
            assertEquals(e.getValue(), found, t.layout + " key " + e.getKey());
            assertEquals(found.get(0), t.find(key), t.layout + " generic lookup of " + e.getKey());
        }
        for (int i = 0; i < 200; i++) {
            long[] key = new long[keys.length];
            for (int k = 0; k < key.length; k++) {
                key[k] = rnd.nextLong();
            }
            if (!expected.containsKey(Arrays.stream(key).boxed().toList())) {
                assertEquals(-1, lookup(t, key), t.layout + " absent key " + Arrays.toString(key));
            }
        }
    }

    @Test
    void everyHashedLayoutFindsExactlyTheBuiltRows() {
        Random rnd = new Random(11);
        for (JoinTable.Layout layout : HASHED) {
            for (boolean murmur : new boolean[] {false, true}) {
                for (boolean unique : new boolean[] {true, false}) {
                    for (int width = 1; width <= 3; width++) {
                        for (int n : new int[] {0, 1, 7, 1000, 20_000}) {
                            long[][] keys = keys(rnd, n, width, unique);
                            JoinTable t = JoinTable.build(rows(keys), 1, width, layout, 0, 0, murmur, unique);
                            if (n > 0) {
                                check(t, keys, unique, rnd);
                            }
                            assertEquals(0, t.stashSize, layout + " needed a stash for " + n + " keys");
                        }
                    }
                }
            }
        }
    }

    @Test
    void cuckooKeysSitInOneOfTheirCandidateSlots() {
        Random rnd = new Random(12);
        for (JoinTable.Layout layout : new JoinTable.Layout[] {JoinTable.Layout.CUCKOO2, JoinTable.Layout.CUCKOO3,
                JoinTable.Layout.CUCKOO4}) {
            for (boolean murmur : new boolean[] {false, true}) {
                long[][] keys = keys(rnd, 5000, 1, true);
                JoinTable t = JoinTable.build(rows(keys), 1, 1, layout, 0, 0, murmur, true);
                assertEquals(layout.ways, t.ways);
                int occupied = 0;
                for (int s = 0; s < t.slotRows.length; s++) {
                    int r = t.slotRows[s];
                    if (r < 0) {
                        continue;
                    }
                    occupied++;
                    long k = keys[0][r];
                    assertEquals(k, t.slotKeys[s]);
                    boolean candidate = false;
                    for (int fn = 0; fn < t.ways; fn++) {
                        candidate |= Hashing.cuckoo(k, fn, t.bits, murmur) == s;
                    }
                    assertTrue(candidate, layout + ": key " + k + " in slot " + s + ", not one of its candidates");
                }
                assertEquals(5000, occupied, layout + ": every distinct key has one slot");
            }
        }
    }

    @Test
    void cuckooKeysThatFindNoSlotGoToTheStashAndAreFound() {
        Random rnd = new Random(13);
        for (JoinTable.Layout layout : new JoinTable.Layout[] {JoinTable.Layout.CUCKOO2, JoinTable.Layout.CUCKOO4}) {
            for (boolean unique : new boolean[] {true, false}) {
                for (int width = 1; width <= 2; width++) {
                    // 16 slots at most: at least 4 of 20 distinct keys cannot have one
                    long[][] keys = keys(rnd, unique ? 20 : 60, width, unique);
                    JoinTable t = JoinTable.build(rows(keys), 1, width, layout, 0, 0, false, unique, 4);
                    assertEquals(16, t.slotRows.length);
                    assertTrue(t.stashSize > 0, layout + " with 16 slots left no key in the stash");
                    check(t, keys, unique, rnd);
                }
            }
        }
    }

    @Test
    void perfectTableIndexesTheKeyRange() {
        long[][] keys = {{5, 9, 5, 7, 12}};
        JoinTable t = JoinTable.build(rows(keys), 1, 1, JoinTable.Layout.PERFECT, 5, 12, false, false);
        check(t, keys, false, new Random(14));
        assertEquals(-1, t.find1(4));
        assertEquals(-1, t.find1(13));
        assertThrows(IllegalStateException.class,
                () -> JoinTable.build(rows(new long[][] {{1, 1}}), 1, 1, JoinTable.Layout.CUCKOO3, 0, 0, false, true));
    }

    @Test
    void layoutsAreNamedAsTheGenomeNamesThem() {
        for (JoinTable.Layout l : JoinTable.Layout.values()) {
            assertEquals(l, JoinTable.Layout.of(l.label()));
        }
        assertEquals(List.of("perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4"),
                Arrays.stream(JoinTable.Layout.values()).map(JoinTable.Layout::label).toList());
    }

    @Test
    void marksAreMadeOnceAndThePayloadIsReadAsColumns() {
        RowBuffer b = rows(new long[][] {{7, 7, 9}});
        b.setNull(0, 1);
        JoinTable t = JoinTable.build(b, 1, 1, JoinTable.Layout.LINEAR, 0, 0, false, false);
        byte[] marks = t.marks();
        assertEquals(3, marks.length);
        assertTrue(marks == t.marks(), "one array of marks per table");
        List<io.tessera.backend.host.ColumnData> cols = t.payloadColumns(
                List.of(new io.tessera.plan.ColumnInfo("n", io.tessera.storage.DataType.INTEGER, true, null)), k -> null);
        assertEquals(1, cols.size());
        java.lang.foreign.MemorySegment data = cols.get(0).data();
        java.lang.foreign.MemorySegment valid = cols.get(0).validity();
        assertEquals(2, data.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, 2));
        assertEquals(0b101L, valid.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG, 0) & 0b111L,
                "row 1's payload is NULL, rows 0 and 2 are valid");
        assertEquals(1, JoinTable.build(rows(new long[][] {{}}), 1, 1, JoinTable.Layout.LINEAR, 0, 0, false, false)
                .marks().length, "an empty table has one mark, never read");
    }
}
