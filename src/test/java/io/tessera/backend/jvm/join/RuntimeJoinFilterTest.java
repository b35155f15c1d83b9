package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.HostWorkers;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runtime join filters over a table's keys: ranges and Bloom filters never drop a key of the table. */
class RuntimeJoinFilterTest {

    /** The Bloom filter's hash of a row's keys, as the generated probing code computes it. */
    private static long hash(long... keys) {
        if (keys.length == 1) {
            return BloomFilter.mix(keys[0]);
        }
        long h = 0;
        for (long k : keys) {
            h = Hashing.combine(h, k);
        }
        return BloomFilter.mix(h);
    }

    @Test
    void bloomFilterKeepsEveryKeyAndFewOthers() {
        Random rnd = new Random(4);
        for (int n : List.of(1, 10, 1000, 100_000)) {
            long[] keys = new long[n];
            Set<Long> set = new HashSet<>();
            for (int r = 0; r < n; r++) {
                keys[r] = rnd.nextInt(10) == 0 ? Long.MIN_VALUE + r : rnd.nextLong();
                set.add(keys[r]);
            }
            BloomFilter f = BloomFilter.over(new long[][] {keys}, n);
            for (long k : keys) {
                assertTrue(BloomFilter.mayContain(f.words, f.blocks, hash(k)), "key " + k + " of " + n);
            }
            int kept = 0;
            int tried = 200_000;
            for (int i = 0; i < tried; i++) {
                long k = rnd.nextLong();
                if (!set.contains(k) && BloomFilter.mayContain(f.words, f.blocks, hash(k))) {
                    kept++;
                }
            }
            // about 1.3% at 10 bits a key (below); a table of one row has a whole block to itself
            assertTrue(kept < tried / 12, kept + " of " + tried + " absent keys kept over " + n + " keys");
        }
    }

    /**
     * The false-positive rate stays under 2% for random keys and for dense ones (as a table's key column of row
     * numbers), at sizes that fill the last block and at sizes that leave it nearly empty.
     */
    @Test
    void bloomFilterFalsePositiveRateIsUnderTwoPercent() {
        Random rnd = new Random(7);
        for (int n : List.of(51_200, 65_536, 200_001, 1 << 20)) {
            for (boolean dense : List.of(false, true)) {
                long[] keys = new long[n];
                Set<Long> set = new HashSet<>();
                for (int r = 0; r < n; r++) {
                    keys[r] = dense ? r : rnd.nextLong();
                    set.add(keys[r]);
                }
                BloomFilter f = BloomFilter.over(new long[][] {keys}, n);
                assertTrue(f.words.length * 64L <= (long) n * BloomFilter.TARGET_BITS_PER_KEY + 512,
                        "at most one block beyond the target size");
                int tried = 500_000;
                int kept = 0;
                for (int i = 0; i < tried; i++) {
                    long k = dense ? n + (long) i : rnd.nextLong();
                    if (!set.contains(k) && BloomFilter.mayContain(f.words, f.blocks, hash(k))) {
                        kept++;
                    }
                }
                double rate = kept / (double) tried;
                assertTrue(rate < 0.02, "false positives " + rate + " over " + n + (dense ? " dense" : " random") + " keys");
            }
        }
    }

    @Test
    void bloomFilterOverTwoKeysHashesTheirCombination() {
        Random rnd = new Random(5);
        int n = 5000;
        long[][] keys = new long[2][n];
        for (int r = 0; r < n; r++) {
            keys[0][r] = rnd.nextInt(100);
            keys[1][r] = rnd.nextInt(1000);
        }
        BloomFilter f = BloomFilter.over(keys, n);
        int kept = 0;
        for (int r = 0; r < n; r++) {
            assertTrue(BloomFilter.mayContain(f.words, f.blocks, hash(keys[0][r], keys[1][r])));
            kept += BloomFilter.mayContain(f.words, f.blocks, hash(keys[0][r] + 1000, keys[1][r])) ? 1 : 0;
        }
        assertTrue(kept < n / 12, kept + " of " + n + " absent key pairs kept");
    }

    @Test
    void bloomFilterMadeByManyWorkersPassesEveryMatchingProbeRow() {
        Random rnd = new Random(6);
        int n = 300_000;
        long[][] keys = new long[2][n];
        Set<Long> built = new HashSet<>();
        for (int r = 0; r < n; r++) {
            // keys that repeat, so that chunks on different threads set bits of the same words
            keys[0][r] = rnd.nextInt(n / 3) * 7L;
            keys[1][r] = rnd.nextInt(5);
            built.add(keys[0][r]);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            HostWorkers four = new HostWorkers(pool, 4, () -> { });
            assertTrue(n >= BloomFilter.MIN_PARALLEL_ROWS && four.chunkSize(n, BloomFilter.MIN_PARALLEL_ROWS / 4) < n,
                    "the rows are cut into chunks for several threads");
            for (int round = 0; round < 3; round++) {
                BloomFilter one = BloomFilter.over(new long[][] {keys[0]}, n);
                BloomFilter many = BloomFilter.over(new long[][] {keys[0]}, n, four);
                assertEquals(one.blocks, many.blocks);
                assertArrayEquals(one.words, many.words, "the workers' filter is the one thread's");
                // probe rows: every build key once and as many keys that no build row has
                int passed = 0;
                for (long k = 0; k < 7L * n / 3 + 7; k++) {
                    boolean mayMatch = BloomFilter.mayContain(many.words, many.blocks, hash(k));
                    if (built.contains(k)) {
                        assertTrue(mayMatch, "probe key " + k + " has a build row and must pass");
                        passed++;
                    }
                }
                assertEquals(built.size(), passed);
                BloomFilter pairs = BloomFilter.over(keys, n, four);
                for (int r = 0; r < n; r++) {
                    assertTrue(BloomFilter.mayContain(pairs.words, pairs.blocks, hash(keys[0][r], keys[1][r])),
                            "probe row with the keys of build row " + r);
                }
                assertArrayEquals(BloomFilter.over(keys, n).words, pairs.words);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void keyRangesPerColumnAndEmptyOnesKeepNothing() {
        long[][] keys = {{5, -3, 9, 100}, {Long.MAX_VALUE, 0, 7, 7}};
        KeyRanges r = KeyRanges.over(keys, 3);
        assertArrayEquals(new long[] {-3, 0}, r.min(), "only the first three rows are the table's");
        assertArrayEquals(new long[] {9, Long.MAX_VALUE}, r.max());
        KeyRanges empty = KeyRanges.over(new long[][] {{}}, 0);
        for (long k : new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE}) {
            assertTrue(k < empty.min()[0] || k > empty.max()[0], "an empty table's range holds " + k);
        }
    }
}
