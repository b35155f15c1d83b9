package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.gen.CudaKernelSource;
import io.tessera.variant.Genome;

/**
 * Tuning while a query runs on the GPU: one pipeline's input is launched in blocks of rows, each block with the
 * kernel of the genome a tuner chose, and each block's time on the device goes back to the tuner. Every block's
 * kernel adds to the same sink buffers, so the kernels differ only in code and launch configuration (see
 * {@code CudaTuningTarget.BLOCK_SWITCHABLE} in tune).
 */
public interface GpuBlocks {

    /** One block's code: its genome, its kernel's source (parameters, launch configuration) and loaded kernel. */
    record Kernel(Genome genome, CudaKernelSource source, CudaKernel kernel) {
    }

    /** The pipeline launched in blocks. */
    int pipeline();

    /**
     * Rows per block for an input of {@code rows} rows (a block is the whole waves of its kernel nearest to it; asked
     * for {@code rows} or more, the whole input in one block).
     */
    long blockRows(long rows);

    /** The kernel of the next block. */
    Kernel next();

    /**
     * A block of {@code rows} rows ran with {@code k} in {@code nanos} on the device (whole blocks only, not the
     * last, partial one; a block of the whole input is whole).
     */
    void done(Kernel k, long rows, long nanos);
}
