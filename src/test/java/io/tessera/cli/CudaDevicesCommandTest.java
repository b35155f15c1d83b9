package io.tessera.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tessera devices} lists the CPU, and every GPU or why there is none. */
class CudaDevicesCommandTest {
    @TempDir
    Path cache;

    @Test
    void listsTheCpuAndSaysWhyThereIsNoGpu() {
        String old = System.getProperty("tessera.cache.dir");
        PrintStream oldOut = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int rc;
        try {
            System.setProperty("tessera.cache.dir", cache.toString());
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            rc = Main.run("devices", "--no-measure");
        } finally {
            System.setOut(oldOut);
            if (old == null) {
                System.clearProperty("tessera.cache.dir");
            } else {
                System.setProperty("tessera.cache.dir", old);
            }
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, out);
        assertTrue(out.startsWith("ID "), out);
        assertTrue(out.contains("\ncpu "), out);
        assertTrue(out.contains("gpu0 ") || out.contains("no GPU: "), out);
        assertTrue(out.contains("bandwidth cache: " + cache.resolve("devices.json")), out);
    }
}
