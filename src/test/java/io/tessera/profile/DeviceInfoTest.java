package io.tessera.profile;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Device descriptions, their fingerprints, and the cache directory. */
class DeviceInfoTest {

    static DeviceInfo h200(int driver) {
        return new DeviceInfo(DeviceInfo.Kind.GPU, 0, "NVIDIA H200", 132, 150_000_000_000L, 9, 0, 1980, driver, "CUDA 13.0");
    }

    @Test
    void gpuFingerprintHasNameCapabilitySmsAndDriver() {
        assertEquals("gpu|NVIDIA H200|cc9.0|sm132|driver13000", h200(13000).fingerprint());
        assertNotEquals(h200(13000).fingerprint(), h200(13010).fingerprint());
        assertEquals("9.0", h200(13000).computeCapability());
        assertEquals("gpu0", h200(13000).id());
    }

    @Test
    void cpuIsDescribedFromProc() {
        DeviceInfo cpu = DeviceInfo.cpu();
        assertEquals(DeviceInfo.Kind.CPU, cpu.kind());
        assertEquals(Runtime.getRuntime().availableProcessors(), cpu.cores());
        assertTrue(cpu.fingerprint().startsWith("cpu|" + cpu.name() + "|cores" + cpu.cores() + "|Java "), cpu.fingerprint());
        assertEquals("-", cpu.computeCapability());
        assertTrue(!cpu.name().isBlank());
    }

    @Test
    void theMachineCpuWithFewerCoresSaysSoInItsFingerprint() {
        DeviceInfo one = DeviceInfo.machineCpu(1);
        assertEquals(DeviceInfo.machineCpu().name(), one.name());
        assertEquals(1, one.cores());
        assertTrue(one.fingerprint().contains("|cores1|"), one.fingerprint());
    }

    @Test
    void procParsing() {
        List<String> cpuinfo = List.of("processor\t: 0", "vendor_id\t: AuthenticAMD",
                "model name\t: AMD EPYC 9654  96-Core Processor", "cpu MHz\t\t: 2396.398");
        assertEquals("AMD EPYC 9654 96-Core Processor", DeviceInfo.cpuModel(cpuinfo));
        assertEquals(2396, DeviceInfo.cpuMHz(cpuinfo));
        assertNull(DeviceInfo.cpuModel(List.of("processor : 0")));
        assertEquals(2048L * 1024, DeviceInfo.memTotalBytes(List.of("MemFree: 1 kB", "MemTotal:        2048 kB")));
    }

    @Test
    void cacheDirectoryRule() {
        assertEquals(Path.of("/p"), CacheDirectory.resolve("/p", Map.of("XDG_CACHE_HOME", "/x"), "/home/u"));
        assertEquals(Path.of("/t"), CacheDirectory.resolve(null, Map.of("TESSERA_CACHE_DIR", "/t", "XDG_CACHE_HOME", "/x"),
                "/home/u"));
        assertEquals(Path.of("/x/tessera"), CacheDirectory.resolve(null, Map.of("XDG_CACHE_HOME", "/x"), "/home/u"));
        assertEquals(Path.of("/home/u/.cache/tessera"), CacheDirectory.resolve(null, Map.of("XDG_CACHE_HOME", "rel"), "/home/u"));
        assertEquals(Path.of("/home/u/.cache/tessera"), CacheDirectory.resolve(null, Map.of(), "/home/u"));
    }

    @Test
    void theDeviceDescriptionsAndTheCacheDirectoryImportOnlyJavaBase() throws IOException {
        // backend.cuda's GpuSmokeCheck uses them and runs with java.base only
        Pattern imp = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);
        for (String file : List.of("DeviceInfo.java", "CacheDirectory.java")) {
            Matcher m = imp.matcher(Files.readString(Path.of("src/main/java/io/tessera/profile", file)));
            while (m.find()) {
                assertTrue(m.group(2).startsWith("java."), file + " imports " + m.group(2));
            }
        }
    }
}
