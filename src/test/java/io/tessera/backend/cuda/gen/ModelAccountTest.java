package io.tessera.backend.cuda.gen;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The thesis's per-query model as the emitter adds it up, checked by hand. */
class ModelAccountTest {

    @Test
    void aColumnBehindASelectiveProbeCostsALinePerSelectedRowUntilThatExceedsTheColumn() {
        ModelAccount m = new ModelAccount(1_000_000);
        m.column(4); // the first column: whole
        m.narrow(0.2); // a line per selected row (25.6 bytes a row) is more than the column (4): whole
        m.column(4);
        m.narrow(0.01); // now 0.002 of the rows: 0.256 bytes a row, less than the column
        m.column(4);
        m.table(5_000);
        m.groupUpdates(); // 2,000 rows, a 128-byte line read and written each
        ModelBytes b = m.bytes();
        assertEquals(4_000_000 + 4_000_000 + 256_000, b.columns());
        assertEquals(5_000, b.tables());
        assertEquals(2_000 * 256, b.results());
        assertEquals(b.columns() + b.tables() + b.results(), b.total());
        assertEquals(0.002, m.selected(), 1e-12);
    }

    @Test
    void fractionsOutsideZeroToOneAreClamped() {
        ModelAccount m = new ModelAccount(100);
        m.narrow(1.5);
        assertEquals(1, m.selected());
        m.written(8);
        assertEquals(800, m.bytes().results());
        m.narrow(-1);
        assertEquals(0, m.selected());
    }
}
