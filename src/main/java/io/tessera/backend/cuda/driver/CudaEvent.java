package io.tessera.backend.cuda.driver;

import java.lang.foreign.MemorySegment;

/** A CUDA event, for timing work on the device and waiting for it. */
public final class CudaEvent extends CudaResource {
    private final MemorySegment handle;

    CudaEvent(CudaContext context, MemorySegment handle) {
        super(context);
        this.handle = handle;
        CudaMemoryStats.handleCreated();
    }

    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** Records the event on the default stream. */
    public void record() {
        record(null);
    }

    /** Records the event on a stream (null: the default stream). */
    public void record(CudaStream stream) {
        ensureOpen();
        context.makeCurrent();
        context.driver().eventRecord(handle, CudaStream.handleOf(stream));
    }

    /** Waits until the work before the event's record has completed. */
    public void synchronize() {
        ensureOpen();
        context.makeCurrent();
        context.driver().eventSynchronize(handle);
    }

    /** Whether the work before the event's record has completed; returns at once. */
    public boolean isDone() {
        ensureOpen();
        context.makeCurrent();
        return context.driver().eventQuery(handle);
    }

    /** Milliseconds from {@code start} to this event, both recorded; waits for this event first. */
    public float elapsedMillisSince(CudaEvent start) {
        synchronize();
        return context.driver().eventElapsedMillis(start.handle(), handle);
    }

    @Override
    void release() {
        try {
            context.driver().eventDestroy(handle);
        } finally {
            CudaMemoryStats.handleDestroyed();
        }
    }
}
