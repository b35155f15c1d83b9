package io.tessera.backend.cuda.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The device column budget's arithmetic and its sharing and closing rules, with caches of fake columns (names and
 * sizes, no GPU). Each test uses device ordinals of its own, far above any real GPU's.
 */
class DeviceBudgetTest {

    /** A column cache as {@link DeviceColumnCache} keeps one: least recently used first, held columns pinned. */
    static final class FakeCache implements DeviceBudget.Member {
        final DeviceBudget budget;
        final LinkedHashMap<String, Long> columns = new LinkedHashMap<>(16, 0.75f, true);
        final Set<String> held = new HashSet<>();
        final List<String> evicted = new ArrayList<>();
        int trims;

        FakeCache(int ordinal, long total) {
            this(ordinal, () -> total);
        }

        FakeCache(int ordinal, java.util.function.LongSupplier total) {
            budget = DeviceBudget.join(ordinal, total, this);
        }

        void hold(String name, long bytes) {
            synchronized (budget) {
                if (columns.get(name) == null) {
                    budget.reserve(this, bytes);
                    columns.put(name, bytes);
                }
                held.add(name);
            }
        }

        void releaseHeld() {
            synchronized (budget) {
                held.clear();
            }
        }

        long bytes() {
            return columns.values().stream().mapToLong(Long::longValue).sum();
        }

        void close() {
            synchronized (budget) {
                held.clear();
                evictUnheld(Long.MAX_VALUE);
            }
            DeviceBudget.leave(budget, this);
        }

        @Override
        public void evictUnheld(long bytes) {
            long freed = 0;
            for (Iterator<Map.Entry<String, Long>> it = columns.entrySet().iterator(); it.hasNext() && freed < bytes; ) {
                Map.Entry<String, Long> e = it.next();
                if (!held.contains(e.getKey())) {
                    it.remove();
                    budget.release(e.getValue());
                    evicted.add(e.getKey());
                    freed += e.getValue();
                }
            }
        }

        @Override
        public void trim() {
            trims++;
        }
    }

    @Test
    void twoCachesOnOneDeviceShareOneTotalSizedByTheFirst() {
        AtomicInteger asked = new AtomicInteger();
        FakeCache a = new FakeCache(1001, () -> {
            asked.incrementAndGet();
            return 100;
        });
        FakeCache b = new FakeCache(1001, () -> {
            asked.incrementAndGet();
            return 1000;
        });
        assertSame(a.budget, b.budget);
        assertEquals(1, asked.get(), "the second runtime on a device does not size the budget again");
        assertEquals(100, b.budget.total());
        assertEquals(2, a.budget.members());
        a.close();
        b.close();
    }

    @Test
    void togetherTheCachesNeverReserveMoreThanTheTotal() {
        FakeCache a = new FakeCache(1011, 100);
        FakeCache b = new FakeCache(1011, 999);
        a.hold("a1", 60);
        b.hold("b1", 40);
        assertEquals(100, a.budget.used());
        // b's query ends; a's next column needs room: a has only held columns, so b's unheld one goes
        b.releaseHeld();
        a.hold("a2", 30);
        assertEquals(List.of("b1"), b.evicted);
        assertEquals(90, a.budget.used());
        assertEquals(a.bytes() + b.bytes(), a.budget.used());
        assertTrue(a.budget.used() <= a.budget.total());
    }

    @Test
    void theAskingCacheEvictsItsOwnColumnsFirstLeastRecentlyUsedFirst() {
        FakeCache a = new FakeCache(1021, 100);
        FakeCache b = new FakeCache(1021, 100);
        a.hold("a1", 30);
        a.hold("a2", 30);
        b.hold("b1", 30);
        a.releaseHeld();
        b.releaseHeld();
        a.hold("a1", 30); // used again: a2 is now a's least recently used
        a.releaseHeld();
        a.hold("a3", 30);
        assertEquals(List.of("a2"), a.evicted);
        assertEquals(List.of(), b.evicted);
        assertEquals(90, a.budget.used());
    }

