package io.tessera.sqltest;

import io.tessera.exec.Placement;
import io.tessera.backend.cuda.exec.CudaBackend;
import io.tessera.backend.cuda.exec.GpuPlan;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.Database;
import io.tessera.variant.CudaVariantSpace;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each pipeline of a query would run on a GPU, planned as for the GPU and decided by the executor's placement
 * code alone (it emits the kernels but needs no GPU): one line per pipeline, {@code pipeline <id>: gpu} or
 * {@code pipeline <id>: jvm: <reason>}.
 */
final class GpuPlacementText {

    private GpuPlacementText() {
    }

    static List<String> lines(SqlSession session, String sql) {
        Database db = session.database();
        QueryPlan plan = session.engine().plan(sql, io.tessera.exec.Device.GPU); // as a run on the GPU plans it
        Placement placed = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE,
                GpuPlan.placementOnly(db, plan, CudaVariantSpace.INSTANCE.defaults(plan)));
        List<String> out = new ArrayList<>();
        for (Pipeline p : plan.pipelines()) {
            out.add("pipeline " + p.id() + ": " + (placed.onHost(p.id()) ? "jvm: " + placed.reasons().get(p.id()) : "gpu"));
        }
        return out;
    }
}
