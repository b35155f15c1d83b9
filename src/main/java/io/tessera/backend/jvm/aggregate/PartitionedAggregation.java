package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.host.WorkerTasks;
import io.tessera.plan.Sink;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The second phase of a partitioned aggregation (agg=partitioned): the pipeline's workers take partitions in turn
 * and aggregate each one's rows, as buffered by every worker, into a hash table of its own with the emitted
 * {@link PipelineCode#aggregatePartition}. Partitions hold disjoint keys, so their tables' groups are the result as
 * they are, nothing merged.
 */
final class PartitionedAggregation {

    /** Most groups a partition's table is made with room for before it grows (an estimate may be far too high). */
    static final int MAX_PRESIZED_GROUPS = 1 << 20;

    private PartitionedAggregation() {
    }

    /** The partitions' tables (their keys are disjoint). */
    static List<HashGroupTable> aggregate(EmittedPipeline e, PipelineCode code, List<Object> states,
                                          ExecutorService pool) {
        int partitions = ((PartitionedInput) states.get(0)).parts.length;
        Sink.GroupAggregate ga = (Sink.GroupAggregate) e.pipeline().sink();
        boolean murmur = e.genome().has(JvmDimensions.HASH) && "murmur".equals(e.genome().get(JvmDimensions.HASH));
        long estimated = (long) Math.max(1, ga.estimatedGroups() / partitions);
        HashGroupTable[] tables = new HashGroupTable[partitions];
        int workers = e.genome().has(JvmDimensions.WORKERS) ? e.genome().getInt(JvmDimensions.WORKERS) : 1;
        WorkerTasks.run(pool, workers, partitions, p -> {
            // a partition has no more groups than rows: sized by the estimate alone, 64 tables of a small
            // input's partitions took hundreds of megabytes per run (q3.3 at SF 1: young collections of 6 to 49 ms);
            // within that bound, room for all estimated groups, so that a large table is not rehashed as it fills
            // (TPC-H Q18 at SF 10: 234,000 groups a partition, past the 65,536 a table otherwise starts with)
            long rows = 0;
            for (Object s : states) {
                rows += ((PartitionedInput) s).parts[p].size;
            }
            int expected = (int) Math.min(MAX_PRESIZED_GROUPS, Math.min(estimated, rows));
            HashGroupTable t = HashGroupTable.withRoomFor(e.aggs(), e.keyWidth(), e.nullableKeys(), murmur, expected);
            for (Object s : states) {
                code.aggregatePartition(((PartitionedInput) s).parts[p], t);
            }
            tables[p] = t;
        });
        List<HashGroupTable> out = new ArrayList<>();
        for (HashGroupTable t : tables) {
            if (t.groups > 0) {
                out.add(t);
            }
        }
        return out.isEmpty() ? List.of(tables[0]) : out;
    }
}
