package io.tessera.plan;

import io.tessera.storage.DataType;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which probes a runtime join filter may test, and where the estimates choose a Bloom filter. */
class RuntimeFiltersTest {

    private static final Expr KEY = PipelineAnalysisTest.col(0, DataType.INTEGER, true);
    private static final Expr KEY2 = PipelineAnalysisTest.col(1, DataType.BIGINT, false);

    private static Sink.Build build(int j, double rows, long domain, boolean keepsNullKeys, Expr... keys) {
        return new Sink.Build(j, List.of(keys), List.of(), List.of(), false, new KeyRange(0, domain - 1), rows,
                Arrays.asList(new DataType[keys.length]), keepsNullKeys);
    }

    private static Operation.Probe probe(JoinKind kind, Sink.Build b, Expr... keys) {
        return new Operation.Probe(b.joinId(), List.of(keys), kind, b);
    }

    private static Pipeline pipeline(double sourceRows, Operation... ops) {
        return new Pipeline(0, new Source.RelationScan(0, List.of(), sourceRows), List.of(ops),
                new Sink.Materialize(List.of(), List.of(), 0, -1, 1));
    }

    /** A pipeline of two operations with the rows estimated after each (and NaN for its sink's). */
    private static Pipeline pipeline(double sourceRows, Operation first, double afterFirst, Operation second,
                                     double afterSecond) {
        return new Pipeline(0, new Source.RelationScan(0, List.of(), sourceRows), List.of(first, second),
                new Sink.Materialize(List.of(), List.of(), 0, -1, 1),
                List.of(sourceRows, afterFirst, afterSecond, Double.NaN));
    }

    private static boolean bloomPays(Pipeline p, Operation.Probe pr) {
        return RuntimeFilters.bloomPays(p, p.operations(), pr);
    }

    @Test
    void onlyInnerSemiAndMarkProbesOnSourceColumnsAreFiltered() {
        Sink.Build b = build(1, 100, 1000, false, KEY);
        for (JoinKind kind : JoinKind.values()) {
            boolean expected = kind != JoinKind.ANTI && kind != JoinKind.LEFT;
            assertEquals(expected, RuntimeFilters.filterable(probe(kind, b, KEY)), kind.name());
        }
        assertTrue(RuntimeFilters.filterable(probe(JoinKind.INNER, build(1, 100, 1000, false, KEY, KEY2), KEY, KEY2)));
        assertTrue(RuntimeFilters.filterable(new Operation.Probe(1, List.of(KEY), JoinKind.INNER, b, null, true)),
                "an inner probe that marks: a row without a match marks nothing");
        assertFalse(RuntimeFilters.filterable(probe(JoinKind.INNER, build(1, 100, 1000, true, KEY), KEY)),
                "a table that keeps its NULL keys");
        Expr payload = new Expr.Ref(new Slot(2, 0, "p", DataType.INTEGER, false, null, null));
        assertFalse(RuntimeFilters.filterable(probe(JoinKind.INNER, b, payload)), "a key read from a build row");
        Expr computed = PipelineAnalysisTest.call(Op.ADD, DataType.INTEGER, KEY, PipelineAnalysisTest.lit(1L, DataType.INTEGER));
        assertFalse(RuntimeFilters.filterable(probe(JoinKind.INNER, b, computed)), "a computed key");
    }

    /** Keys over 100M values: too wide for a perfect table, so the table is hashed (24 bytes a row). */
    private static final long WIDE = 100_000_000;

    @Test
    void aBloomFilterPaysForManySelectiveProbesIntoALargeHashedTable() {
        Operation.Probe selective = probe(JoinKind.INNER, build(1, 200_000, WIDE, false, KEY), KEY);
        assertTrue(bloomPays(pipeline(10_000_000, selective), selective));
        assertEquals("bloom", RuntimeFilters.estimatedStrategy(pipeline(10_000_000, selective)));
        assertFalse(bloomPays(pipeline(10_000, selective), selective), "few probing rows");
        Operation.Probe cached = probe(JoinKind.INNER, build(1, 1_000, WIDE, false, KEY), KEY);
        assertFalse(bloomPays(pipeline(10_000_000, cached), cached), "a table in the cache");
        Operation.Probe perfect = probe(JoinKind.INNER, build(1, 200_000, 10_000_000, false, KEY), KEY);
        assertFalse(bloomPays(pipeline(10_000_000, perfect), perfect),
                "a perfect table of 40 MB: its lookup keeps the probe keys' order, the filter's hash does not");
        Operation.Probe hashed = probe(JoinKind.INNER, build(1, 1_000, 200_000, false, KEY, KEY2), KEY, KEY2);
        assertFalse(bloomPays(pipeline(10_000_000, hashed), hashed), "few rows in a hashed table");
        Operation.Probe bigHashed = probe(JoinKind.INNER, build(1, 100_000, 200_000, false, KEY, KEY2), KEY, KEY2);
        assertFalse(bloomPays(pipeline(10_000_000, bigHashed), bigHashed),
                "two keys without statistics: a match per row assumed");
        Operation.Probe matching = probe(JoinKind.INNER, build(1, 60_000_000, WIDE, false, KEY), KEY);
        assertFalse(bloomPays(pipeline(10_000_000, matching), matching), "most rows match");
        assertEquals("none", RuntimeFilters.estimatedStrategy(pipeline(10_000_000, matching)),
                "no statistics say the range cuts");
        assertEquals("bloom", RuntimeFilters.estimatedStrategy(pipeline(10_000_000, matching, selective)));
    }

