package io.tessera.backend.host;

import io.tessera.backend.ValueKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The workers of a sink's end: chunks cover every index once and start at multiples of 64; a task's failure and
 * the cancel check reach the caller; a gather on the workers copies values and NULLs in the order given.
 */
class HostWorkersTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    @Test
    void chunksCoverEveryIndexOnceFromMultiplesOf64() {
        for (int threads : new int[] {1, 3}) {
            HostWorkers w = new HostWorkers(threads == 1 ? null : POOL, threads, () -> { });
            for (int n : new int[] {0, 1, 63, 64, 65, 1000, 100_003}) {
                AtomicIntegerArray seen = new AtomicIntegerArray(n);
                w.chunks(n, 100, (from, to) -> {
                    assertEquals(0, from % 64, "chunk start " + from);
                    for (int i = from; i < to; i++) {
                        seen.incrementAndGet(i);
                    }
                });
                for (int i = 0; i < n; i++) {
                    assertEquals(1, seen.get(i), n + " indices, index " + i);
                }
            }
        }
    }

    @Test
    void failuresAndCancelsReachTheCaller() {
        HostWorkers w = new HostWorkers(POOL, 3, () -> { });
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class,
                () -> w.run(List.of(() -> { }, () -> { throw boom; }, () -> { }))));
        AtomicInteger checks = new AtomicInteger();
        HostWorkers cancelled = new HostWorkers(POOL, 3, () -> {
            if (checks.incrementAndGet() > 1) {
                throw new IllegalArgumentException("cancelled");
            }
        });
        assertThrows(IllegalArgumentException.class, () -> cancelled.run(List.of(() -> { }, () -> { })));
    }

    @Test
    void gatherCopiesValuesAndNullsInTheOrderGiven() {
        RowBuffer b = new RowBuffer(new ValueKind[] {ValueKind.INT, ValueKind.STRING, ValueKind.DOUBLE}, 16);
        int n = 70_000;
        for (int r = 0; r < n; r++) {
            int w = b.next();
            b.ints[0][w] = r;
            b.strings[1][w] = "s" + (r % 7);
            b.doubles[2][w] = r / 2.0;
            if (r % 5 == 0) {
                b.setNull(2, w);
            }
        }
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = n - 1 - i;
        }
        RowBuffer out = RowGather.gather(b, order, 10, n - 10, new HostWorkers(POOL, 3, () -> { }));
        assertEquals(n - 20, out.size);
        for (int i = 0; i < out.size; i++) {
            int r = n - 1 - (10 + i);
            assertEquals(r, out.ints[0][i]);
            assertEquals("s" + (r % 7), out.strings[1][i]);
            assertEquals(r % 5 == 0, out.isNull(2, i), "row " + i);
            assertTrue(out.isNull(2, i) || out.doubles[2][i] == r / 2.0);
        }
    }
}
