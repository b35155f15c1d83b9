package io.tessera.backend.cuda.gen;

/**
 * Something the CUDA backend has no code for; the message says what. A dictionary lookup given to {@link
 * GpuPlacement#place} throws it for strings the device cannot have, and {@link CudaCapabilities} turns that into the
 * reason the pipeline runs on the JVM. {@link CudaExprGen} still throws it for expressions without code, which the
 * capability check keeps from it.
 */
public final class GpuUnsupported extends RuntimeException {
    public GpuUnsupported(String message) {
        super(message, null, false, false);
    }
}
