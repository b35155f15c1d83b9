package io.tessera.backend.cuda.gen;

/**
 * A pipeline the CUDA backend cannot run (an operator, type or shape it has no code for); the message says what,
 * and the pipeline runs on the JVM backend instead.
 */
public final class GpuUnsupported extends RuntimeException {
    public GpuUnsupported(String message) {
        super(message, null, false, false);
    }
}
