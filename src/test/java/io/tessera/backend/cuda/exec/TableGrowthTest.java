package io.tessera.backend.cuda.exec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableGrowthTest {

    @Test
    void aFirstTableCappedBelowTheEstimateGrowsToTwiceTheEstimate() {
        // TPC-H Q4 at SF 10: about 15 M groups, a first table of 2^22 slots, 60 M input rows
        TableGrowth.Next next = TableGrowth.afterFull(0, 1L << 22, 15_000_000, TableGrowth.powerOfTwo(120_000_000),
                "its group table");
        assertTrue(next.again());
        assertEquals(1L << 25, next.slots()); // 2 * 15 M rounded up: half full at most
        assertNull(next.reason());
    }

    @Test
    void anEstimateThatRanLowStillGrowsFourfold() {
        TableGrowth.Next next = TableGrowth.afterFull(0, 1024, 10, 1L << 20, "its group table");
        assertEquals(4096, next.slots());
        next = TableGrowth.afterFull(1, 4096, 10, 1L << 20, "its group table");
        assertEquals(16384, next.slots());
    }

    @Test
    void growthStopsAtTheSlotsForEveryInputRowThenDoublesOnce() {
        assertEquals(1L << 12, TableGrowth.afterFull(0, 1L << 11, 1_000_000, 1L << 12, "t").slots());
        assertEquals(1L << 13, TableGrowth.afterFull(1, 1L << 12, 1_000_000, 1L << 12, "t").slots());
    }

    @Test
    void anExpandedTableStartsWithItsInputOrTheEstimateAtMostFourTimesThat() {
        assertEquals(15_000_000, TableGrowth.firstRows(15_000_000, 3_200_000, 0)); // TPC-H Q9's orders at SF 10
        assertEquals(17, TableGrowth.firstRows(12, 17, 0));
        assertEquals(48, TableGrowth.firstRows(12, 1e9, 0)); // an estimate that runs high
        assertEquals(1, TableGrowth.firstRows(0, 0, 0));
        assertEquals(1024, TableGrowth.firstRows(15_000_000, 3_200_000, 1024)); // -Dtessera.gpu.tableSlots
    }

    @Test
    void afterTheLastRunTheQueryGoesToTheJvmWithTheReason() {
        TableGrowth.Next next = TableGrowth.afterFull(TableGrowth.MAX_RUNS - 1, 1L << 20, 5, 1L << 30,
                "its group table");
        assertFalse(next.again());
        assertEquals("its group table filled up 4 times (the last had 1048576 slots)", next.reason());
    }

    @Test
    void everyNextTableIsAPowerOfTwoAndLarger() {
        for (long slots = 1; slots < 1L << 30; slots *= 2) {
            for (long est : new long[] {1, 3, 1000, 12_345_678}) {
                TableGrowth.Next next = TableGrowth.afterFull(0, slots, est, TableGrowth.powerOfTwo(3 * est), "t");
                assertTrue(next.slots() > slots, slots + " " + est);
                assertEquals(1, Long.bitCount(next.slots()), slots + " " + est);
            }
        }
    }

    @Test
    void powerOfTwo() {
        assertEquals(1, TableGrowth.powerOfTwo(0));
        assertEquals(1, TableGrowth.powerOfTwo(1));
        assertEquals(2, TableGrowth.powerOfTwo(2));
        assertEquals(4, TableGrowth.powerOfTwo(3));
        assertEquals(1L << 27, TableGrowth.powerOfTwo(120_000_000));
    }
}
