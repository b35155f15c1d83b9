package io.tessera.backend.cuda.exec;

import io.tessera.api.QueryCancel;
import io.tessera.api.QueryCancelledException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The poll loop against a device that a test drives: a fake clock, a kernel that ends after some polls or never. */
class KernelWaitTest {

    /** A clock that only moves when the wait pauses (and by 1 µs per reading, as spinning would). */
    static final class FakeClock implements KernelWait.Clock {
        long now;
        final List<Long> pauses = new ArrayList<>();

        @Override
        public long nanoTime() {
            now += 1_000;
            return now;
        }

        @Override
        public void pause(long nanos) {
            pauses.add(nanos);
            now += nanos;
        }
    }

    /** A kernel that ends on poll {@code endsAt} (never: -1), cancelling {@code cancel} on poll {@code cancelAt}. */
    static final class FakeKernel {
        int polls;
        final int endsAt;
        final int cancelAt;
        final QueryCancel cancel;

        FakeKernel(int endsAt, int cancelAt, QueryCancel cancel) {
            this.endsAt = endsAt;
            this.cancelAt = cancelAt;
            this.cancel = cancel;
        }

        boolean done() {
            polls++;
            if (polls == cancelAt) {
                cancel.cancel();
            }
            return endsAt >= 0 && polls >= endsAt;
        }
    }

    @Test
    void aKernelThatEndsIsWaitedFor() {
        FakeClock clock = new FakeClock();
        QueryCancel cancel = new QueryCancel();
        FakeKernel k = new FakeKernel(5000, -1, cancel);
        new KernelWait(clock, 500_000_000L).await(k::done, cancel);
        assertEquals(5000, k.polls);
        // it spun first, then slept between polls, each pause at most the longest
        assertTrue(clock.pauses.size() > 0 && clock.pauses.size() < 5000);
        assertTrue(clock.pauses.stream().allMatch(p -> p <= KernelWait.MAX_PAUSE_NANOS));
    }

    @Test
    void aShortKernelIsNotSleptOn() {
        FakeClock clock = new FakeClock();
        FakeKernel k = new FakeKernel(3, -1, new QueryCancel());
        new KernelWait(clock, 500_000_000L).await(k::done, null);
        assertEquals(List.of(), clock.pauses);
    }

    @Test
    void aCancelDuringTheWaitEndsItOnceTheKernelStops() {
        FakeClock clock = new FakeClock();
        QueryCancel cancel = new QueryCancel();
        FakeKernel k = new FakeKernel(300, 100, cancel);
        assertThrows(QueryCancelledException.class, () -> new KernelWait(clock, 500_000_000L).await(k::done, cancel));
        assertEquals(300, k.polls);
    }

    @Test
    void aCancelledQueryWhoseKernelNeverEndsGivesUpWithinTheGrace() {
        FakeClock clock = new FakeClock();
        QueryCancel cancel = new QueryCancel();
        FakeKernel k = new FakeKernel(-1, 10, cancel);
        long grace = 500_000_000L;
        KernelWait.Stuck e = assertThrows(KernelWait.Stuck.class, () -> new KernelWait(clock, grace).await(k::done, cancel));
        assertTrue(e.getMessage().contains("500 ms"), e.getMessage());
        // the grace, plus at most one pause past it
        assertTrue(clock.now <= grace + 2 * KernelWait.MAX_PAUSE_NANOS + 1_000_000, String.valueOf(clock.now));
    }

    @Test
    void aKernelThatNeverEndsWithoutACancelIsWaitedForStill() {
        // no budget: only a cancel ends the wait (the kernels' loops are bounded), here after 100,000 polls
        FakeClock clock = new FakeClock();
        QueryCancel cancel = new QueryCancel();
        FakeKernel k = new FakeKernel(-1, 100_000, cancel);
        assertThrows(KernelWait.Stuck.class, () -> new KernelWait(clock, 1_000_000L).await(k::done, cancel));
        assertTrue(k.polls >= 100_000);
    }

    @Test
    void anAlreadyCancelledQueryStopsAfterItsKernel() {
        QueryCancel cancel = new QueryCancel();
        cancel.cancel();
        FakeKernel k = new FakeKernel(1, -1, cancel);
        assertThrows(QueryCancelledException.class, () -> new KernelWait(new FakeClock(), 1L).await(k::done, cancel));
    }
}
