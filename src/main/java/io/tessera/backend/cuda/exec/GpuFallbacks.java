package io.tessera.backend.cuda.exec;

import io.tessera.backend.DeviceException;

/** One line on why the GPU was not used: no driver, no device, no memory, a kernel that did not compile. */
public final class GpuFallbacks {
    private GpuFallbacks() {
    }

    /** A GPU result that only the JVM backend can produce (a key outside its statistics' range, a table too full). */
    public static final class Fallback extends DeviceException {
        Fallback(String message) {
            super(message, null, false, false);
        }
    }

    /** The one line: each CUDA failure's {@link DeviceException#reason()}, else the message's first line. */
    public static String describe(Throwable e) {
        return DeviceException.describe(e);
    }
}
