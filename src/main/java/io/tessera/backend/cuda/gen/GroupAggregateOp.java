package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.Expr;
import io.tessera.plan.Sink;
import io.tessera.variant.CudaVariantSpace;

import java.util.ArrayList;
import java.util.List;

/**
 * GROUP_AGGREGATE: the selected rows' group keys computed in registers, then the updates of their groups in the
 * table the genome's {@code agg} names ({@link GroupTable}).
 */
final class GroupAggregateOp {

    private GroupAggregateOp() {
    }

    static void emit(KernelBuilder k, Sink.GroupAggregate ga) {
        List<AggCall> calls = ga.aggs();
        List<SinkLayout.Agg> aggs = AggCode.accumulators(k, calls);
        GroupTable table = GroupTable.of(k.g.get(CudaVariantSpace.AGGREGATION));
        AggCode.open(k, "GROUP_AGGREGATE by " + k.codeNames.exprs(ga.keys()) + " " + k.codeNames.aggs(calls) + " (" + table.describe() + ")", aggs);
        // the model's result table in device memory, whichever table the genome keeps
        k.model.groupUpdates();
        List<CValue> keys = new ArrayList<>();
        for (Expr e : ga.keys()) {
            CValue key = k.stored(e);
            if (key.type() == CType.DOUBLE) {
                throw new IllegalStateException("a DOUBLE group key: the capability check excludes it");
            }
            keys.add(key);
        }
        k.sink = table.emit(k, ga, calls, aggs, keys);
    }
}
