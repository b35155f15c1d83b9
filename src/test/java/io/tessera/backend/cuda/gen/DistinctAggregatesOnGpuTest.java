package io.tessera.backend.cuda.gen;

import io.tessera.api.QueryResult;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.data.ssb.SmallSsb;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DISTINCT aggregates in a plan for the GPU: two aggregations, the second a kernel over the first one's group
 * table on the device; the same answers as the JVM's set per group (the plan for the GPU run on the JVM here).
 */
class DistinctAggregatesOnGpuTest extends SmallSsb {

    private static QueryPlan plan(String sql, Device device) {
        return new QueryEngine(db).plan(sql, device);
    }

    private static GpuPlacement place(QueryPlan plan) {
        return GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan), key -> GpuPlan.dictionary(db, key));
    }

    private static List<AggFunction> functions(Pipeline p) {
        List<AggCall> calls = switch (p.sink()) {
            case Sink.GroupAggregate ga -> ga.aggs();
            case Sink.Aggregate a -> a.aggs();
            default -> List.of();
        };
        List<AggFunction> out = new ArrayList<>();
        calls.forEach(c -> out.add(c.function()));
        return out;
    }

    /** The rows of a query on the JVM, planned for the GPU (no GPU here) and for the CPU, sorted as text. */
    private static void sameAnswers(String sql) {
        QueryResult split = new QueryEngine(db, 2, Device.GPU).execute(sql);
        QueryResult set = new QueryEngine(db, 2, Device.CPU).execute(sql);
        assertEquals(text(set), text(split), sql);
    }

    private static List<String> text(QueryResult r) {
        List<String> rows = new ArrayList<>();
        for (Object[] row : r.rows()) {
            rows.add(java.util.Arrays.toString(row));
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void groupedCountDistinctIsTwoAggregationsOnTheDevice() {
        String sql = "select c_region, count(distinct lo_suppkey), count(*), sum(lo_revenue), max(lo_discount) "
                + "from lineorder, customer where lo_custkey = c_custkey group by c_region";
        QueryPlan cpu = plan(sql, Device.CPU);
        assertTrue(cpu.pipelines().stream().anyMatch(p -> functions(p).contains(AggFunction.COUNT_DISTINCT)),
                cpu.explain());
        QueryPlan gpu = plan(sql, Device.GPU);
        assertTrue(gpu.pipelines().stream().flatMap(p -> functions(p).stream()).noneMatch(AggFunction::distinct),
                gpu.explain());
        Pipeline first = gpu.pipelines().stream().filter(p -> p.source() instanceof Source.TableScan ts
                && ts.table().name().equals("lineorder")).findFirst().orElseThrow();
        Sink.GroupAggregate firstSink = assertInstanceOf(Sink.GroupAggregate.class, first.sink());
        assertEquals(2, firstSink.keys().size(), gpu.explain()); // the region and the supplier
        Pipeline second = gpu.pipelines().stream().filter(p -> p.source() instanceof Source.RelationScan rs
                && rs.relationId() == firstSink.relationId()).findFirst().orElseThrow();
        Sink.GroupAggregate secondSink = assertInstanceOf(Sink.GroupAggregate.class, second.sink());
        assertEquals(List.of(AggFunction.COUNT_STAR, AggFunction.SUM0, AggFunction.SUM, AggFunction.MAX),
                functions(second), gpu.explain());
        assertEquals(1, secondSink.keys().size());
        GpuPlacement placed = place(gpu);
        assertTrue(placed.onGpu(first.id()) && placed.onGpu(second.id()), placed.jvmReasons().toString());
        // the second kernel reads the first one's group table slot by slot
        String src = placed.kernels().get(second.id()).source();
        assertTrue(src.contains("flags[i] = grp_rows[s] != 0ull"), src);
        sameAnswers(sql);
    }

    @Test
    void anArgumentThatCanBeNullIsGroupedByItsValueOrZero() {
        String sql = "select d_year, count(distinct case when lo_discount > 5 then lo_discount - 6 end), "
                + "sum(distinct case when lo_discount > 5 then lo_discount - 6 end) from lineorder, ddate "
                + "where lo_orderdate = d_datekey group by d_year";
        QueryPlan gpu = plan(sql, Device.GPU);
        String explain = gpu.explain();
        assertTrue(explain.contains("coalesce(case(gt(lo_discount, 5)"), explain);
        GpuPlacement placed = place(gpu);
        for (Pipeline p : gpu.pipelines()) {
            if (p.sink() instanceof Sink.GroupAggregate) {
                assertTrue(placed.onGpu(p.id()), placed.jvmReasons().toString());
            }
        }
        sameAnswers(sql);
        // no GROUP BY, NULLs and 0 among the values, and no rows at all
        sameAnswers("select count(distinct case when lo_discount > 5 then lo_discount - 6 end), count(*) from lineorder");
        sameAnswers("select count(distinct lo_suppkey), sum(distinct lo_suppkey) from lineorder where lo_quantity > 99");
    }

    @Test
    void whatCannotBeSplitStaysOnTheJvmWithItsReason() {
        for (String sql : List.of("select count(distinct lo_suppkey), count(distinct lo_partkey) from lineorder",
                "select lo_discount, count(distinct lo_suppkey), avg(lo_revenue) from lineorder group by lo_discount")) {
            QueryPlan gpu = plan(sql, Device.GPU);
            Pipeline p = gpu.pipelines().get(0);
            assertTrue(functions(p).contains(AggFunction.COUNT_DISTINCT), gpu.explain());
            GpuPlacement placed = place(gpu);
            assertFalse(placed.onGpu(p.id()));
            assertEquals("count(distinct lo_suppkey) beside aggregates that keep it from being split into two "
                            + "aggregations (DISTINCT of another argument, or AVG, a statistic or a FILTER clause)",
                    placed.jvmReasons().get(p.id()));
            sameAnswers(sql);
        }
    }
}
