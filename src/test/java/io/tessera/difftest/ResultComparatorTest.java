package io.tessera.difftest;

import io.tessera.bench.Queries;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultComparatorTest {

    private final ResultComparator cmp = new ResultComparator();

    private static List<Object[]> rows(Object[]... rows) {
        return new ArrayList<>(List.of(rows));
    }

    private static Object[] row(Object... values) {
        return values;
    }

    private String compare(String sql, List<Object[]> expected, List<Object[]> actual) {
        int w = expected.isEmpty() ? (actual.isEmpty() ? 0 : actual.get(0).length) : expected.get(0).length;
        int wa = actual.isEmpty() ? w : actual.get(0).length;
        return cmp.compare(OrderBySpec.of(sql, List.of()), w, expected, wa, actual);
    }

    @Test
    void integersCompareByValueWhateverTheirJavaKind() {
        assertTrue(cmp.valuesEqual(5, 5L));
        assertTrue(cmp.valuesEqual(5L, BigInteger.valueOf(5)));
        assertTrue(cmp.valuesEqual(BigInteger.valueOf(5), 5));
        assertTrue(cmp.valuesEqual((short) 5, 5L));
        assertTrue(cmp.valuesEqual(5, new BigDecimal("5.00")));
        assertFalse(cmp.valuesEqual(5, 6L));
        assertFalse(cmp.valuesEqual(Long.MAX_VALUE, BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE)));
    }

    @Test
    void decimalsCompareExactlyByNumericValue() {
        assertTrue(cmp.valuesEqual(new BigDecimal("1.50"), new BigDecimal("1.5")));
        assertTrue(cmp.valuesEqual(new BigDecimal("-0.00"), new BigDecimal("0")));
        assertFalse(cmp.valuesEqual(new BigDecimal("1.50"), new BigDecimal("1.51")));
        assertFalse(cmp.valuesEqual(new BigDecimal("123456789012.34"), new BigDecimal("123456789012.35")));
    }

    @Test
    void doublesCompareWithinTolerance() {
        assertTrue(cmp.valuesEqual(1e12, 1e12 * (1 + 1e-10)));
        assertFalse(cmp.valuesEqual(1e12, 1e12 * (1 + 1e-8)));
        assertTrue(cmp.valuesEqual(0.0, 1e-12));
        assertTrue(cmp.valuesEqual(0.1 + 0.2, 0.3));
        assertFalse(cmp.valuesEqual(1.0, 1.000001));
        assertTrue(cmp.valuesEqual(Double.NaN, Double.NaN));
        assertFalse(cmp.valuesEqual(Double.NaN, 1.0));
        assertTrue(cmp.valuesEqual(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
        assertFalse(cmp.valuesEqual(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        assertTrue(cmp.valuesEqual(3.0, 3L));
        assertTrue(cmp.valuesEqual(1.0f, 1.0));
    }

    @Test
    void doubleAgainstDecimalAllowsTheDecimalsLastDigit() {
        // AVG or a division of DECIMALs is DOUBLE in one engine and DECIMAL(., 2) in another
        assertTrue(cmp.valuesEqual(2.3333333333, new BigDecimal("2.33")));
        assertTrue(cmp.valuesEqual(new BigDecimal("2.34"), 2.3333333333));
        assertFalse(cmp.valuesEqual(2.3333333333, new BigDecimal("2.35")));
        assertFalse(cmp.valuesEqual(2.5, new BigDecimal("2")));
    }

    @Test
    void nullEqualsOnlyNull() {
        assertTrue(cmp.valuesEqual(null, null));
        assertFalse(cmp.valuesEqual(null, 0));
        assertFalse(cmp.valuesEqual(0, null));
        assertFalse(cmp.valuesEqual("", null));
        assertFalse(cmp.valuesEqual(null, false));
    }

    @Test
    void otherKinds() {
        assertTrue(cmp.valuesEqual(LocalDate.of(1998, 12, 1), LocalDate.of(1998, 12, 1)));
        assertTrue(cmp.valuesEqual(java.sql.Date.valueOf("1998-12-01"), LocalDate.of(1998, 12, 1)));
        assertFalse(cmp.valuesEqual(LocalDate.of(1998, 12, 1), LocalDate.of(1998, 12, 2)));
        assertTrue(cmp.valuesEqual("MFGR#12", "MFGR#12"));
        assertFalse(cmp.valuesEqual("MFGR#12", "MFGR#12 "));
        assertFalse(cmp.valuesEqual("1", 1));
        assertTrue(cmp.valuesEqual(true, true));
        assertFalse(cmp.valuesEqual(true, 1));
    }

    @Test
    void withoutOrderByRowsAreAMultiset() {
        String sql = "select a, b from t";
        assertNull(compare(sql, rows(row(1, "x"), row(2, "y"), row(2, "y")),
                rows(row(2L, "y"), row(1L, "x"), row(2, "y"))));
        assertNotNull(compare(sql, rows(row(1, "x"), row(2, "y"), row(2, "y")),
                rows(row(1, "x"), row(1, "x"), row(2, "y"))));
        assertNotNull(compare(sql, rows(row(1, "x")), rows(row(1, "x"), row(1, "x"))));
        assertNotNull(compare(sql, rows(row(1, null)), rows(row(1, "x"))));
        assertNull(compare(sql, rows(), rows()));
    }

    @Test
    void toleratedDoublesMatchEvenWhenTheySortDifferently() {
        String sql = "select k, s from t";
        assertNull(compare(sql, rows(row(1.0, "b"), row(1.0 + 1e-12, "a")),
                rows(row(1.0 + 1e-12, "b"), row(1.0, "a"))));
    }

    @Test
    void keysAfterANearlyTiedDoubleKeyDoNotOrderTheRows() {
        // a sum of doubles 33.675 in one engine is 33.675000000000004 in the other: the next key orders either way
        String sql = "select a, b from t order by a, b";
        assertNull(compare(sql, rows(row(33.675, "x"), row(33.675, "y"), row(33.72, "a")),
                rows(row(33.675, "y"), row(33.675000000000004, "x"), row(33.72, "a"))));
        assertNotNull(compare(sql, rows(row(33.675, "x"), row(33.72, "a")), rows(row(33.72, "a"), row(33.675, "x"))));
        // exact keys still order the rows
        assertNotNull(compare("select a, b from t order by b, a", rows(row(1, "x"), row(2, "y")),
                rows(row(2, "y"), row(1, "x"))));
    }

    @Test
    void orderByIsCheckedButTiedRowsMayComeInAnyOrder() {
        String sql = "select a, b from t order by a";
        assertNull(compare(sql, rows(row(1, "x"), row(1, "y"), row(2, "z")),
                rows(row(1, "y"), row(1, "x"), row(2, "z"))));
        String diff = compare(sql, rows(row(1, "x"), row(1, "y"), row(2, "z")),
                rows(row(2, "z"), row(1, "x"), row(1, "y")));
        assertNotNull(diff);
        assertTrue(diff.contains("'z'"), diff);
        assertNotNull(compare("select a, b from t order by a desc", rows(row(2, "z"), row(1, "x")),
                rows(row(1, "x"), row(2, "z"))));
        // ties on the first key, fixed by the second
        String two = "select a, b from t order by a, b desc";
        assertNotNull(compare(two, rows(row(1, "y"), row(1, "x")), rows(row(1, "x"), row(1, "y"))));
    }

    @Test
    void aLimitMayCutTheLastRunOfTiesAnywhere() {
        String sql = "select a, b from t order by a limit 2";
        assertNull(compare(sql, rows(row(1, "x"), row(2, "y")), rows(row(1, "x"), row(2, "w"))));
        assertNotNull(compare(sql, rows(row(1, "x"), row(2, "y")), rows(row(1, "x"), row(3, "y"))));
        assertNull(compare(sql, rows(row(1, "x"), row(1, "y")), rows(row(1, "z"), row(1, "x"))));
        assertNotNull(compare(sql, rows(row(1, "x"), row(1, "y")), rows(row(1, "z"), row(2, "x"))));
        String three = "select a, b from t order by a limit 3 offset 1";
        assertNull(compare(three, rows(row(1, "x"), row(2, "y"), row(3, "z")), rows(row(1, "w"), row(2, "y"),
                row(3, "v"))));
        assertNotNull(compare(three, rows(row(1, "x"), row(2, "y"), row(3, "z")), rows(row(1, "x"), row(2, "q"),
                row(3, "z"))));
        // DOUBLE keys equal within the tolerance tie under a LIMIT too: the next key does not order those rows
        String near = "select a, b from t order by b, a desc limit 3";
        assertNull(compare(near, rows(row(1992, 970.0396), row(null, 970.0396000000001), row(1987, 971.5)),
                rows(row(null, 970.0396000000005), row(1992, 970.0396000000005), row(1987, 971.5))));
        assertNotNull(compare(near, rows(row(1992, 970.0396), row(null, 970.0396000000001), row(1987, 971.5)),
                rows(row(null, 970.0396000000005), row(1993, 970.0396000000005), row(1987, 971.5))));
        // without a LIMIT every run of ties is a multiset
        assertNotNull(compare("select a, b from t order by a", rows(row(1, "x"), row(2, "y")),
                rows(row(1, "x"), row(2, "w"))));
    }

    @Test
    void reportsCountsAndRows() {
        String diff = compare("select a from t", rows(row(1), row(2)), rows(row(1)));
        assertTrue(diff.contains("row counts differ: expected 2, actual 1"), diff);
        assertTrue(diff.contains("expected: [2]"), diff);
        diff = compare("select a, b from t order by a", rows(row(1, new BigDecimal("1.50"))),
                rows(row(1, new BigDecimal("1.49"))));
        assertTrue(diff.contains("column 2: expected 1.50 (BigDecimal), actual 1.49 (BigDecimal)"), diff);
        diff = cmp.compare(OrderBySpec.UNORDERED, 2, rows(row(1, 2)), 1, rows(row(1)));
        assertTrue(diff.contains("column counts differ"), diff);
    }

    @Test
    void readsTheTopLevelOrderBy() {
        assertEquals(List.of(1, 2), OrderBySpec.of(Queries.sql("ssb", "q2.1"), List.of()).keys());
        OrderBySpec q31 = OrderBySpec.of(Queries.sql("ssb", "q3.1"), List.of());
        assertEquals(List.of(2, 3), q31.keys());
        assertTrue(q31.allKeysResolved());
        assertFalse(q31.limited());
        assertFalse(OrderBySpec.of(Queries.sql("ssb", "q1.1"), List.of()).ordered());
        OrderBySpec q3 = OrderBySpec.of(Queries.sql("tpch", "q3"), List.of());
        assertEquals(List.of(1, 2), q3.keys());
        assertTrue(q3.limited());
        assertEquals(List.of(1), OrderBySpec.of(Queries.sql("tpch", "q5"), List.of()).keys());
        assertEquals(List.of(0, 1), OrderBySpec.of(Queries.sql("tpch", "q1"), List.of()).keys());
        assertEquals(List.of(1, 0), OrderBySpec.of("select a, sum(b) from t group by a order by 2 desc, 1",
                List.of()).keys());
        assertEquals(List.of(0), OrderBySpec.of("select t.a, b from t order by a nulls first", List.of()).keys());
        assertEquals(List.of(1), OrderBySpec.of("select a, sum(x * 2) total from t group by a order by total",
                List.of()).keys());
        assertEquals(List.of(1), OrderBySpec.of("select a, sum(x * 2) from t group by a order by SUM( x*2 ) desc",
                List.of()).keys());
        assertEquals(List.of(0), OrderBySpec.of("select a, b from t order by c0", List.of("c0", "c1")).keys());
        assertFalse(OrderBySpec.of("select a from (select a from t order by a limit 3) s", List.of()).ordered());
        assertFalse(OrderBySpec.of("select 'order by a' as a from t", List.of()).ordered());
        OrderBySpec partial = OrderBySpec.of("select a, b from t order by a, length(b)", List.of());
        assertEquals(List.of(0), partial.keys());
        assertFalse(partial.allKeysResolved());
        assertEquals(List.of(0), OrderBySpec.of("select case when a > 1 then 'x' else 'y' end as k, b from t order by k",
                List.of()).keys());
    }
}
