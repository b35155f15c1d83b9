package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.lib.Hashing;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
                assertTrue(BloomFilter.mayContain(f.words, f.blockBits, hash(k)), "key " + k + " of " + n);
            }
            int kept = 0;
            int tried = 200_000;
            for (int i = 0; i < tried; i++) {
                long k = rnd.nextLong();
                if (!set.contains(k) && BloomFilter.mayContain(f.words, f.blockBits, hash(k))) {
                    kept++;
                }
            }
            // about 3% at 8 bits a key; a table of one row has a whole block to itself
            assertTrue(kept < tried / 12, kept + " of " + tried + " absent keys kept over " + n + " keys");
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
            assertTrue(BloomFilter.mayContain(f.words, f.blockBits, hash(keys[0][r], keys[1][r])));
            kept += BloomFilter.mayContain(f.words, f.blockBits, hash(keys[0][r] + 1000, keys[1][r])) ? 1 : 0;
        }
        assertTrue(kept < n / 12, kept + " of " + n + " absent key pairs kept");
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