    @Test
    void heldColumnsStayAndAReservationThatCannotFitTakesNothing() {
        FakeCache a = new FakeCache(1031, 100);
        FakeCache b = new FakeCache(1031, 100);
        a.hold("a1", 50);
        b.hold("b1", 40);
        DeviceMemoryException e = assertThrows(DeviceMemoryException.class, () -> a.hold("a2", 20));
        assertTrue(e.getMessage().contains("device column budget of 0 MiB (shared by the 2 open databases on this GPU"),
                e.getMessage());
        assertEquals(90, a.budget.used());
        assertEquals(List.of(), a.evicted);
        assertEquals(List.of(), b.evicted);
        assertFalse(a.columns.containsKey("a2"));
    }

    @Test
    void aColumnLargerThanTheWholeBudgetIsRefusedEvictingNothing() {
        FakeCache a = new FakeCache(1041, 3L << 20);
        a.hold("a1", 1L << 20);
        a.releaseHeld();
        DeviceMemoryException e = assertThrows(DeviceMemoryException.class, () -> a.hold("huge", 4L << 20));
        assertEquals("the columns of this query need more than the device column budget of 3 MiB", e.getMessage());
        assertEquals(List.of(), a.evicted);
        assertEquals(1L << 20, a.budget.used());
    }

    @Test
    void closingOneCacheGivesItsBytesBackAndLeavesTheOthersColumnsAlone() {
        FakeCache a = new FakeCache(1051, 100);
        FakeCache b = new FakeCache(1051, 100);
        a.hold("a1", 70);
        b.hold("b1", 30);
        a.close();
        assertEquals(30, b.budget.used());
        assertEquals(1, b.budget.members());
        assertTrue(b.columns.containsKey("b1"));
        b.hold("b2", 70); // the room a left, without evicting b's held column
        assertEquals(List.of(), b.evicted);
        assertEquals(100, b.budget.used());
        assertTrue(DeviceBudget.inUse(1051));
    }

    @Test
    void theLastCacheToLeaveEndsTheBudgetAndTheNextOneMeasuresAnew() {
        FakeCache a = new FakeCache(1061, 100);
        a.hold("a1", 10);
        a.close();
        assertEquals(0, a.budget.used());
        assertFalse(DeviceBudget.inUse(1061));
        FakeCache again = new FakeCache(1061, 500);
        assertEquals(500, again.budget.total());
        assertFalse(again.budget == a.budget);
        again.close();
    }

    @Test
    void eachDeviceHasABudgetOfItsOwn() {
        FakeCache zero = new FakeCache(1071, 100);
        FakeCache one = new FakeCache(1072, 100);
        zero.hold("z", 100);
        one.hold("o", 100);
        assertEquals(100, zero.budget.used());
        assertEquals(100, one.budget.used());
        zero.close();
        one.close();
    }

    @Test
    void runningOutOfDeviceMemoryTrimsEveryPoolAndFreesEveryUnheldColumn() {
        FakeCache a = new FakeCache(1081, 100);
        FakeCache b = new FakeCache(1081, 100);
        a.hold("a1", 20);
        b.hold("b1", 20);
        b.hold("b2", 20);
        b.releaseHeld();
        b.hold("b2", 20);
        a.budget.reclaim();
        assertEquals(1, a.trims);
        assertEquals(1, b.trims);
        assertEquals(List.of("b1"), b.evicted);
        assertEquals(List.of(), a.evicted);
        assertEquals(40, a.budget.used());
    }

    @Test
    void releasingMoreThanWasReservedIsAnError() {
        FakeCache a = new FakeCache(1091, 100);
        a.hold("a1", 10);
        assertThrows(IllegalStateException.class, () -> a.budget.release(11));
        assertThrows(IllegalArgumentException.class, () -> a.budget.reserve(a, -1));
        assertThrows(IllegalArgumentException.class, () -> DeviceBudget.join(1092, () -> -1, a));
        assertFalse(DeviceBudget.inUse(1092));
    }
}
