package io.tessera.backend.cuda.driver;

import java.lang.foreign.MemorySegment;

/** A CUDA stream (non-blocking with respect to the default stream). */
public final class CudaStream extends CudaResource {
    static final int NON_BLOCKING = 1;
    private final MemorySegment handle;

    CudaStream(CudaContext context, MemorySegment handle) {
        super(context);
        this.handle = handle;
        CudaMemoryStats.handleCreated();
    }

    /** The CUstream handle. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** The handle of a stream that may be null: NULL for the default stream. */
    static MemorySegment handleOf(CudaStream stream) {
        return stream == null ? MemorySegment.NULL : stream.handle();
    }

    public void synchronize() {
        ensureOpen();
        context.makeCurrent();
        context.driver().streamSynchronize(handle);
    }

    @Override
    void release() {
        try {
            context.driver().streamDestroy(handle);
        } finally {
            CudaMemoryStats.handleDestroyed();
        }
    }
}
