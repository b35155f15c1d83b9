package io.tessera.backend.jvm;

import io.tessera.plan.Pipeline;
import io.tessera.variant.Genome;

/**
 * Runs chosen pipelines of a query block by block instead of in one go, with a genome chosen for each block:
 * the hook for tuning while a query runs. A block is a range of source rows that the block's workers share in
 * morsels; the workers keep their sink state from block to block, so a block's genome may differ from the
 * pipeline's compiled genome only where the sink state does not depend on it
 * ({@link JvmExecutor#BLOCK_SWITCHABLE}: how the workers share the rows, and the code of the filters and probes),
 * or in its aggregation, each kind of which keeps states of its own that are merged after the last block (but
 * never to or from {@link JvmExecutor#BLOCK_FIXED_VALUES}).
 */
public interface BlockControl {

    /** The blocks of pipeline {@code p}, or null to run it in one go. */
    Blocks blocks(Pipeline p, Genome compiled);

    /** The block-by-block run of one pipeline. */
    interface Blocks {

        /** Source rows per block (the last block may be shorter). */
        long blockRows();

        /**
         * The most workers any block will use: their sink states of a kind are made before the first block of that
         * kind, so that making them (allocating and zeroing a group table) is not timed as part of a block.
         */
        default int maxWorkers() {
            return 1;
        }

        /** The genome of the next block. */
        Genome next();

        /**
         * Reports a block's rows and the nanoseconds its workers took, as a run that does not stop after the block
         * would spend on those rows: not the workers' start, nor (with dynamic access) a worker's wait for the last
         * morsel at the block's end, which a run in one go pays once rather than after every block.
         */
        void done(Genome g, long rows, long nanos);

        /**
         * Reports, once the pipeline's result is made, the nanoseconds it spent outside its blocks: making its sink
         * states before the first block and merging them after the last.
         */
        default void finished(long nanos) {
        }
    }
}
