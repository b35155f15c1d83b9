package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.plan.Sink;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The second phase of a partitioned aggregation (agg=partitioned): the pipeline's workers take partitions in turn
 * and aggregate each one's rows, as buffered by every worker, into a hash table of its own with the emitted
 * {@link PipelineCode#aggregatePartition}. Partitions hold disjoint keys, so their tables are then concatenated.
 */
final class PartitionedAggregation {

    private PartitionedAggregation() {
    }

    static HashGroupTable aggregate(EmittedPipeline e, PipelineCode code, List<Object> states, boolean[] stringKeys,
                                    ExecutorService pool) {
        int partitions = 1 << PartitionedInput.PARTITION_BITS;
        Sink.GroupAggregate ga = (Sink.GroupAggregate) e.pipeline().sink();
        boolean murmur = e.genome().has(JvmDimensions.HASH) && "murmur".equals(e.genome().get(JvmDimensions.HASH));
        long estimated = (long) Math.max(1, ga.estimatedGroups() / partitions);
        HashGroupTable[] tables = new HashGroupTable[partitions];
        AtomicInteger next = new AtomicInteger();
        Callable<Object> job = () -> {
            int p;
            while ((p = next.getAndIncrement()) < partitions) {
                // a partition has no more groups than rows: sized by the estimate alone, 64 tables of a small
                // input's partitions took hundreds of megabytes per run (q3.3 at SF 1: young collections of 6 to 49 ms)
                long rows = 0;
                for (Object s : states) {
                    rows += ((PartitionedInput) s).parts[p].size;
                }
                int expected = (int) Math.min(estimated, rows);
                HashGroupTable t = new HashGroupTable(e.aggs(), e.keyWidth(), e.nullableKeys(), murmur, expected);
                for (Object s : states) {
                    code.aggregatePartition(((PartitionedInput) s).parts[p], t);
                }
                tables[p] = t;
            }
            return null;
        };
        int workers = e.genome().has(JvmDimensions.WORKERS) ? e.genome().getInt(JvmDimensions.WORKERS) : 1;
        int tasks = Math.max(1, Math.min(partitions, workers));
        try {
            if (tasks == 1) {
                job.call();
            } else {
                List<Callable<Object>> jobs = new ArrayList<>();
                for (int i = 0; i < tasks; i++) {
                    jobs.add(job);
                }
                for (Future<Object> f : pool.invokeAll(jobs)) {
                    f.get();
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        } catch (ExecutionException ex) {
            Throwable c = ex.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        } catch (RuntimeException ex) {
            throw ex;
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
        HashGroupTable all = tables[0];
        for (int p = 1; p < partitions; p++) {
            all.mergeFrom(tables[p], stringKeys);
        }
        return all;
    }
}
