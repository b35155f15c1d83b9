package io.tessera.backend.host;

import io.tessera.backend.ValueKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A buffer that expects some number of rows keeps every row written, NULLs included, whether fewer, as many or more
 * rows come than it expected (the estimate it was made with may be wrong either way).
 */
class RowBufferGrowthTest {

    private static final ValueKind[] LAYOUT = {ValueKind.INT, ValueKind.LONG, ValueKind.DOUBLE, ValueKind.STRING};

    @Test
    void keepsEveryRowBelowAtAndBeyondItsExpectedRows() {
        for (int expected : new int[] {0, 1, 100, 5_000, 1_000_000}) {
            for (int rows : new int[] {0, 1, 99, 100, 101, 5_000, 20_000}) {
                RowBuffer b = new RowBuffer(LAYOUT, 16, expected);
                for (int r = 0; r < rows; r++) {
                    int w = b.next();
                    assertEquals(r, w);
                    b.ints[0][w] = r;
                    b.longs[1][w] = 3L * r;
                    b.doubles[2][w] = r / 2.0;
                    if (r % 7 == 0) {
                        b.setNull(3, w);
                    } else {
                        b.strings[3][w] = "s" + r;
                    }
                }
                assertEquals(rows, b.size);
                for (int r = 0; r < rows; r++) {
                    assertEquals(r, b.ints[0][r]);
                    assertEquals(3L * r, b.longs[1][r]);
                    assertEquals(r / 2.0, b.doubles[2][r]);
                    if (r % 7 == 0) {
                        assertTrue(b.isNull(3, r));
                        assertNull(b.strings[3][r]);
                    } else {
                        assertFalse(b.isNull(3, r));
                        assertEquals("s" + r, b.strings[3][r]);
                    }
                }
            }
        }
    }
}
