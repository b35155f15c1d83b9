package io.tessera.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host side of the GPU micro-benchmarks (their kernels run on the GPU machine): the keys they make, the checks
 * they apply to the GPU's answers, and how the CUB reference is found and read.
 */
class GpuMicroBenchHostTest {

    @TempDir
    Path dir;

    private static MemorySegment longs(Arena a, long... v) {
        return a.allocateFrom(JAVA_LONG, v);
    }

    @Test
    void keysAreSplitMix64AsTheCubReferenceMakesThem() {
        // SplitMix64's first output from state 0 is its finalizer of the golden gamma: 0xE220A8397B1DCDAF
        assertEquals(0xE220A8397B1DCDAFL, GpuSortBench.key(1, 0, 64));
        assertEquals(0xE220A8397B1DCDAFL & 0xFFFF_FFFFL, GpuSortBench.key(1, 0, 32));
        assertTrue(GpuSortBench.key(42, 7, 8) >= 0 && GpuSortBench.key(42, 7, 8) < 256);
    }

    @Test
    void theSortCheckFindsDisorderInstabilityAndLostRows() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment keys = longs(a, 5, -1, 5, 0); // -1 is the largest unsigned key
            assertNull(GpuSortBench.checkSorted(keys, longs(a, 3, 0, 2, 1), 4));
            assertNotNull(GpuSortBench.checkSorted(keys, longs(a, 3, 2, 0, 1), 4)); // equal keys out of row order
            assertNotNull(GpuSortBench.checkSorted(keys, longs(a, 3, 1, 0, 2), 4)); // -1 before 5
            assertNotNull(GpuSortBench.checkSorted(keys, longs(a, 3, 0, 0, 1), 4)); // row 0 twice
            assertNotNull(GpuSortBench.checkSorted(keys, longs(a, 3, 0, 2, 4), 4)); // no row 4
            // the checksum sees the order: (1 * 3 + 2 * 0 + 3 * 2 + 4 * 1) against a swap
            assertEquals(13, GpuSortBench.checksum(longs(a, 3, 0, 2, 1), 4));
            assertEquals(11, GpuSortBench.checksum(longs(a, 3, 2, 0, 1), 4));
        }
    }

    @Test
    void searchKeysAreSortedInPairsAndTheHostBoundsAreRanges() {
        long n = 1000;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment keys = a.allocate(n * 8, 8);
            for (long i = 0; i < n; i++) {
                keys.setAtIndex(JAVA_LONG, i, GpuSearchBench.sortedKey(3, i));
                if (i > 0) {
                    assertTrue(keys.getAtIndex(JAVA_LONG, i - 1) <= keys.getAtIndex(JAVA_LONG, i));
                }
            }
            long k = GpuSearchBench.sortedKey(3, 500);
            assertEquals(500, GpuSearchBench.bound(keys, n, k, false));
            assertEquals(502, GpuSearchBench.bound(keys, n, k, true));
            assertEquals(0, GpuSearchBench.bound(keys, n, 0, false));
            assertEquals(n, GpuSearchBench.bound(keys, n, Long.MAX_VALUE, false));
            MemorySegment q = longs(a, k, k + 4);
            MemorySegment lo = longs(a, 500, GpuSearchBench.bound(keys, n, k + 4, false));
            MemorySegment hi = longs(a, 502, GpuSearchBench.bound(keys, n, k + 4, true));
            assertNull(GpuSearchBench.checkSample(keys, n, q, 2, lo, hi));
            lo.setAtIndex(JAVA_LONG, 0, 501);
            assertNotNull(GpuSearchBench.checkSample(keys, n, q, 2, lo, hi));
        }
        for (long j = 0; j < 100; j++) {
            long l = GpuSearchBench.lookup(3, j, n);
            assertTrue(l >= 0 && l < n * 4 + 8, "lookup " + l);
        }
    }

    @Test
    void theCubReferencesLineIsRead() {
        CubReference.Result r = CubReference.parse("cub_sort rows=1000 bits=64 runs=5 median_ms=0.0500 "
                + "keys_per_s=2.000000e+10 checksum=18446744073709551615 sorted=1");
        assertEquals(1000, r.rows());
        assertEquals(0.05, r.medianMillis(), 1e-12);
        assertEquals(2e10, r.keysPerSecond(), 1);
        assertEquals(-1L, r.checksum());
        assertTrue(r.sorted());
        assertThrows(IllegalArgumentException.class, () -> CubReference.parse("cub_sort rows=x"));
    }

    @Test
    void aReferenceThatCannotRunSaysWhy() throws Exception {
        Path notExecutable = Files.writeString(dir.resolve("cub_sort_ref"), "");
        CubReference.Found f = CubReference.find(notExecutable, null, 9, 0);
        assertNull(f.binary());
        assertTrue(f.why().contains("not an executable"), f.why());
        // nvcc is looked for on the PATH given and under /usr/local/cuda*
        Path fake = Files.createDirectories(dir.resolve("bin"));
        Path nvcc = Files.writeString(fake.resolve("nvcc"), "#!/bin/sh\n");
        assertTrue(nvcc.toFile().setExecutable(true));
        assertEquals(nvcc, CubReference.nvcc(fake.toString()));
        if (CubReference.nvcc(null) != null && !Files.isExecutable(CubReference.PREBUILT)) {
            CubReference.Found missing = CubReference.find(null, dir.resolve("absent.cu"), 9, 0);
            assertNull(missing.binary());
            assertTrue(missing.why().contains("is missing"), missing.why());
        }
    }

    @Test
    void theTableAlignsItsColumns() {
        String t = TableText.format(new String[] {"a", "bb"}, List.of(new String[] {"xxx", "1"}, new String[] {"y", "22"}));
        assertEquals("a    bb\n---  --\nxxx  1\ny    22\n", t);
    }
}
