package io.tessera.backend.cuda.exec;

/** One line on why the GPU was not used: no driver, no device, no memory, a kernel that did not compile. */
public final class GpuFallbacks {
    private GpuFallbacks() {
    }

    /** A GPU result that only the JVM backend can produce (a key outside its statistics' range, a table too full). */
    public static final class Fallback extends RuntimeException {
        Fallback(String message) {
            super(message, null, false, false);
        }
    }

    public static String describe(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String first = m.lines().findFirst().orElse(m);
        if (e instanceof io.tessera.backend.cuda.KernelCompileException) {
            return "a kernel did not compile: " + first;
        }
        if (e instanceof io.tessera.backend.cuda.CudaException ce && "CUDA_ERROR_OUT_OF_MEMORY".equals(ce.errorName())) {
            return "no device memory left (" + first + ")";
        }
        if (e instanceof io.tessera.backend.cuda.CudaUnavailableException) {
            return "no GPU (" + first + ")";
        }
        return first;
    }
}
