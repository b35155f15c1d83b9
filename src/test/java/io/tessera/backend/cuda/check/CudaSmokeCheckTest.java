package io.tessera.backend.cuda.check;

import io.tessera.backend.cuda.driver.CudaDriver;
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

    @Test
    void hostMurmurMatchesTheHeadersDefinition() {
        // fmix64 of 1, from the reference MurmurHash3 finalizer
        long h = 1;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        assertEquals(h & 127, GpuSmokeCheck.murmurSlot(1, 7));
        assertEquals(0xB456BCFC34C2CB2CL, h);
    }
}
