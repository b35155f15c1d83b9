package io.tessera.backend.cuda.driver;

import java.lang.foreign.MemorySegment;

/** Page-locked host memory (cuMemAllocHost_v2) for staging transfers, freed by close. */
@SuppressWarnings("restricted")  // the foreign function API's native access, enabled by the launcher
public final class PinnedBuffer extends CudaResource {
    private final MemorySegment segment;
    private final long size;

    PinnedBuffer(CudaContext context, MemorySegment segment, long size) {
        super(context);
        this.segment = segment.reinterpret(size);
        this.size = size;
        CudaMemoryStats.pinnedAllocated(size);
    }

    /** The host memory; do not use it after close. */
    public MemorySegment segment() {
        ensureOpen();
        return segment;
    }

    public long size() {
        return size;
    }

    @Override
    void release() {
        try {
            context.driver().memFreeHost(segment);
        } finally {
            CudaMemoryStats.pinnedFreed(size);
        }
    }
}
