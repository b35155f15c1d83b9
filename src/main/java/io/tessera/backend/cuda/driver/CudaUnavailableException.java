package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;

/**
 * CUDA cannot be used on this machine at all: no driver library, no NVRTC library, or no device.
 * The message says which, for example {@code no CUDA driver (libcuda.so.1 not found)}.
 */
public class CudaUnavailableException extends CudaException {
    public CudaUnavailableException(String message) {
        super(message, null);
    }

    public CudaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public String reason() {
        return outOfMemory() ? super.reason() : "no GPU (" + firstLine(this) + ")";
    }
}
