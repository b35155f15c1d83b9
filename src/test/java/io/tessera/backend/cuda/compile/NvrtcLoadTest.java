package io.tessera.backend.cuda.compile;

import io.tessera.backend.cuda.driver.CudaUnavailableException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading NVRTC where it is absent. */
class NvrtcLoadTest {
    @Test
    void missingNvrtcSaysSoAndHow() {
        CudaUnavailableException e = assertThrows(CudaUnavailableException.class,
                () -> Nvrtc.load(List.of("/nonexistent/lib64/libnvrtc.so")));
        assertTrue(e.getMessage().startsWith("no NVRTC (libnvrtc.so not found; tried /nonexistent/lib64/libnvrtc.so (absent)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("tessera.cuda.nvrtc"), e.getMessage());
    }
}
