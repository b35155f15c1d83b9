package io.tessera.backend;

import io.tessera.backend.host.RowBuffer;

import io.tessera.plan.AggFunction;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The final value of each aggregate from what its groups accumulated: the SQL semantics both backends share. */
class GroupRowsTest {

    /** Groups given as arrays: per aggregate its counts, long values, double values, distinct counts. */
    private record Arrays(long[][] counts, long[][] longs, double[][] doubles, long[][] distinct)
            implements GroupRows.Accumulated {
        @Override
        public long count(int a, int i) {
            return counts[a][i];
        }

        @Override
        public long longValue(int a, int i) {
            return longs[a][i];
        }

        @Override
        public double doubleValue(int a, int i) {
            return doubles[a][i];
        }

        @Override
        public long distinctCount(int a, int i) {
            return distinct[a][i];
        }
    }

    private static RowBuffer finish(GroupRows.Final[] aggs, ValueKind[] kinds, Arrays acc, int groups) {
        RowBuffer out = RowBuffer.allocate(kinds, groups);
        GroupRows.aggregates(aggs, acc, groups, out, 0);
        return out;
    }

    @Test
    void countsSumsMinMaxAndNullOverNoRows() {
        GroupRows.Final[] aggs = {
                new GroupRows.Final(AggFunction.COUNT_STAR, false, 0),
                new GroupRows.Final(AggFunction.SUM, false, 0),
                new GroupRows.Final(AggFunction.SUM0, false, 0),
                new GroupRows.Final(AggFunction.MAX, true, 0),
                new GroupRows.Final(AggFunction.MIN, false, 0),
                new GroupRows.Final(AggFunction.COUNT_DISTINCT, false, 0),
        };
        ValueKind[] kinds = {ValueKind.LONG, ValueKind.LONG, ValueKind.LONG, ValueKind.DOUBLE, ValueKind.INT, ValueKind.LONG};
        long[][] counts = {{3, 0}, {2, 0}, {2, 0}, {3, 0}, {1, 0}, {3, 0}};
        long[][] longs = {{0, 0}, {40, 0}, {40, 0}, {0, 0}, {-7, 0}, {0, 0}};
        double[][] doubles = {{0, 0}, {0, 0}, {0, 0}, {2.5, 0}, {0, 0}, {0, 0}};
        long[][] distinct = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {2, 0}};
        RowBuffer r = finish(aggs, kinds, new Arrays(counts, longs, doubles, distinct), 2);
        assertEquals(3, r.longs[0][0]);
        assertEquals(40, r.longs[1][0]);
        assertEquals(40, r.longs[2][0]);
        assertEquals(2.5, r.doubles[3][0]);
        assertEquals(-7, r.ints[4][0]);
        assertEquals(2, r.longs[5][0]);
        // the second group had no rows: COUNT 0, SUM0 0, the others NULL
        assertEquals(0, r.longs[0][1]);
        assertTrue(r.isNull(1, 1));
        assertFalse(r.isNull(2, 1));
        assertEquals(0, r.longs[2][1]);
        assertTrue(r.isNull(3, 1));
        assertTrue(r.isNull(4, 1));
        assertFalse(r.isNull(0, 1));
    }

    @Test
    void averageOfExactSumsIsRoundedOnceAndOfDoublesDivided() {
        GroupRows.Final[] aggs = {
                new GroupRows.Final(AggFunction.AVG, false, 2),
                new GroupRows.Final(AggFunction.AVG, true, 0),
                new GroupRows.Final(AggFunction.AVG, false, 0),
        };
        ValueKind[] kinds = {ValueKind.DOUBLE, ValueKind.DOUBLE, ValueKind.DOUBLE};
        long[][] counts = {{3, 0}, {4, 0}, {7, 0}};
        long[][] longs = {{1000, 0}, {0, 0}, {Long.MAX_VALUE, 0}};
        double[][] doubles = {{0, 0}, {1.0, 0}, {0, 0}};
        RowBuffer r = finish(aggs, kinds, new Arrays(counts, longs, doubles, null), 2);
        assertEquals(new BigDecimal("10.00").divide(BigDecimal.valueOf(3), MathContext.DECIMAL64).doubleValue(), r.doubles[0][0]);
        assertEquals(0.25, r.doubles[1][0]);
        // a sum a double could not hold exactly: divided exactly, then rounded
        assertEquals(BigDecimal.valueOf(Long.MAX_VALUE).divide(BigDecimal.valueOf(7), MathContext.DECIMAL64).doubleValue(),
                r.doubles[2][0]);
        for (int c = 0; c < 3; c++) {
            assertTrue(r.isNull(c, 1), "AVG over no rows");
        }
    }

    @Test
    void valuesTakeTheKindOfTheirColumn() {
        GroupRows.Final[] aggs = {
                new GroupRows.Final(AggFunction.SUM, true, 0),
                new GroupRows.Final(AggFunction.SUM, false, 0),
                new GroupRows.Final(AggFunction.ANY_VALUE, false, 0),
        };
        ValueKind[] kinds = {ValueKind.LONG, ValueKind.DOUBLE, ValueKind.BOOL};
        RowBuffer r = finish(aggs, kinds, new Arrays(new long[][] {{1}, {1}, {1}}, new long[][] {{0}, {12}, {1}},
                new double[][] {{7.9}, {0}, {0}}, null), 1);
        assertEquals(7, r.longs[0][0]);
        assertEquals(12.0, r.doubles[1][0]);
        assertEquals(1, r.bytes[2][0]);
    }

    @Test
    void aSingleValueOfTwoRowsFails() {
        GroupRows.Final[] aggs = {new GroupRows.Final(AggFunction.SINGLE_VALUE, false, 0)};
        Arrays two = new Arrays(new long[][] {{2}}, new long[][] {{5}}, new double[][] {{0}}, null);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> finish(aggs, new ValueKind[] {ValueKind.LONG}, two, 1));
        assertTrue(e.getMessage().contains("more than one row"));
        Arrays one = new Arrays(new long[][] {{1}}, new long[][] {{5}}, new double[][] {{0}}, null);
        assertEquals(5, finish(aggs, new ValueKind[] {ValueKind.LONG}, one, 1).longs[0][0]);
    }

    @Test
    void finalOfADecimalArgumentKeepsItsScale() {
        assertEquals(3, GroupRows.Final.of(AggFunction.AVG, false, io.tessera.storage.DataType.decimal(12, 3)).argScale());
        assertEquals(0, GroupRows.Final.of(AggFunction.COUNT_STAR, false, null).argScale());
    }
}
