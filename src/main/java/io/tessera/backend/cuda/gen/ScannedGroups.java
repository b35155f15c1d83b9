package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;
import io.tessera.storage.TypeKind;

import java.util.List;

/**
 * The groups a GROUP_AGGREGATE kernel leaves on the device, as a later kernel that scans them sees them: the
 * pipeline that wrote them and the layout of its group table ({@link GroupScan}).
 */
public record ScannedGroups(Pipeline writer, SinkLayout.Aggregate layout) {

    /** The writer's aggregation. */
    Sink.GroupAggregate aggregation() {
        return (Sink.GroupAggregate) writer.sink();
    }

    /**
     * Whether every aggregate of an aggregation kernel is accumulated as a double exactly when its argument is one,
     * so that its value on the device is what the query's SQL type says (the relations the GPU makes are read as
     * the SQL types lay them out).
     */
    public static boolean accumulatedAsDeclared(List<AggCall> calls, SinkLayout.Aggregate a) {
        return firstNotAsDeclared(calls, a) < 0;
    }

    /** The first aggregate accumulated as a double where its argument is not one, or the reverse; -1 for none. */
    public static int firstNotAsDeclared(List<AggCall> calls, SinkLayout.Aggregate a) {
        for (int i = 0; i < a.aggs().size(); i++) {
            SinkLayout.Agg g = a.aggs().get(i);
            AggCall call = calls.get(i);
            boolean sqlDouble = call.arg() != null && call.arg().type().kind() == TypeKind.DOUBLE;
            if (g.valueType() != null && (g.valueType() == CType.DOUBLE) != sqlDouble) {
                return i;
            }
        }
        return -1;
    }
}
