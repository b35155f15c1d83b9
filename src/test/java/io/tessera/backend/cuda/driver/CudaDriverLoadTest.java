package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;
import io.tessera.backend.cuda.compile.KernelCompileException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading the libraries where they are absent, and the errors the bindings raise. */
class CudaDriverLoadTest {
    @Test
    void missingDriverSaysSo() {
        CudaUnavailableException e = assertThrows(CudaUnavailableException.class,
                () -> CudaDriver.load(List.of("/nonexistent/libcuda.so.1")));
        assertEquals("no CUDA driver (libcuda.so.1 not found)", e.getMessage());
        assertTrue(e.getCause().getMessage().contains("/nonexistent/libcuda.so.1 (absent)"), e.getCause().getMessage());
    }

    @Test
    void onThisMachineWithoutADriverEverythingSaysWhy() {
        boolean driverFileThere = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libcuda.so.1"))
                || Files.exists(Path.of("/usr/lib64/libcuda.so.1"));
        if (driverFileThere) {
            return;  // a GPU machine: GpuSmokeCheck covers it
        }
        CudaUnavailableException e = assertThrows(CudaUnavailableException.class, CudaDriver::get);
        assertEquals("no CUDA driver (libcuda.so.1 not found)", e.getMessage());
        assertEquals("no CUDA driver (libcuda.so.1 not found)", CudaDriver.unavailableReason());
        assertTrue(!CudaDriver.isAvailable());
        CudaUnavailableException c = assertThrows(CudaUnavailableException.class, CudaContext::open);
        assertEquals("no CUDA driver (libcuda.so.1 not found)", c.getMessage());
        assertInstanceOf(CudaException.class, c, "callers catch one type to fall back to the JVM");
        assertThrows(CudaUnavailableException.class, CudaDevices::gpus);
    }

    @Test
    void aLibraryWithoutTheDriverCallsIsRejectedByName() {
        CudaUnavailableException e = assertThrows(CudaUnavailableException.class,
                () -> CudaDriver.load(List.of("libc.so.6")));
        assertEquals("libc.so.6 has no cuGetErrorName (a library too old for Tessera?)", e.getMessage());
    }

    @Test
    void errorMessagesNameTheCallAndTheError() {
        CudaException e = new CudaException("cuMemAlloc_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY");
        assertEquals("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY", e.getMessage());
        assertEquals(2, e.code());
        assertEquals("cuMemAlloc_v2", e.call());
        KernelCompileException k = new KernelCompileException("q11.cu", "NVRTC_ERROR_COMPILATION",
                "q11.cu(3): error: identifier \"x\" is undefined\n");
        assertTrue(k.getMessage().startsWith("compiling q11.cu failed: NVRTC_ERROR_COMPILATION\nq11.cu(3): error"),
                k.getMessage());
        assertTrue(k.log().contains("undefined"));
    }
}
