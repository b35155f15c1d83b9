package io.tessera.backend.jvm.run;

import io.tessera.backend.jvm.aggregate.DenseGroupTable;
import io.tessera.backend.jvm.aggregate.HashGroupTable;
import io.tessera.backend.jvm.aggregate.PartitionedInput;
import io.tessera.backend.jvm.aggregate.SharedGroupTable;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.HashFunction;
import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

/** The sink states an emitted pipeline's workers fill: the layout its code expects of {@code sinkState}. */
final class SinkStates {

    private SinkStates() {
    }

    /** The one sink state all workers share (agg=shared), or null when each worker has its own. */
    static Object shared(EmittedPipeline e) {
        if (e.pipeline().sink() instanceof Sink.GroupAggregate ga && "shared".equals(e.genome().get(JvmDimensions.AGGREGATION))) {
            return new SharedGroupTable(e.aggs(), e.keyWidth(), e.nullableKeys(), HashFunction.murmur(e.genome()),
                    (int) Math.min(1 << 16, ga.estimatedGroups()));
        }
        return null;
    }

    /** A state of one worker's own. */
    static Object perWorker(EmittedPipeline e) {
        return switch (e.pipeline().sink()) {
            case Sink.Build b -> new RowBuffer(e.bufferKinds(), 1024);
            case Sink.Materialize m -> new RowBuffer(e.bufferKinds(), 1024);
            case Sink.Sort s -> new RowBuffer(e.bufferKinds(), 1024);
            case Sink.Window w -> new RowBuffer(e.bufferKinds(), 1024);
            case Sink.Marks m -> m; // the rows only set marks in the join table: no state of their own
            case Sink.Aggregate a -> new DenseGroupTable(e.aggs(), new long[0], new long[0]);
            case Sink.GroupAggregate ga -> {
                if (e.dense()) {
                    yield new DenseGroupTable(e.aggs(), e.denseMins(), e.denseSizes());
                }
                if ("partitioned".equals(e.genome().get(JvmDimensions.AGGREGATION))) {
                    yield new PartitionedInput(e.bufferKinds());
                }
                yield hashTable(e, ga);
            }
        };
    }

    /** An empty hash table of a grouping pipeline's groups, sized by the planner's estimate. */
    static HashGroupTable hashTable(EmittedPipeline e, Sink.GroupAggregate ga) {
        return new HashGroupTable(e.aggs(), e.keyWidth(), e.nullableKeys(), HashFunction.murmur(e.genome()),
                (int) Math.min(1 << 16, ga.estimatedGroups()));
    }

    /**
     * The kind of sink state a genome's code fills: its aggregation for a grouping pipeline (dense, hash, shared,
     * partitioned), one kind ("") for every other pipeline.
     */
    static String kind(Genome g) {
        return g.has(JvmDimensions.AGGREGATION) ? g.get(JvmDimensions.AGGREGATION) : "";
    }
}
