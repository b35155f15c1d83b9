package io.tessera.backend.cuda.driver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/** A loaded CUBIN (cuModuleLoadData); its kernels are valid until it is closed. */
public final class CudaModule extends CudaResource {
    private final MemorySegment handle;
    private final Map<String, CudaKernel> kernels = new HashMap<>();

    private CudaModule(CudaContext context, MemorySegment handle) {
        super(context);
        this.handle = handle;
        CudaMemoryStats.handleCreated();
    }

    static CudaModule load(CudaContext context, byte[] image) {
        try (Arena a = Arena.ofConfined()) {
            // PTX must be NUL-terminated; a trailing zero byte does no harm to a CUBIN.
            MemorySegment img = a.allocate(image.length + 1L, 16);
            MemorySegment.copy(image, 0, img, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, image.length);
            return new CudaModule(context, context.driver().moduleLoadData(img));
        }
    }

    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** The kernel of this name (an extern "C" name, or a mangled one), looked up once. */
    public synchronized CudaKernel kernel(String name) {
        ensureOpen();
        return kernels.computeIfAbsent(name, n -> {
            context.makeCurrent();
            return new CudaKernel(this, n, context.driver().moduleGetFunction(handle, n));
        });
    }

    CudaContext context() {
        return context;
    }

    @Override
    void release() {
        try {
            context.driver().moduleUnload(handle);
        } finally {
            CudaMemoryStats.handleDestroyed();
        }
    }
}
