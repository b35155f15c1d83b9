package io.tessera.backend.cuda.runtime;

import io.tessera.backend.cuda.CudaException;

/** Device memory does not hold what a query needs; the query runs on the JVM instead. */
public final class DeviceMemoryException extends CudaException {
    public DeviceMemoryException(String message) {
        super(message, null);
    }
}
