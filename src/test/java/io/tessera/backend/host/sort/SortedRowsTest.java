package io.tessera.backend.host.sort;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.SortKey;
import io.tessera.storage.CodePointOrder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sort of rows in runs merged by workers against a plain stable sort with a comparator written here from SQL's
 * rules: every key kind (integers, BIGINT over its whole range, DOUBLE with -0.0, NaN and infinities, BOOLEAN,
 * dictionary codes, strings by code point), NULLs first and last, ascending and descending, many duplicates (rows
 * equal in every key stay in row order), keys wider than one long, subsets of rows, 1 to 7 runs on 1 or 3 threads,
 * no rows, and fewer rows than runs.
 */
class SortedRowsTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final HostWorkers THREE = new HostWorkers(POOL, 3, () -> { });

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    private static final ValueKind[] KINDS = {ValueKind.INT, ValueKind.LONG, ValueKind.DOUBLE, ValueKind.BOOL, ValueKind.CODE, ValueKind.STRING, ValueKind.LONG};
    private static final String[] STRINGS = {"", "a", "ab", "b", "\uFF5A", "\uD83D\uDE00", "z", "Z", "\u00e9"};
    private static final double[] DOUBLES = {0.0, -0.0, 1.5, -1.5, Double.NaN, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MAX_VALUE, 1e300};

    /** Rows with few distinct values per column (many ties), NULLs in every column but the last with {@code nulls}. */
    static RowBuffer rows(Random rnd, int n, boolean nulls, boolean wideLongs) {
        RowBuffer b = new RowBuffer(KINDS.clone(), 16);
        for (int r = 0; r < n; r++) {
            int w = b.next();
            b.ints[0][w] = rnd.nextInt(7) - 3;
            b.longs[1][w] = wideLongs ? switch (rnd.nextInt(4)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                default -> rnd.nextLong();
            } : rnd.nextInt(5) * 1_000_000_007L;
            b.doubles[2][w] = DOUBLES[rnd.nextInt(DOUBLES.length)];
            b.bytes[3][w] = (byte) rnd.nextInt(2);
            b.ints[4][w] = rnd.nextInt(4);
            b.strings[5][w] = STRINGS[rnd.nextInt(STRINGS.length)];
            b.longs[6][w] = rnd.nextInt(3);
            for (int c = 0; c < 6 && nulls; c++) {
                if (rnd.nextInt(5) == 0) {
                    b.setNull(c, w);
                }
            }
        }
        return b;
    }

    /** SQL's order of two rows by the keys, written independently of the code under test. */
    static int reference(RowBuffer b, SortKey[] keys, int x, int y) {
        for (SortKey k : keys) {
            int c = k.column();
            boolean nx = b.isNull(c, x);
            boolean ny = b.isNull(c, y);
            if (nx && ny) {
                continue;
            }
            if (nx || ny) {
                return nx == k.nullsFirst() ? -1 : 1;
            }
            int r = switch (b.kinds[c]) {
                case INT, CODE -> Integer.compare(b.ints[c][x], b.ints[c][y]);
                case LONG -> Long.compare(b.longs[c][x], b.longs[c][y]);
                case DOUBLE -> Double.compare(b.doubles[c][x] + 0.0, b.doubles[c][y] + 0.0);
                case BOOL -> Byte.compare(b.bytes[c][x], b.bytes[c][y]);
                case STRING -> Integer.signum(CodePointOrder.compare(b.strings[c][x], b.strings[c][y]));
            };
            if (r != 0) {
                return k.descending() ? -r : r;
            }
        }
        return 0;
    }

    static int[] expected(RowBuffer b, SortKey[] keys, int[] rows, int count) {
        Integer[] idx = new Integer[count];
        for (int i = 0; i < count; i++) {
            idx[i] = rows == null ? i : rows[i];
        }
        Arrays.sort(idx, ((Comparator<Integer>) (x, y) -> reference(b, keys, x, y)).thenComparing(Comparator.naturalOrder()));
        return Arrays.stream(idx).mapToInt(Integer::intValue).toArray();
    }

    static SortKey[] randomKeys(Random rnd) {
        int nk = 1 + rnd.nextInt(4);
        List<Integer> cols = new ArrayList<>();
        for (int c = 0; c < KINDS.length; c++) {
            cols.add(c);
        }
        java.util.Collections.shuffle(cols, rnd);
        SortKey[] keys = new SortKey[nk];
        for (int k = 0; k < nk; k++) {
            keys[k] = new SortKey(cols.get(k), rnd.nextBoolean(), rnd.nextBoolean());
        }
        return keys;
    }

    @Test
    void randomRowsSortAsTheReferenceInAnyNumberOfRuns() {
        Random rnd = new Random(42);
        for (int round = 0; round < 60; round++) {
            int n = rnd.nextInt(4) == 0 ? rnd.nextInt(12) : 200 + rnd.nextInt(5000);
            RowBuffer b = rows(rnd, n, rnd.nextBoolean(), rnd.nextBoolean());
            SortKey[] keys = randomKeys(rnd);
            int[] want = expected(b, keys, null, n);
            for (int runs : new int[] {1, 2, 3, 7}) {
                for (HostWorkers w : new HostWorkers[] {HostWorkers.ONE, THREE}) {
                    int[] got = SortedRows.sort(b, keys, runs, w).order;
                    assertArrayEquals(want, got, "round " + round + ", " + n + " rows, keys "
                            + Arrays.toString(keys) + ", " + runs + " runs on " + w.threads() + " threads");
                }
            }
        }
    }

    @Test
    void keysWiderThanOneLongSortByWords() {
        Random rnd = new Random(7);
        RowBuffer b = rows(rnd, 3000, true, true);
        // BIGINT over its whole range (64 bits and a NULL bit), then a DOUBLE's 64 bits, then strings
        SortKey[] keys = {new SortKey(1, true, false), new SortKey(2, false, true), new SortKey(5, false, false)};
        KeyEncoding enc = KeyEncoding.of(b, keys, null, b.size, HostWorkers.ONE);
        assertTrue(enc.packed == null, "words");
        assertEquals(3, enc.words.length);
        for (int runs : new int[] {1, 4}) {
            assertArrayEquals(expected(b, keys, null, b.size), SortedRows.sort(b, keys, runs, THREE).order);
        }
    }

    @Test
    void narrowKeysPackIntoOneLongPerRow() {
        RowBuffer b = rows(new Random(3), 1000, false, false);
        KeyEncoding enc = KeyEncoding.of(b, new SortKey[] {new SortKey(0, false, false), new SortKey(4, true, true)},
                null, b.size, HostWorkers.ONE);
        // -3..3 in 3 bits, codes 0..3 in 2 bits, no NULL bits; row numbers below 1024 in 10 bits
        assertArrayEquals(new int[] {3, 2}, enc.fieldBits);
        assertEquals(10, enc.rowBits);
        assertEquals(1000, enc.packed.length);
    }

    @Test
    void keysOfOneWordWithTheRowNumbersBesideThem() {
        Random rnd = new Random(13);
        RowBuffer b = rows(rnd, 3000, true, false);
        for (int r = 0; r < b.size; r++) {
            b.longs[1][r] = rnd.nextLong() >> 14;
        }
        // 50 bits and a NULL bit, a BOOLEAN's bit and a NULL bit, 3 bits and a NULL bit: 57 key bits, and with 12
        // row bits more than 63
        SortKey[] keys = {new SortKey(1, true, true), new SortKey(3, false, false), new SortKey(0, true, false)};
        KeyEncoding enc = KeyEncoding.of(b, keys, null, b.size, HostWorkers.ONE);
        assertEquals(57, enc.keyBits);
        assertTrue(enc.packed == null, "words");
        assertEquals(1, enc.words.length);
        for (int runs : new int[] {1, 2, 5}) {
            assertArrayEquals(expected(b, keys, null, b.size), SortedRows.sort(b, keys, runs, THREE).order);
        }
    }

    @Test
    void aSubsetOfRowsSortsAmongItself() {
        Random rnd = new Random(11);
        RowBuffer b = rows(rnd, 4000, true, false);
        int[] subset = new int[1500];
        for (int i = 0, r = 0; i < subset.length; i++, r += 1 + rnd.nextInt(2)) {
            subset[i] = r;
        }
        SortKey[] keys = {new SortKey(5, true, true), new SortKey(2, false, false)};
        for (int runs : new int[] {1, 3}) {
            assertArrayEquals(expected(b, keys, subset, subset.length),
                    SortedRows.sort(b, keys, subset, subset.length, runs, THREE).order);
        }
    }

    @Test
    void sameKeysComparesPrefixesOfTheOrder() {
        Random rnd = new Random(5);
        for (boolean wide : new boolean[] {false, true}) {
            RowBuffer b = rows(rnd, 2000, true, wide);
            SortKey[] keys = {new SortKey(1, false, true), new SortKey(0, true, false), new SortKey(3, false, false)};
            SortedRows s = SortedRows.sort(b, keys, 3, THREE);
            for (int p = 1; p < b.size; p++) {
                for (int m = 0; m <= keys.length; m++) {
                    boolean same = reference(b, Arrays.copyOf(keys, m), s.order[p - 1], s.order[p]) == 0;
                    assertEquals(same, s.sameKeys(p - 1, p, m), "positions " + (p - 1) + ", " + p + ", " + m + " keys");
                }
            }
        }
    }

    @Test
    void noKeysNoRowsAndOneRow() {
        RowBuffer b = rows(new Random(1), 5, true, false);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, SortedRows.sort(b, new SortKey[0], 3, THREE).order);
        RowBuffer empty = rows(new Random(1), 0, true, false);
        assertArrayEquals(new int[0], SortedRows.sort(empty, new SortKey[] {new SortKey(0, false, false)}, 4, THREE).order);
        RowBuffer one = rows(new Random(1), 1, true, false);
        assertArrayEquals(new int[] {0}, SortedRows.sort(one, new SortKey[] {new SortKey(2, true, true)}, 4, THREE).order);
    }

    @Test
    void sorterKeepsTheFirstRowsOfALimit() {
        Random rnd = new Random(9);
        RowBuffer b = rows(rnd, 3000, true, false);
        SortKey[] keys = {new SortKey(0, true, false), new SortKey(6, false, false)};
        int[] all = expected(b, keys, null, b.size);
        for (long limit : new long[] {0, 1, 10, 700, 2999, 3000, 5000}) {
            int[] got = Sorter.order(b, keys, limit, 3, THREE);
            int k = (int) Math.min(limit, b.size);
            assertTrue(got.length >= k);
            for (int i = 0; i < k; i++) {
                // ties at the cut may take either row: compare the keys
                assertEquals(0, reference(b, keys, all[i], got[i]), "limit " + limit + ", row " + i);
            }
        }
    }
}
