package io.tessera.backend.cuda.gen;

import io.tessera.plan.Pipeline;
import io.tessera.variant.Genome;

import java.util.List;

/**
 * One pipeline as one CUDA kernel: the complete source (it includes tessera_crystal.cuh and tessera_query.cuh),
 * the kernel's name and parameters, what its sink leaves in device memory, the bytes of the source columns it
 * reads whole (the scan's bandwidth bound), what the thesis's per-query model charges it ({@link ModelBytes}), and the
 * dynamic shared memory each block takes (a WORKGROUPLOCAL group table, bitmaps copied under bm=shared).
 */
public record CudaKernelSource(Pipeline pipeline, Genome genome, String kernelName, String fileName, String source,
                               List<KernelParam> params, SinkLayout sink, long bytesRead, ModelBytes model,
                               long sharedBytes) {

    public int threadsPerBlock() {
        return genome.getInt(io.tessera.variant.CudaVariantSpace.TPB);
    }

    public int itemsPerThread() {
        return genome.getInt(io.tessera.variant.CudaVariantSpace.IPT);
    }

    /** Launches of the kernel, pass 0 first (see {@link SinkLayout#passes}). */
    public int passes() {
        return sink.passes();
    }

    /** Tiles of the kernel over a source of {@code rows} rows (at least one). */
    public long tiles(long rows) {
        long tile = (long) threadsPerBlock() * itemsPerThread();
        return Math.max(1, (rows + tile - 1) / tile);
    }
}
