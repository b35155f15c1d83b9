package io.tessera.backend.cuda;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Without a GPU the smoke check fails cleanly and says why. */
class CudaSmokeCheckTest {
    @Test
    void withoutADriverItFailsWithTheReason() throws Exception {
        if (CudaDriver.isAvailable()) {
            return;  // a GPU machine: run GpuSmokeCheck itself
        }
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int rc;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            rc = new GpuSmokeCheck().run(1000, null);
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(1, rc, out);
        assertTrue(out.contains("FAIL driver: no CUDA driver (libcuda.so.1 not found)"), out);
        assertTrue(out.contains("SMOKE FAIL"), out);
    }

    @Test
    void syntheticDataIsDeterministic() {
        assertEquals(GpuSmokeCheck.mix(12345), GpuSmokeCheck.mix(12345));
        assertTrue(GpuSmokeCheck.mix(1) != GpuSmokeCheck.mix(2));
    }
}
