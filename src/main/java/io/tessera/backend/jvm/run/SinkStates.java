package io.tessera.backend.jvm.run;

import io.tessera.backend.jvm.aggregate.DenseGroupTable;
import io.tessera.backend.jvm.aggregate.HashGroupTable;
import io.tessera.backend.jvm.aggregate.OrderedRuns;
import io.tessera.backend.jvm.aggregate.PartitionedInput;
import io.tessera.backend.jvm.aggregate.SharedGroupTable;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.HashFunction;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.Pipeline;
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

    /** A state of one worker's own, its buffers grown as rows come. */
    static Object perWorker(EmittedPipeline e) {
        return perWorker(e, 0);
    }

    /** Most rows a worker's buffers grow towards in large steps. */
    static final long MAX_EXPECTED_ROWS = 1L << 28;

    /**
     * A state of one worker's own, whose row buffers grow towards {@code expectedRows} rows (0: unknown) in large
     * steps rather than by halves, so that the rows are copied fewer times: the optimizer's estimate of the rows
     * reaching the sink, capped by the source's.
     */
    static Object perWorker(EmittedPipeline e, long expectedRows) {
        int rows = (int) Math.max(0, Math.min(MAX_EXPECTED_ROWS, expectedRows));
        return switch (e.pipeline().sink()) {
            case Sink.Build b -> new RowBuffer(e.bufferKinds(), 1024, rows);
            case Sink.Materialize m -> new RowBuffer(e.bufferKinds(), 1024, rows);
            case Sink.Sort s -> new RowBuffer(e.bufferKinds(), 1024, rows);
            case Sink.Window w -> new RowBuffer(e.bufferKinds(), 1024, rows);
            case Sink.Marks m -> m; // the rows only set marks in the join table: no state of their own
            case Sink.Aggregate a -> new DenseGroupTable(e.aggs(), new long[0], new long[0]);
            case Sink.GroupAggregate ga -> {
                if (e.dense()) {
                    yield new DenseGroupTable(e.aggs(), e.denseMins(), e.denseSizes());
                }
                if ("partitioned".equals(e.genome().get(JvmDimensions.AGGREGATION))) {
                    yield new PartitionedInput(e.bufferKinds(), rows, PartitionedInput.bitsFor(ga.estimatedGroups()));
                }
                if ("ordered".equals(e.genome().get(JvmDimensions.AGGREGATION))) {
                    yield new OrderedRuns(hashTable(e, ga));
                }
                yield hashTable(e, ga);
            }
        };
    }

    /**
     * The rows each of {@code workers} is expected to hand the sink of {@code e} when they share {@code sourceRows}
     * source rows: the estimate of the rows reaching the sink, at most the source's; 0 where there is no estimate.
     */
    static long expectedRowsPerWorker(EmittedPipeline e, long sourceRows, int workers) {
        Pipeline p = e.pipeline();
        double rows = p.estimatedRowsAfter(p.operations().size() - 1);
        if (Double.isNaN(rows) || rows <= 0) {
            return 0;
        }
        long share = (long) Math.min(rows, sourceRows) / Math.max(1, workers);
        return share + share / 8; // the morsels a worker takes are not exactly its share
    }

    /** An empty hash table of a grouping pipeline's groups, sized by the planner's estimate. */
    static HashGroupTable hashTable(EmittedPipeline e, Sink.GroupAggregate ga) {
        return new HashGroupTable(e.aggs(), e.keyWidth(), e.nullableKeys(), HashFunction.murmur(e.genome()),
                (int) Math.min(1 << 16, ga.estimatedGroups()));
    }

    /**
     * The kind of sink state a genome's code fills: its aggregation for a grouping pipeline (dense, hash, shared,
     * partitioned, ordered), one kind ("") for every other pipeline.
     */
    static String kind(Genome g) {
        return g.has(JvmDimensions.AGGREGATION) ? g.get(JvmDimensions.AGGREGATION) : "";
    }
}
