package io.tessera.backend.jvm.gen;

import io.tessera.backend.host.RowBuffer;

/**
 * What every generated pipeline class implements: {@link #init} takes its inputs (columns, hash tables,
 * dictionaries) from the context once; {@link #run} processes source rows {@code [from, to)} of one morsel into
 * the worker's sink state. Instances are shared by all workers, so generated fields are written only in init.
 */
public abstract class PipelineCode {

    /** Binds the inputs; {@code constants} are the query's constants, as the emitted pipeline lists them. */
    public abstract void init(PipelineContext ctx, Object[] constants);

    public abstract void run(long from, long to, Object sinkState);

    /**
     * {@link #run}, adding the rows out of each counted operation to {@code rowCounts} (one slot per operation of
     * the plan, the worker's own array): only code emitted with row counters overrides it (EXPLAIN ANALYZE).
     */
    public void run(long from, long to, Object sinkState, long[] rowCounts) {
        run(from, to, sinkState);
    }

    /**
     * The second phase of a partitioned aggregation: aggregates the rows that {@link #run} buffered for one
     * partition ({@code in}) into that partition's table. Only pipelines emitted with agg=partitioned have it.
     */
    public void aggregatePartition(RowBuffer in, Object table) {
        throw new UnsupportedOperationException("pipeline code without a partitioned aggregation");
    }
}
