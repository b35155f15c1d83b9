package io.tessera.backend.jvm.run;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every access pattern hands out every row exactly once, in morsels, with the pattern's shape. */
class MorselSchedulerTest {

    private static List<List<long[]>> schedule(MorselScheduler.Access a, long rows, long morsel, int tasks) {
        AtomicLong cursor = new AtomicLong();
        List<List<long[]>> perWorker = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            List<long[]> mine = new ArrayList<>();
            MorselScheduler.morsels(a, rows, morsel, tasks, t, cursor, (from, to) -> mine.add(new long[] {from, to}));
            perWorker.add(mine);
        }
        return perWorker;
    }

    @Test
    void aRangesTimeIsTheWorkersMeanWithDynamicAccessAndTheSlowestsOtherwise() {
        long[] busy = {300, 100, 200};
        assertEquals(200, MorselScheduler.workersNanos(MorselScheduler.Access.DYNAMIC, busy));
        assertEquals(300, MorselScheduler.workersNanos(MorselScheduler.Access.BLOCKED, busy));
        assertEquals(300, MorselScheduler.workersNanos(MorselScheduler.Access.STRIDED, busy));
        assertEquals(70, MorselScheduler.workersNanos(MorselScheduler.Access.DYNAMIC, new long[] {70}));
    }

    @Test
    void everyRowOnceInMorselsOfAtMostTheMorselSize() {
        for (MorselScheduler.Access a : MorselScheduler.Access.values()) {
            for (long rows : new long[] {0, 1, 63, 1000, 100_003}) {
                for (long morsel : new long[] {64, 1000, 1024}) {
                    for (int tasks : new int[] {1, 2, 3, 4, 7}) {
                        int[] seen = new int[(int) rows];
                        for (List<long[]> mine : schedule(a, rows, morsel, tasks)) {
                            for (long[] m : mine) {
                                assertTrue(m[0] < m[1] && m[1] - m[0] <= morsel, a + " morsel " + m[0] + ".." + m[1]);
                                for (long r = m[0]; r < m[1]; r++) {
                                    seen[(int) r]++;
                                }
                            }
                        }
                        for (int r = 0; r < rows; r++) {
                            assertEquals(1, seen[r], a + ": row " + r + " of " + rows + ", morsel " + morsel + ", " + tasks + " workers");
                        }
                    }
                }
            }
        }
    }

    @Test
    void blockedWorkersWalkOneContiguousStretchEach() {
        List<List<long[]>> w = schedule(MorselScheduler.Access.BLOCKED, 10_000, 1024, 3);
        long expectedStart = 0;
        for (List<long[]> mine : w) {
            assertEquals(expectedStart, mine.get(0)[0]);
            for (int i = 1; i < mine.size(); i++) {
                assertEquals(mine.get(i - 1)[1], mine.get(i)[0], "a worker's morsels follow each other");
            }
            expectedStart = mine.get(mine.size() - 1)[1];
            assertTrue(Math.abs(expectedStart - mine.get(0)[0] - 10_000 / 3) <= 1, "blocks of equal size");
        }
        assertEquals(10_000, expectedStart);
    }

    @Test
    void stridedWorkersTakeEveryTasksThMorsel() {
        List<List<long[]>> w = schedule(MorselScheduler.Access.STRIDED, 10_000, 1000, 3);
        for (int t = 0; t < 3; t++) {
            for (int i = 0; i < w.get(t).size(); i++) {
                assertEquals((t + 3L * i) * 1000, w.get(t).get(i)[0]);
            }
        }
    }
}
