package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A DOUBLE or REAL column's min and max where it holds NaN, which DuckDB orders above every number: min is the least
 * number unless every value is NaN, max is NaN where any value is.
 */
class ColumnStatsNanTest {

    private static ColumnStats stats(double[] values, long[] nullBits) {
        return ColumnStatsScanner.scan(TypeKind.DOUBLE, MemorySegment.ofArray(values), values.length, nullBits);
    }

    @Test
    void minIgnoresNanAndMaxIsNan() {
        ColumnStats s = stats(new double[] {3.0, Double.NaN, -1.0}, null);
        assertEquals(-1.0, s.min());
        assertEquals(Double.NaN, s.max());
        s = stats(new double[] {Double.NaN, 2.0}, null);
        assertEquals(2.0, s.min());
        assertEquals(Double.NaN, s.max());
    }

    @Test
    void onlyNanGivesNanForBoth() {
        ColumnStats s = stats(new double[] {Double.NaN, Double.NaN}, null);
        assertEquals(Double.NaN, s.min());
        assertEquals(Double.NaN, s.max());
        // a NULL is no value: the NaN is the only one
        s = stats(new double[] {Double.NaN, 5.0}, new long[] {0b10});
        assertEquals(Double.NaN, s.min());
        assertEquals(Double.NaN, s.max());
    }

    @Test
    void numbersAndInfinitiesAsBefore() {
        ColumnStats s = stats(new double[] {Double.NEGATIVE_INFINITY, 7.5, Double.POSITIVE_INFINITY}, null);
        assertEquals(Double.NEGATIVE_INFINITY, s.min());
        assertEquals(Double.POSITIVE_INFINITY, s.max());
    }

    /** Ranges scanned apart and merged: a range of NaNs only beside one of numbers. */
    @Test
    void mergedRangesIgnoreARangeOfNans() {
        int rows = (int) ColumnStatsScanner.RANGE_ROWS + 1000;
        double[] values = new double[rows];
        Arrays.fill(values, 0, (int) ColumnStatsScanner.RANGE_ROWS, Double.NaN);
        for (int i = (int) ColumnStatsScanner.RANGE_ROWS; i < rows; i++) {
            values[i] = i;
        }
        ColumnStats s = stats(values, null);
        assertEquals((double) ColumnStatsScanner.RANGE_ROWS, s.min());
        assertEquals(Double.NaN, s.max());
    }
}
