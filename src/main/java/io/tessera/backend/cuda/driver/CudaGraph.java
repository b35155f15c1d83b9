package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;
import java.lang.foreign.MemorySegment;

/**
 * An executable CUDA graph (CUgraphExec): device work recorded once by a stream capture
 * ({@link CudaContext#captureGraph}) and launched again as one call, the same kernels with the same arguments,
 * memsets and all, in the order the capture recorded them.
 */
public final class CudaGraph extends CudaResource {
    private final MemorySegment exec;

    CudaGraph(CudaContext context, MemorySegment exec) {
        super(context);
        this.exec = exec;
        CudaMemoryStats.handleCreated();
    }

    /** Queues the graph's work on a stream (null: the default stream), after the work queued there before. */
    public void launch(CudaStream stream) {
        ensureOpen();
        context.makeCurrent();
        context.driver().graphs().graphLaunch(exec, CudaStream.handleOf(stream));
    }

    @Override
    void release() {
        try {
            context.driver().graphs().graphExecDestroy(exec);
        } finally {
            CudaMemoryStats.handleDestroyed();
        }
    }
}
