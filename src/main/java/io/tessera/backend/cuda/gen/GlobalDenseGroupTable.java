package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;

import java.util.List;

/** agg=dense: the groups in the global dense arrays, every row's update an atomic there. */
final class GlobalDenseGroupTable extends DenseGroupTable {

    static final GlobalDenseGroupTable INSTANCE = new GlobalDenseGroupTable();

    private GlobalDenseGroupTable() {
    }

    @Override
    public String mode() {
        return "dense";
    }

    @Override
    public String describe() {
        return "dense global array, atomics";
    }

    @Override
    void setUp(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots) {
    }

    @Override
    void update(KernelBuilder k, List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp, long slots) {
        AggCode.atomicUpdates(k, calls, aggs, in, grp, "g_rows", "g_v", "g_n");
    }

    @Override
    void finish(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots) {
    }
}