    @Test
    void eachProbeGetsOnlyTheTestsThatPay() {
        Operation.Probe selective = probe(JoinKind.INNER, build(1, 200_000, WIDE, false, KEY), KEY);
        Operation.Probe matching = probe(JoinKind.INNER, build(2, 60_000_000, WIDE, false, KEY2), KEY2);
        Operation.Probe cached = probe(JoinKind.SEMI, build(3, 1_000, 10_000, false, KEY), KEY);
        Pipeline p = pipeline(10_000_000, selective, matching, cached);
        assertEquals(List.of(new RuntimeFilters.ProbeFilter(selective, false, true)),
                RuntimeFilters.filters(p, p.operations(), "bloom"), "a Bloom filter for the selective probe alone");
        // the filter sits just before its probe: only the rows the probes ahead keep are tested, and they are enough
        Pipeline tenth = pipeline(10_000_000, cached, 1_000_000, selective, 20_000);
        assertEquals(List.of(new RuntimeFilters.ProbeFilter(selective, false, true)),
                RuntimeFilters.filters(tenth, tenth.operations(), "bloom"),
                "a million rows reach the selective probe: each tested one saves a lookup it would miss");
        Pipeline hundredth = pipeline(10_000_000, cached, 100_000, selective, 2_000);
        assertEquals(List.of(), RuntimeFilters.filters(hundredth, hundredth.operations(), "bloom"),
                "100,000 rows reach the selective probe: too few to repay the filter's build");
        assertEquals("none", RuntimeFilters.estimatedStrategy(hundredth));
        // the rows reaching a probe follow the order the code runs the operations in, not the written one
        Pipeline written = pipeline(10_000_000, selective, 200_000, cached, 2_000);
        assertEquals(10_000_000, RuntimeFilters.rowsReaching(written, written.operations(), selective));
        assertEquals(100_000, RuntimeFilters.rowsReaching(written, List.of(cached, selective), selective), 1e-6,
                "the cached probe, run first, keeps a hundredth of the rows");
        assertEquals(List.of(), RuntimeFilters.filters(written, List.of(cached, selective), "bloom"));
        assertEquals(200_000, RuntimeFilters.rowsReaching(written, List.of(cached), cached), 1e-6,
                "an operation missing from those emitted ran ahead of them");
        assertEquals(List.of(), RuntimeFilters.filters(p, p.operations(), "range"), "no range is known to cut");
        assertEquals(List.of(), RuntimeFilters.filters(p, p.operations(), "none"));
        System.setProperty(RuntimeFilters.EVERY_PROBE, "true");
        try {
            assertEquals(List.of(new RuntimeFilters.ProbeFilter(selective, true, true),
                            new RuntimeFilters.ProbeFilter(matching, true, true),
                            new RuntimeFilters.ProbeFilter(cached, true, true)),
                    RuntimeFilters.filters(p, p.operations(), "bloom"), "every probe, in the probes' order");
        } finally {
            System.clearProperty(RuntimeFilters.EVERY_PROBE);
        }
    }

    /**
     * A perfect table beyond the second-level cache that most probing rows miss gets its presence bits under bloom
     * (SSB SF 20's filtered customers: 3,800 rows over a 600K-key range, 2.4 MB of slots); a small one, one most
     * rows match, or one probed by few rows gets nothing, and range alone never tests a perfect table.
     */
    @Test
    void aLargePerfectTableMostRowsMissGetsItsPresenceBits() {
        Operation.Probe customers = probe(JoinKind.INNER, build(1, 3_800, 600_000, false, KEY), KEY);
        Pipeline p = pipeline(120_000_000, customers);
        assertTrue(RuntimeFilters.presencePays(p, p.operations(), customers));
        assertFalse(bloomPays(p, customers), "no Bloom filter for a perfect table");
        assertEquals(List.of(new RuntimeFilters.ProbeFilter(customers, false, true)),
                RuntimeFilters.filters(p, p.operations(), "bloom"));
        assertEquals("bloom", RuntimeFilters.estimatedStrategy(p));
        assertEquals(List.of(), RuntimeFilters.filters(p, p.operations(), "range"));
        // on many cores only presence bits: a pipeline that would also test a Bloom filter gets none
        assertEquals("bloom", RuntimeFilters.presenceStrategy(p));
        Operation.Probe hashed = probe(JoinKind.INNER, build(4, 200_000, WIDE, false, KEY), KEY);
        assertEquals("none", RuntimeFilters.presenceStrategy(pipeline(120_000_000, hashed)));
        assertEquals("none", RuntimeFilters.presenceStrategy(pipeline(120_000_000, customers, hashed)));
        Operation.Probe dates = probe(JoinKind.INNER, build(2, 30, 61_000, false, KEY), KEY);
        assertFalse(RuntimeFilters.presencePays(pipeline(120_000_000, dates), List.of(dates), dates),
                "244 KB of slots stay in the cache");
        Operation.Probe full = probe(JoinKind.INNER, build(3, 600_000, 600_000, false, KEY), KEY);
        assertFalse(RuntimeFilters.presencePays(pipeline(120_000_000, full), List.of(full), full), "every row matches");
        assertFalse(RuntimeFilters.presencePays(pipeline(100_000, customers), List.of(customers), customers),
                "too few rows reach the probe");
    }

    @Test
    void aBloomFilterChosenFromEstimatesIsSkippedWhereTheBuiltTableIsInTheCache() {
        // TPC-H Q18's subquery: ~5M rows estimated, 624 built, a table a lookup finds in the cache
        assertFalse(RuntimeFilters.bloomPaysFor(624));
        assertTrue(RuntimeFilters.bloomPaysFor(1_460_000));
        System.setProperty(RuntimeFilters.EVERY_PROBE, "true");
        try {
            assertTrue(RuntimeFilters.bloomPaysFor(624));
        } finally {
            System.clearProperty(RuntimeFilters.EVERY_PROBE);
        }
    }
}
