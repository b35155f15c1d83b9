package io.tessera.backend.host;

import io.tessera.backend.ValueKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The workers' buffers copied into one: the columns and NULL bitmaps allocated by several workers at once (above
 * {@link ArrayAllocations#PARALLEL_MIN_BYTES}) or on the calling thread, every value and NULL where it belongs after
 * a concatenation and after a scatter, whichever thread allocated which array.
 */
class RowCopiesTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final ValueKind[] KINDS = {ValueKind.INT, ValueKind.LONG, ValueKind.DOUBLE, ValueKind.BOOL,
            ValueKind.STRING, ValueKind.CODE};

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    @Test
    void concatenatedRowsKeepTheirValuesAndNulls() {
        for (int rows : new int[] {0, 5, 70_000}) { // 70,000 rows of six columns: over a MB, allocated by the pool
            List<RowBuffer> parts = parts(rows);
            for (int workers : new int[] {1, 3}) {
                RowBuffer all = RowCopies.concat(KINDS, parts, workers == 1 ? null : POOL, workers);
                assertEquals(3 * rows, all.size);
                int at = 0;
                for (int p = 0; p < parts.size(); p++) {
                    for (int r = 0; r < rows; r++, at++) {
                        assertRow(all, at, p, r);
                    }
                }
            }
        }
    }

    @Test
    void scatteredRowsLandWhereTheirPositionsSay() {
        int rows = 70_000;
        List<RowBuffer> parts = parts(rows);
        int total = 3 * rows;
        // row r of part p goes to (r * 3 + p) reversed: every target once
        int[][] positions = new int[3][rows];
        for (int p = 0; p < 3; p++) {
            for (int r = 0; r < rows; r++) {
                positions[p][r] = total - 1 - (r * 3 + p);
            }
        }
        ArrayAllocations arrays = new ArrayAllocations();
        RowBuffer out = RowCopies.unfilled(KINDS, parts, total, arrays);
        assertNull(out.longs[1], "allocated only when the allocations run");
        arrays.run(POOL, 3);
        assertNotNull(out.longs[1]);
        assertNotNull(out.nulls[1], "a column with a NULL in some part has a bitmap");
        assertNull(out.nulls[0]);
        RowCopies.scatter(parts, positions, out, POOL, 3);
        for (int p = 0; p < 3; p++) {
            for (int r = 0; r < rows; r++) {
                assertRow(out, positions[p][r], p, r);
            }
        }
    }

    @Test
    void everyAllocationRunsOnceOnEitherPath() {
        for (long size : new long[] {16, 8L << 20}) {
            int[] runs = new int[10];
            ArrayAllocations arrays = new ArrayAllocations();
            for (int i = 0; i < runs.length; i++) {
                int slot = i;
                arrays.add(size, () -> {
                    synchronized (runs) {
                        runs[slot]++;
                    }
                });
            }
            arrays.run(POOL, 3);
            arrays.run(POOL, 3); // a second run has nothing left to do
            for (int i = 0; i < runs.length; i++) {
                assertEquals(1, runs[i], size + " bytes, allocation " + i);
            }
        }
    }

    /** Three parts of {@code rows} rows; column 1 is NULL on every seventh row of part 1. */
    private static List<RowBuffer> parts(int rows) {
        List<RowBuffer> parts = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            RowBuffer b = new RowBuffer(KINDS, 16);
            for (int r = 0; r < rows; r++) {
                int i = b.next();
                b.ints[0][i] = p * 1_000_000 + r;
                b.longs[1][i] = -(long) r * p;
                b.doubles[2][i] = r / 4.0;
                b.bytes[3][i] = (byte) (r & 1);
                b.strings[4][i] = p + ":" + r;
                b.ints[5][i] = r % 13;
                if (p == 1 && r % 7 == 0) {
                    b.setNull(1, i);
                }
            }
            parts.add(b);
        }
        return parts;
    }

    private static void assertRow(RowBuffer b, int at, int p, int r) {
        String where = "part " + p + " row " + r + " at " + at;
        assertEquals(p * 1_000_000 + r, b.ints[0][at], where);
        boolean isNull = p == 1 && r % 7 == 0;
        assertEquals(isNull, b.isNull(1, at), where);
        if (!isNull) {
            assertEquals(-(long) r * p, b.longs[1][at], where);
        }
        assertEquals(r / 4.0, b.doubles[2][at], where);
        assertEquals((byte) (r & 1), b.bytes[3][at], where);
        assertEquals(p + ":" + r, b.strings[4][at], where);
        assertEquals(r % 13, b.ints[5][at], where);
    }
}
