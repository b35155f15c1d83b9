package io.tessera.optimize;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cost of one join ({@link JoinCost}): which side a fact-to-dimension join builds at every scale, and what a
 * repeated build key, a hashed index and a table beyond the caches add.
 */
class JoinCostTest {

    /** A fact table {@code scale} times 1M rows, each naming one of a dimension's {@code scale} times 1K keys. */
    @ParameterizedTest
    @ValueSource(doubles = {0.001, 0.01, 0.1, 1, 10, 100})
    void aFactJoinedToItsDimensionBuildsTheDimension(double scale) {
        double fact = 1e6 * scale;
        double dim = 1e3 * scale;
        // the dimension's key holds each value once; the fact's foreign key repeats each ~1,000 times; both columns
        // span the dimension's key range, so either table may be perfect
        double buildDim = JoinCost.join(new JoinCost.Table(dim, true, dim, 1), fact, fact);
        double buildFact = JoinCost.join(new JoinCost.Table(fact, false, dim, 1), dim, fact);
        assertTrue(buildDim < buildFact, () -> "dimension built " + buildDim + ", fact built " + buildFact);
        // and as hashed tables (a key range too long for a perfect one)
        double hashedDim = JoinCost.join(new JoinCost.Table(dim, true, 0, 1), fact, fact);
        double hashedFact = JoinCost.join(new JoinCost.Table(fact, false, 0, 1), dim, fact);
        assertTrue(hashedDim < hashedFact, () -> "dimension built " + hashedDim + ", fact built " + hashedFact);
    }

    /** However few fact rows are left after filters, while they outnumber the dimension's the dimension is built. */
    @ParameterizedTest
    @ValueSource(doubles = {1_001, 1_500, 2_000, 10_000, 1e5, 1e7})
    void theDimensionIsBuiltWhileTheFactSideIsLarger(double fact) {
        double dim = 1_000;
        double matches = fact; // every fact row names a dimension key
        double buildDim = JoinCost.join(new JoinCost.Table(dim, true, dim, 1), fact, matches);
        double buildFact = JoinCost.join(new JoinCost.Table(fact, false, dim, 1), dim, matches);
        assertTrue(buildDim < buildFact, () -> "dimension built " + buildDim + ", fact built " + buildFact);
    }

    @ParameterizedTest
    @ValueSource(doubles = {100, 10_000, 1e6, 1e8})
    void aRepeatedBuildKeyCostsMoreThanAUniqueOneOfAsManyRows(double rows) {
        for (double slots : new double[] {0, rows}) {
            JoinCost.Table unique = new JoinCost.Table(rows, true, slots, 1);
            JoinCost.Table repeated = new JoinCost.Table(rows, false, slots, 1);
            assertTrue(JoinCost.build(unique) < JoinCost.build(repeated), "build, slots " + slots);
            assertTrue(JoinCost.probe(unique, rows, rows) < JoinCost.probe(repeated, rows, rows), "probe, slots " + slots);
            assertTrue(JoinCost.join(unique, 10 * rows, 10 * rows) < JoinCost.join(repeated, 10 * rows, 10 * rows));
        }
    }

    @Test
    void aPerfectIndexInTheCachesIsTheCheapestLookup() {
        JoinCost.Table perfect = new JoinCost.Table(1_000, true, 1_000, 1);
        JoinCost.Table hashed = new JoinCost.Table(1_000, true, 0, 1);
        JoinCost.Table twoKeys = new JoinCost.Table(1_000, true, 0, 2);
        assertTrue(JoinCost.probe(perfect, 1e6, 0) < JoinCost.probe(hashed, 1e6, 0));
        assertTrue(JoinCost.probe(hashed, 1e6, 0) < JoinCost.probe(twoKeys, 1e6, 0));
    }

    @Test
    void aTableBeyondTheCachesCostsMorePerLookup() {
        double small = JoinCost.probe(new JoinCost.Table(1_000, true, 1_000, 1), 1e6, 0);
        double large = JoinCost.probe(new JoinCost.Table(1e7, true, 1e7, 1), 1e6, 0);
        assertTrue(large > 1.5 * small, () -> small + " against " + large);
        // a perfect table's whole key range counts, however few rows fill it (a 10M-key range is 40 MB)
        double sparse = JoinCost.probe(new JoinCost.Table(1_000, true, 1e7, 1), 1e6, 0);
        assertTrue(sparse > 1.5 * small, () -> small + " against " + sparse);
        assertTrue(JoinCost.build(new JoinCost.Table(1_000, true, 1e7, 1)) > JoinCost.build(new JoinCost.Table(1_000, true, 1_000, 1)));
    }

    @Test
    void aRangedIndexReadInKeyOrderCostsLessThanOneReadInNoOrder() {
        // orders at TPC-H SF 10: 15M rows over a 60M-key span, too long for a perfect table
        double rows = 1.5e7;
        double span = 6e7;
        assertTrue(JoinCost.orderedIndex(rows, 0, span), "ranged: one key, a span below 2^32, built by the workers");
        assertTrue(JoinCost.orderedIndex(100, span, span), "perfect");
        assertTrue(!JoinCost.orderedIndex(rows, 0, 0x1p33), "a span past 2^32");
        assertTrue(!JoinCost.orderedIndex(rows, 0, 0), "no known span");
        assertTrue(!JoinCost.orderedIndex(1_000, 0, span), "too few rows to be built by the workers");
        JoinCost.Table inOrder = new JoinCost.Table(rows, true, 0, 1, true, true);
        JoinCost.Table noOrder = new JoinCost.Table(rows, true, 0, 1);
        assertTrue(JoinCost.probe(inOrder, 6e7, 6e7) < JoinCost.probe(noOrder, 6e7, 6e7));
        assertTrue(JoinCost.build(inOrder) < JoinCost.build(noOrder));
    }
}
