package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.data.ssb.SmallSsb;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.CudaVariantSpace;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU compares doubles in DuckDB's order, NaN above every number: a side that may be NaN is tested for it (the
 * header's NanLess and its kin where the side is computed), a side that cannot stays a plain comparison; a MIN or MAX
 * of doubles, whose device extremes would lose NaN, stays on the JVM with the reason.
 */
class CudaNanOrderTest extends SmallSsb {

    private static GpuPlacement placed(QueryPlan plan) {
        return GpuPlacement.place(plan, CudaVariantSpace.INSTANCE.defaults(plan), key -> GpuPlan.dictionary(db, key));
    }

    private static String kernel(String sql) {
        QueryPlan plan = CudaCapabilitiesTest.plan(sql);
        GpuPlacement placed = placed(plan);
        Pipeline first = plan.pipelines().get(0);
        assertTrue(placed.onGpu(first.id()), placed.jvmReasons().toString());
        return placed.kernels().get(first.id()).source();
    }

    @Test
    void aComputedDoubleAboveAConstantPassesNaN() {
        String k = kernel("select count(*) from lineorder where lo_quantity::double * 1.5 > 40");
        assertTrue(k.contains("NanLess("), k);
        String both = kernel("select count(*) from lineorder where lo_quantity::double * 1.5 = lo_discount::double / 0.0");
        assertTrue(both.contains("NanEqual("), both);
    }

    @Test
    void aComparisonNoNaNChangesStaysPlain() {
        // a NaN is not below 40, and an integer converted to a double is never NaN
        String below = kernel("select count(*) from lineorder where lo_quantity::double * 1.5 < 40");
        assertFalse(below.contains("NanLess(") || below.contains("NanLessOrEqual("), below);
        String converted = kernel("select count(*) from lineorder where lo_quantity::double > 40");
        assertFalse(converted.contains("Nan"), converted);
    }

    @Test
    void minAndMaxOfDoublesStayOnTheJvm() {
        QueryPlan plan = CudaCapabilitiesTest.plan("select max(lo_quantity::double * 1.5) from lineorder");
        Map<Integer, String> reasons = placed(plan).jvmReasons();
        String why = reasons.get(plan.pipelines().get(0).id());
        assertEquals(true, why != null && why.contains("NaN is greater than every number"), reasons.toString());
    }
}
