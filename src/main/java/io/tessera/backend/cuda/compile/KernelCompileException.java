package io.tessera.backend.cuda.compile;

import io.tessera.backend.cuda.CudaException;

/** CUDA source that NVRTC rejected; {@link #log()} is NVRTC's program log. */
public class KernelCompileException extends CudaException {
    private final String log;

    public KernelCompileException(String programName, String errorName, String log) {
        super("compiling " + programName + " failed: " + errorName + (log.isBlank() ? "" : "\n" + log.strip()), null);
        this.log = log;
    }

    @Override
    public String reason() {
        return "a kernel did not compile: " + firstLine(this);
    }

    /** NVRTC's program log (errors and warnings, with line numbers). */
    public String log() {
        return log;
    }
}
