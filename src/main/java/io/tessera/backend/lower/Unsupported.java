package io.tessera.backend.lower;

/**
 * An expression SQL allows that no backend lowers (e.g. DECIMAL division): each generator rethrows it as its own
 * error (the JVM backend's "unsupported: ..." SQL error, the CUDA backend's GPU-unsupported reason).
 */
public final class Unsupported extends RuntimeException {
    public Unsupported(String what) {
        super(what);
    }
}
