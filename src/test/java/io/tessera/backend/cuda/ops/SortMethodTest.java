package io.tessera.backend.cuda.ops;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The choice between the bitonic top-k and sorting then cutting, and the top-k's launches. */
class SortMethodTest {

    private static final SortMethod.Preference BITONIC = SortMethod.Preference.BITONIC;

    @Test
    void aSmallLimitOverOneVaryingWordIsATopK() {
        assertEquals(SortMethod.TOP_K, SortMethod.choose(1_000_000, 10, 1, BITONIC));
        assertEquals(SortMethod.TOP_K, SortMethod.choose(1_000_000, SortMethod.MAX_TOP_K, 1, BITONIC));
        // constant words do not count: a NULL flag that is 0 everywhere leaves the value's word alone
        assertEquals(SortMethod.TOP_K, SortMethod.choose(5000, 100, 1, BITONIC));
    }

    @Test
    void otherwiseTheRadixSortCutsOrNothingRuns() {
        assertEquals(SortMethod.RADIX, SortMethod.choose(1_000_000, SortMethod.MAX_TOP_K + 1, 1, BITONIC));
        assertEquals(SortMethod.RADIX, SortMethod.choose(1_000_000, 10, 2, BITONIC));
        assertEquals(SortMethod.RADIX, SortMethod.choose(1_000_000, 1_000_000, 1, BITONIC)); // every row
        assertEquals(SortMethod.RADIX, SortMethod.choose(1_000_000, 10, 1, SortMethod.Preference.SORT));
        assertEquals(SortMethod.NONE, SortMethod.choose(1_000_000, 10, 0, BITONIC));
        assertEquals(SortMethod.NONE, SortMethod.choose(1_000_000, 0, 3, BITONIC));
        assertEquals(SortMethod.NONE, SortMethod.choose(1, 1, 1, BITONIC));
    }

    @Test
    void theSortCountsDigitsInItsPlanOnlyWhereNoTopKCanRun() {
        // LargeSort counts the first word's digits while it plans only where every varying word leads to radix passes
        assertEquals(true, LargeSort.radixUnlessConstant(1_000_000, SortMethod.MAX_TOP_K + 1, BITONIC));
        assertEquals(true, LargeSort.radixUnlessConstant(1_000_000, 1_000_000, BITONIC));
        assertEquals(true, LargeSort.radixUnlessConstant(1_000_000, 10, SortMethod.Preference.SORT));
        assertEquals(false, LargeSort.radixUnlessConstant(1_000_000, 10, BITONIC)); // a top-k if one word varies
        assertEquals(false, LargeSort.radixUnlessConstant(1_000_000, 0, SortMethod.Preference.SORT));
        assertEquals(false, LargeSort.radixUnlessConstant(1, 1, SortMethod.Preference.SORT));
    }

    @Test
    void theTopKRunsAtThePowerOfTwoAboveTheLimit() {
        assertEquals(8, SortMethod.topKWidth(1));
        assertEquals(8, SortMethod.topKWidth(8));
        assertEquals(16, SortMethod.topKWidth(10));
        assertEquals(256, SortMethod.topKWidth(256));
        assertEquals(1024, SortMethod.topKWidth(513));
        assertThrows(IllegalArgumentException.class, () -> SortMethod.topKWidth(1025));
        assertThrows(IllegalArgumentException.class, () -> SortMethod.topKWidth(0));
    }

    @Test
    void eachTopKLaunchShrinksTheRowsUntilOneTileIsLeft() {
        // tiles of 4,096 pairs: k = 16 keeps 1/256 per launch, k = 1024 a quarter
        assertEquals(1, LargeSort.topKLaunches(4096, 16));
        assertEquals(2, LargeSort.topKLaunches(4097, 16));
        // 24,415 tiles -> 390,640 pairs in 96 tiles -> 1,536 pairs in 1 tile
        assertEquals(3, LargeSort.topKLaunches(100_000_000, 16));
        assertEquals(9, LargeSort.topKLaunches(100_000_000, 1024));
    }

    @Test
    void largeSortsTakeAnyNumberOfKeyWords() {
        assertEquals(true, LargeSort.fits(SmallSort.MAX_ROWS + 1, SmallSort.MAX_KEYS + 5));
        assertEquals(false, LargeSort.fits(LargeSort.MAX_ROWS + 1, 1));
        assertEquals(false, LargeSort.fits(10, 0));
    }
}
