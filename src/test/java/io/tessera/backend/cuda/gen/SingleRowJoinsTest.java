package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.data.ssb.SmallSsb;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A join without an equality condition whose build side has at most one row (a scalar subquery's) runs on the GPU:
 * the planner marks its constant key unique, the BUILD writes the row into a one-slot table with a NULL flag beside
 * each payload column where a value can be NULL, and every probing row reads that row; a build side that may have
 * several rows stays on the JVM.
 */
class SingleRowJoinsTest extends SmallSsb {

    private static GpuPlacement place(QueryPlan plan) {
        return GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan), key -> GpuPlan.dictionary(db, key));
    }

    private static Pipeline builder(QueryPlan plan) {
        return plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Build b
                && b.keys().stream().allMatch(k -> k instanceof io.tessera.plan.Expr.Literal)).findFirst().orElseThrow();
    }

    private static Pipeline prober(QueryPlan plan, int joinId) {
        return plan.pipelines().stream().filter(p -> p.operations().stream().anyMatch(
                op -> op instanceof io.tessera.plan.Operation.Probe pr && pr.joinId() == joinId)).findFirst().orElseThrow();
    }

    @Test
    void aScalarThatCanBeNullIsBroadcastWithItsNullFlag() {
        QueryPlan plan = CudaCapabilitiesTest.plan("select count(*) from lineorder where lo_revenue > "
                + "(select avg(lo_revenue) from lineorder where lo_discount > 5)");
        Pipeline build = builder(plan);
        Sink.Build b = (Sink.Build) build.sink();
        assertTrue(b.uniqueKeys(), b.toString());
        GpuPlacement placed = place(plan);
        Pipeline probe = prober(plan, b.joinId());
        assertTrue(placed.onGpu(build.id()) && placed.onGpu(probe.id()), placed.jvmReasons().toString());
        String built = placed.kernels().get(build.id()).source();
        // the value, and whether it is NULL (an AVG over no rows), at the table's one slot
        assertTrue(built.contains("build_pay1[slot] = (c0_null[i] != 0);") && built.contains("build_pay0[slot] = "), built);
        String probed = placed.kernels().get(probe.id()).source();
        String j = "j" + b.joinId();
        // a NULL scalar makes the comparison unknown: the row is dropped
        assertTrue(probed.contains(j + "_p1[i] = " + j + "_pay1[slot];"), probed);
        assertTrue(probed.contains("((" + j + "_p1[i] != 0) ? false : "), probed);
    }

    @Test
    void aScalarThatIsNeverNullHasNoFlags() {
        QueryPlan plan = CudaCapabilitiesTest.plan("select count(*) from lineorder, (select count(*) as c from supplier) t "
                + "where lo_quantity < t.c");
        Pipeline build = builder(plan);
        GpuPlacement placed = place(plan);
        Pipeline probe = prober(plan, ((Sink.Build) build.sink()).joinId());
        assertTrue(placed.onGpu(build.id()) && placed.onGpu(probe.id()), placed.jvmReasons().toString());
        SinkLayout.Build layout = (SinkLayout.Build) placed.kernels().get(build.id()).sink();
        assertFalse(layout.table().nullFlags());
        assertEquals(List.of(CType.LONG), layout.table().payloadTypes());
        assertFalse(placed.kernels().get(probe.id()).source().contains("_pay1"));
    }

    @Test
    void aBuildSideOfSeveralRowsStaysOnTheJvm() {
        QueryPlan plan = CudaCapabilitiesTest.plan("select count(*) from supplier, customer "
                + "where s_suppkey < c_custkey and c_nation = 'PERU'");
        Pipeline build = builder(plan);
        assertFalse(((Sink.Build) build.sink()).uniqueKeys());
        GpuPlacement placed = place(plan);
        assertEquals("a join without an equality condition", placed.jvmReasons().get(build.id()));
    }
}
