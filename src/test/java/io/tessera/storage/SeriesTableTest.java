package io.tessera.storage;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A series as a table in memory: its values by every chunk of the parallel fill, its statistics, its slices. */
class SeriesTableTest {

    @Test
    void valuesFollowTheSeriesAcrossTheFillsChunks() {
        long count = (3L << 20) + 17; // three whole chunks and a part
        Table t = SeriesTable.of("series_0", "range", -5, 3, count);
        assertEquals(count, t.rowCount());
        Column c = t.column(0);
        assertEquals("range", c.name());
        assertEquals(DataType.BIGINT, c.type());
        assertEquals(count * 8, c.data().byteSize());
        for (long i = 0; i < count; i += 9_999) {
            assertEquals(-5 + 3 * i, c.data().getAtIndex(Column.LONG, i), "row " + i);
        }
        assertEquals(-5 + 3 * (count - 1), c.data().getAtIndex(Column.LONG, count - 1));
        assertFalse(c.hasNulls());
    }

    @Test
    void statisticsAreTheSeriesBoundsAndEveryValueDistinct() {
        ColumnStats up = SeriesTable.of("s", "range", 10, 2, 5).column(0).stats();
        assertEquals(10L, up.min());
        assertEquals(18L, up.max());
        assertEquals(5, up.distinctEstimate());
        assertTrue(up.unique());
        assertEquals(0, up.nullCount());
        ColumnStats down = SeriesTable.of("s", "range", Long.MAX_VALUE, -1, 3).column(0).stats();
        assertEquals(Long.MAX_VALUE - 2, down.min());
        assertEquals(Long.MAX_VALUE, down.max());
    }

    @Test
    void anEmptySeriesHasNoRowsAndNoBounds() {
        Table t = SeriesTable.of("s", "generate_series", 1, 1, 0);
        assertEquals(0, t.rowCount());
        assertEquals(0, t.column(0).data().byteSize());
        assertNull(t.column(0).stats().min());
        assertEquals(0, t.column(0).stats().distinctEstimate());
    }

    @Test
    void aSliceReadsItsRowsOfTheSeries() {
        Table t = SeriesTable.of("s", "range", 100, -1, 1000);
        Table part = t.slice(128, 256);
        assertEquals(128, part.rowCount());
        assertEquals(100 - 128, part.column(0).data().getAtIndex(Column.LONG, 0));
        assertEquals(100 - 255, part.column(0).data().getAtIndex(Column.LONG, 127));
    }

    @Test
    void timestampsAreEachTheOneBeforeStepped() {
        // days since 1970 as microseconds: a step that grows by one day each time
        long day = 86_400_000_000L;
        long[] step = {0};
        Table t = SeriesTable.ofTimestamps("s", "range", 10 * day, v -> v + day * ++step[0], 4);
        Column c = t.column(0);
        assertEquals(DataType.TIMESTAMP, c.type());
        assertEquals(10 * day, c.data().getAtIndex(Column.LONG, 0));
        assertEquals(11 * day, c.data().getAtIndex(Column.LONG, 1));
        assertEquals(13 * day, c.data().getAtIndex(Column.LONG, 2));
        assertEquals(16 * day, c.data().getAtIndex(Column.LONG, 3));
        assertEquals(10 * day, c.stats().min());
        assertEquals(16 * day, c.stats().max());
        assertFalse(c.stats().unique());
        Table down = SeriesTable.ofTimestamps("s", "range", 0, v -> v - day, 3);
        assertEquals(-2 * day, down.column(0).stats().min());
        assertEquals(0L, down.column(0).stats().max());
        assertEquals(0, SeriesTable.ofTimestamps("s", "range", 0, v -> v + 1, 0).rowCount());
    }

    @Test
    void aStepOfZeroOrANegativeCountIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SeriesTable.of("s", "range", 1, 0, 5));
        assertThrows(IllegalArgumentException.class, () -> SeriesTable.of("s", "range", 1, 1, -1));
    }
}
