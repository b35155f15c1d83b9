package io.tessera.backend.cuda.ops;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The layout of the search index (tessera_search_index_G's) and its descent on the host against a plain binary
 * search: sizes around whole lines and levels, duplicates in long runs, and keys at both ends of the unsigned range.
 */
class SearchIndexTest {

    @Test
    void layoutOfTwoToTheTwentyFourKeys() {
        long n = 1L << 24;
        assertEquals(5, SearchIndex.levels(n)); // 16^5 entries of level 1 ... 16 of level 5
        assertEquals(16, SearchIndex.entries(n, 5));
        assertEquals(1L << 20, SearchIndex.entries(n, 1));
        assertEquals(0, SearchIndex.offset(n, 5));
        assertEquals(16 + 256 + 4096 + 65536, SearchIndex.offset(n, 1));
        assertEquals(16 + 256 + 4096 + 65536 + (1L << 20), SearchIndex.size(n));
    }

    @Test
    void smallAndRaggedSizesPadToWholeLines() {
        assertEquals(1, SearchIndex.levels(1));
        assertEquals(16, SearchIndex.size(1)); // one entry padded to a line
        assertEquals(1, SearchIndex.levels(256));
        assertEquals(2, SearchIndex.levels(257));
        assertEquals(17, SearchIndex.entries(257, 1));
        assertEquals(32, SearchIndex.padded(257, 1));
        assertEquals(16 + 32, SearchIndex.size(257));
        assertThrows(IllegalArgumentException.class, () -> SearchIndex.levels(0));
    }

    @Test
    void descentEqualsBinarySearch() {
        Random r = new Random(36);
        int[] sizes = {1, 2, 15, 16, 17, 255, 256, 257, 4095, 4096, 4097, 10_000, 65_537, 70_001};
        for (int n : sizes) {
            for (int spread : new int[] {3, 1_000_000}) {
                long[] sorted = new long[n];
                for (int i = 0; i < n; i++) {
                    // runs of equal keys (spread 3: long runs), and the top of the unsigned range
                    sorted[i] = r.nextInt(8) == 0 ? -1L - r.nextInt(2) : r.nextInt(spread);
                }
                long[] keys = Arrays.stream(sorted).map(k -> k ^ Long.MIN_VALUE).sorted().map(k -> k ^ Long.MIN_VALUE)
                        .toArray();
                long[] index = SearchIndex.hostIndex(keys);
                assertEquals(SearchIndex.size(n), index.length);
                for (int t = 0; t < 400; t++) {
                    long q = switch (t % 5) {
                        case 0 -> keys[r.nextInt(n)];
                        case 1 -> keys[r.nextInt(n)] + 1;
                        case 2 -> r.nextInt(spread + 2);
                        case 3 -> t % 2 == 0 ? 0 : -1L;
                        default -> -2L;
                    };
                    for (boolean upper : new boolean[] {false, true}) {
                        assertEquals(binary(keys, q, upper), SearchIndex.bound(keys, index, q, upper),
                                "n " + n + ", q " + Long.toUnsignedString(q) + ", upper " + upper);
                    }
                }
            }
        }
    }

    private static long binary(long[] keys, long q, boolean upper) {
        int lo = 0;
        int hi = keys.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(keys[mid], q);
            if (c < 0 || (upper && c == 0)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
