package io.tessera.backend.cuda.ops;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The limits of the GPU's small sort; its answers are checked on the GPU by {@code tessera selftest}. */
class SmallSortTest {

    @Test
    void padsToAPowerOfTwo() {
        assertEquals(2, SmallSort.paddedRows(0));
        assertEquals(2, SmallSort.paddedRows(2));
        assertEquals(4, SmallSort.paddedRows(3));
        assertEquals(1024, SmallSort.paddedRows(1024));
        assertEquals(2048, SmallSort.paddedRows(1025));
    }

    @Test
    void theLargestSortFitsTheSharedMemoryOfAnSm90Block() {
        assertTrue(SmallSort.fits(SmallSort.MAX_ROWS, SmallSort.MAX_KEYS));
        assertFalse(SmallSort.fits(SmallSort.MAX_ROWS + 1, 1));
        assertFalse(SmallSort.fits(10, SmallSort.MAX_KEYS + 1));
        assertFalse(SmallSort.fits(10, 0));
        // sm_90 gives a block at most 227 KB of shared memory
        assertTrue(SmallSort.sharedBytes(SmallSort.MAX_ROWS, SmallSort.MAX_KEYS) <= 227 * 1024);
    }
}
