package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.Expr;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Sink;
import io.tessera.storage.TypeKind;

import java.util.List;

/**
 * The groups a GROUP_AGGREGATE kernel leaves on the device, or the one row of an AGGREGATE kernel's, as a later
 * kernel that scans them sees them: the pipeline that wrote them and the layout of its group table ({@link
 * GroupScan}).
 */
public record ScannedGroups(Pipeline writer, SinkLayout.Aggregate layout) {

    /** The writer's group keys (none for a scalar aggregation). */
    List<Expr> keys() {
        return writer.sink() instanceof Sink.GroupAggregate ga ? ga.keys() : List.of();
    }

    /** The names of the writer's group keys. */
    List<String> keyNames() {
        return writer.sink() instanceof Sink.GroupAggregate ga ? ga.keyNames() : List.of();
    }

    /** The writer's aggregates. */
    List<AggCall> aggs() {
        return writer.sink() instanceof Sink.GroupAggregate ga ? ga.aggs() : ((Sink.Aggregate) writer.sink()).aggs();
    }

    /** Whether the writer is a scalar aggregation, whose one row exists even over no input rows. */
    boolean scalar() {
        return writer.sink() instanceof Sink.Aggregate;
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
