package io.tessera.backend.cuda;

import io.tessera.backend.DeviceException;

/**
 * A CUDA driver or NVRTC call that failed. The message names the call and the error, as in
 * {@code cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY}. The executor catches it as the backend-neutral
 * {@link DeviceException} and runs the query on the JVM.
 */
public class CudaException extends DeviceException {
    private final String call;
    private final int code;
    private final String errorName;

    /** A failed call: {@code call} returned {@code code}, whose name is {@code errorName}. */
    public CudaException(String call, int code, String errorName) {
        super(call + " failed: " + errorName);
        this.call = call;
        this.code = code;
        this.errorName = errorName;
    }

    /** A failure that is not one call's error code (a missing library, a missing symbol). */
    public CudaException(String message, Throwable cause) {
        super(message, cause);
        this.call = null;
        this.code = 0;
        this.errorName = null;
    }

    /** The call that failed, or null when the failure is not one call's error code. */
    public String call() {
        return call;
    }

    /** The CUresult or nvrtcResult, 0 when the failure is not one call's error code. */
    public int code() {
        return code;
    }

    /** The error's name, such as CUDA_ERROR_OUT_OF_MEMORY, or null. */
    public String errorName() {
        return errorName;
    }

    @Override
    public String reason() {
        return outOfMemory() ? "no device memory left (" + firstLine(this) + ")" : firstLine(this);
    }

    /** Whether the call failed for want of device memory. */
    protected boolean outOfMemory() {
        return "CUDA_ERROR_OUT_OF_MEMORY".equals(errorName);
    }
}
