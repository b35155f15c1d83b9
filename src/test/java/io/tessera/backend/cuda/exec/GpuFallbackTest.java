package io.tessera.backend.cuda.exec;

import io.tessera.exec.*;
import io.tessera.api.QueryResult;
import io.tessera.backend.cuda.gen.GpuPlacement;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.bench.Queries;
import io.tessera.bench.ResultMatch;
import io.tessera.data.ssb.SmallSsb;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device selection: a query asked to run on the GPU gives the JVM backend's rows, on the GPU when there is one and
 * otherwise on the JVM with one line saying why; auto says nothing when there is no GPU. And the placement of SSB
 * q2.1: its four table scans on the GPU, the final sort of the groups on the JVM, with the reason.
 */
class GpuFallbackTest extends SmallSsb {

    @Test
    void gpuRequestGivesTheJvmRowsAndSaysWhereItRan() {
        String sql = Queries.sql(Queries.SSB, "q2.1");
        QueryResult cpu = new QueryEngine(db, 2, Device.CPU).execute(sql);
        QueryResult gpu = new QueryEngine(db, 2, Device.GPU).execute(sql);
        assertNull(ResultMatch.difference(cpu, gpu));
        assertTrue(cpu.rowCount() > 0);
        assertEquals("cpu", cpu.execution().device());
        String noGpu = GpuRuntime.unavailableReason();
        if (noGpu != null) {
            assertEquals("cpu", gpu.execution().device());
            assertTrue(gpu.execution().notice().startsWith("ran on the JVM: "), gpu.execution().notice());
            QueryResult auto = new QueryEngine(db, 2, Device.AUTO).execute(sql);
            assertNull(auto.execution().notice());
            assertNull(ResultMatch.difference(cpu, auto));
        } else {
            assertNotEquals("cpu", gpu.execution().device());
            assertEquals(4, gpu.execution().gpuPipelines());
        }
    }

    @Test
    void q21PlacesEveryPipelineOnTheGpuItsSortOverTheGroupTable() {
        QueryPlan plan = new QueryEngine(db).plan(Queries.sql(Queries.SSB, "q2.1"), Device.GPU);
        GpuPlacement placed = GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan), k -> GpuPlan.dictionary(db, k));
        assertEquals(5, plan.pipelines().size());
        // the sort of the groups (by p_brand1, a string) reads them where the aggregation left them (GroupScan)
        assertEquals(5, placed.kernels().size(), placed.jvmReasons().toString());
        assertTrue(plan.pipelines().get(4).sink() instanceof io.tessera.plan.Sink.Sort, plan.pipelines().get(4).toString());
        // the fact kernel probes the part table (the most selective) first
        String fact = placed.kernels().get(plan.pipelines().get(3).id()).source();
        // generated code names columns by their position in the table, never by name
        var lineorder = db.table("lineorder");
        String partkey = "inner on [c" + lineorder.columns().indexOf(lineorder.column("lo_partkey")) + "] (";
        String orderdate = "inner on [c" + lineorder.columns().indexOf(lineorder.column("lo_orderdate")) + "] (";
        assertTrue(fact.contains(partkey) && fact.contains(orderdate), fact);
        assertTrue(fact.indexOf(partkey) < fact.indexOf(orderdate), fact);
    }

    @Test
    void devicesParseAndRejectNonsense() {
        assertEquals(Device.GPU, Device.parse(" GPU "));
        assertEquals(Device.AUTO, Device.parse("auto"));
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Device.parse("tpu")).getMessage().contains("gpu, cpu or auto"));
    }
}
