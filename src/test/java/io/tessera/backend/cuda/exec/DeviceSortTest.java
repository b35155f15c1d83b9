package io.tessera.backend.cuda.exec;

import io.tessera.bench.Queries;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Source;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Which sorts of groups the GPU takes (their answers are checked on a GPU by {@code tessera selftest}): every SSB
 * query's ORDER BY over its groups, and not a sort that computes, sorts by AVG, or reads groups made on the JVM.
 */
class DeviceSortTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(5, 20_000);

    private static String reason(String sql) {
        QueryPlan plan = new QueryEngine(SSB.db(), 1).plan(sql, Device.GPU);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan),
                key -> GpuPlan.dictionary(SSB.db(), key));
        Pipeline sort = plan.pipelines().stream().filter(p -> p.source() instanceof Source.RelationScan)
                .findFirst().orElseThrow();
        return DeviceSort.unsupported(plan, sort, placed);
    }

    @Test
    void everySsbSortOfGroupsRunsOnTheGpu() {
        for (Queries.Query q : Queries.ssb()) {
            if (q.sql().toLowerCase().contains("order by")) {
                assertNull(reason(q.sql()), q.name());
            }
        }
    }

    @Test
    void aLimitOverGroupsHasTheTopKDimensionAndItsGenomeValueChoosesTheCut() {
        String groups = " FROM lineorder, ddate WHERE lo_orderdate = d_datekey GROUP BY d_year";
        QueryPlan plan = new QueryEngine(SSB.db(), 1).plan("SELECT d_year, sum(lo_revenue) AS r" + groups
                + " ORDER BY r DESC LIMIT 3", Device.GPU);
        Pipeline sort = plan.pipelines().stream().filter(p -> p.source() instanceof Source.RelationScan)
                .findFirst().orElseThrow();
        io.tessera.variant.Genome g = CudaVariantSpace.INSTANCE.defaults(plan).get(sort.id());
        assertEquals("bitonic", g.get(CudaVariantSpace.TOP_K));
        assertEquals(io.tessera.backend.cuda.ops.SortMethod.Preference.BITONIC, DeviceSort.preference(g));
        assertEquals(io.tessera.backend.cuda.ops.SortMethod.Preference.SORT,
                DeviceSort.preference(g.with(CudaVariantSpace.TOP_K, "sort")));
        assertEquals(true, CudaVariantSpace.INSTANCE.dimensions(plan, sort).stream()
                .anyMatch(d -> d.name().equals(CudaVariantSpace.TOP_K) && d.values().contains("sort")));
        // a sort of every group, and a LIMIT above what the top-k takes, have no such dimension
        for (String tail : List.of(" ORDER BY r DESC", " ORDER BY r DESC LIMIT 1025")) {
            QueryPlan all = new QueryEngine(SSB.db(), 1).plan("SELECT d_year, sum(lo_revenue) AS r" + groups + tail,
                    Device.GPU);
            all.pipelines().forEach(p -> assertEquals(false, CudaVariantSpace.cutsRelation(p), tail));
        }
        assertEquals(io.tessera.backend.cuda.ops.SortMethod.MAX_TOP_K, CudaVariantSpace.MAX_TOP_K);
    }

    @Test
    void sortsTheGpuLeavesToTheHostSayWhy() {
        String groups = " FROM lineorder, ddate WHERE lo_orderdate = d_datekey GROUP BY d_year";
        assertNull(reason("SELECT d_year, sum(lo_revenue) AS r" + groups + " ORDER BY r DESC LIMIT 3"));
        assertNull(reason("SELECT d_year, min(lo_tax) AS m, count(*) AS c" + groups + " ORDER BY c, m, d_year"));
        assertEquals("it sorts by AVG, whose final value the host computes",
                reason("SELECT d_year, avg(lo_revenue) AS a" + groups + " ORDER BY a"));
        String computes = reason("SELECT d_year + 1 AS y, sum(lo_revenue)" + groups + " ORDER BY y");
        assertEquals(true, computes != null && computes.startsWith("it comput"), computes);
        // COUNT(DISTINCT) of two arguments has no GPU code: the groups are made on the JVM
        String jvm = reason("SELECT d_year, count(DISTINCT lo_custkey) AS c, count(DISTINCT lo_suppkey) AS s" + groups
                + " ORDER BY c");
        assertEquals(true, jvm != null && jvm.contains("runs on the JVM"), jvm);
    }
}
