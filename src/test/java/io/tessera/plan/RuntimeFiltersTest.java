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

    @Test
    void aBloomFilterPaysForManySelectiveProbesIntoALargeTable() {
        Operation.Probe selective = probe(JoinKind.INNER, build(1, 100_000, 1_000_000, false, KEY), KEY);
        assertTrue(RuntimeFilters.bloomPays(pipeline(10_000_000, selective), selective));
        assertEquals("bloom", RuntimeFilters.estimatedStrategy(pipeline(10_000_000, selective)));
        assertFalse(RuntimeFilters.bloomPays(pipeline(10_000, selective), selective), "few probing rows");
        Operation.Probe cached = probe(JoinKind.INNER, build(1, 1_000, 10_000, false, KEY), KEY);
        assertFalse(RuntimeFilters.bloomPays(pipeline(10_000_000, cached), cached), "a table in the cache");
        Operation.Probe sparse = probe(JoinKind.INNER, build(1, 1_000, 200_000, false, KEY), KEY);
        assertTrue(RuntimeFilters.bloomPays(pipeline(10_000_000, sparse), sparse),
                "few rows in a perfect table over a large range");
        Operation.Probe hashed = probe(JoinKind.INNER, build(1, 1_000, 200_000, false, KEY, KEY2), KEY, KEY2);
        assertFalse(RuntimeFilters.bloomPays(pipeline(10_000_000, hashed), hashed), "few rows in a hashed table");
        Operation.Probe matching = probe(JoinKind.INNER, build(1, 100_000, 150_000, false, KEY), KEY);
        assertFalse(RuntimeFilters.bloomPays(pipeline(10_000_000, matching), matching), "most rows match");
        assertEquals("range", RuntimeFilters.estimatedStrategy(pipeline(10_000_000, matching)));
        assertEquals("none", RuntimeFilters.estimatedStrategy(pipeline(10_000_000, matching, cached)),
                "two ranges would read both keys before either probe");
        assertEquals("bloom", RuntimeFilters.estimatedStrategy(pipeline(10_000_000, matching, selective)));
        assertEquals(List.of(selective, matching), RuntimeFilters.bySelectivity(List.of(matching, selective)),
                "the filter that drops most is tested first");
    }
}
