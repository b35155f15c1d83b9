package io.tessera.backend.cuda.driver;

/** Something a context owns and frees: closed by its owner, or by the context's close at the latest. */
abstract class CudaResource implements AutoCloseable {
    final CudaContext context;
    private boolean closed;

    CudaResource(CudaContext context) {
        this.context = context;
    }

    /** Frees the native object (called once, with the context current). */
    abstract void release();

    final boolean isClosed() {
        synchronized (this) {
            return closed;
        }
    }

    final void ensureOpen() {
        if (isClosed()) {
            throw new IllegalStateException(getClass().getSimpleName() + " is closed");
        }
    }

    @Override
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            context.makeCurrent();
            release();
        } finally {
            context.forget(this);
        }
    }
}
