package io.tessera.backend.cuda.measure;

import io.tessera.backend.cuda.driver.CudaDevices;
import io.tessera.profile.DeviceInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The driver's version text, the bandwidth catalog and the bandwidth probe. */
class CudaDeviceInfoTest {
    @TempDir
    Path dir;

    static DeviceInfo h200(int driver) {
        return new DeviceInfo(DeviceInfo.Kind.GPU, 0, "NVIDIA H200", 132, 150_000_000_000L, 9, 0, 1980, driver, "CUDA 13.0");
    }

    @Test
    void driverVersionText() {
        assertEquals("13.0", CudaDevices.versionText(13000));
        assertEquals("12.4", CudaDevices.versionText(12040));
    }

    @Test
    void catalogRemembersAMeasurementPerFingerprint() throws Exception {
        DeviceCatalog cat = new DeviceCatalog(dir.resolve("sub/devices.json"));
        DeviceInfo gpu = new DeviceInfo(DeviceInfo.Kind.GPU, 1, "Odd \"name\" \\ with\ttab", 2, 1, 8, 9, 0, 12080, "CUDA 12.8");
        AtomicInteger measured = new AtomicInteger();
        DeviceCatalog.Entry e = cat.bandwidth(gpu, false, () -> {
            measured.incrementAndGet();
            return new BandwidthProbe.Result(3301.5, 1 << 30, 0.325, "test");
        });
        assertEquals(3301.5, e.readGBps());
        assertEquals(gpu.fingerprint(), e.fingerprint());
        assertEquals(3301.5, cat.bandwidth(gpu, false, () -> {
            throw new AssertionError("must come from the file");
        }).readGBps());
        assertEquals(1, measured.get());
        // a new catalog object reads the same file
        assertEquals(3301.5, new DeviceCatalog(cat.file()).get(gpu).readGBps());
        assertEquals(17.0, cat.bandwidth(gpu, true, () -> new BandwidthProbe.Result(17, 1, 1, "again")).readGBps());

        DeviceInfo cpu = DeviceInfo.cpu();
        cat.put(cpu, new BandwidthProbe.Result(20.25, 1, 1, "cpu"));
        Map<String, DeviceCatalog.Entry> all = cat.load();
        assertEquals(2, all.size());
        assertEquals(20.25, all.get(cpu.fingerprint()).readGBps());
        assertTrue(Files.readString(cat.file()).contains("\"version\": 1"));
    }

    @Test
    void anUnreadableCatalogIsIgnored() throws Exception {
        Path f = dir.resolve("devices.json");
        Files.writeString(f, "{not json");
        DeviceCatalog cat = new DeviceCatalog(f);
        assertTrue(cat.load().isEmpty());
        assertEquals(5.0, cat.bandwidth(h200(13000), false, () -> new BandwidthProbe.Result(5, 1, 1, "m")).readGBps());
    }

    @Test
    void jsonRoundTrip() {
        Map<String, DeviceCatalog.Entry> m = new java.util.LinkedHashMap<>();
        m.put("a|\u00e9\n", new DeviceCatalog.Entry("a|\u00e9\n", 1e-3, "2026-01-01T00:00:00Z", "x \"y\""));
        assertEquals(m, DeviceCatalog.parse(DeviceCatalog.toJson(m)));
    }

    @Test
    void bandwidthProbeSizesAndCpuMeasurement() {
        long gib = 1L << 30;
        assertEquals(4 * gib, BandwidthProbe.defaultGpuBytes(140 * gib));
        assertEquals(3 * gib / 2, BandwidthProbe.defaultGpuBytes(3 * gib));
        assertEquals(gib / 2, BandwidthProbe.defaultGpuBytes(gib));
        assertEquals(0, BandwidthProbe.defaultGpuBytes(gib + 12345) % (16 << 20));
        BandwidthProbe.Result r = BandwidthProbe.measureCpu(16 << 20, 2, 1);
        // a measurement, not a speed check: on a loaded machine it can be arbitrarily slow, never zero or infinite
        assertTrue(r.gbPerSecond() > 0 && Double.isFinite(r.gbPerSecond()), r.toString());
        assertEquals(r.bytes() / (r.millis() * 1e6), r.gbPerSecond(), 1e-9 * r.gbPerSecond() + 1e-12);
        assertEquals(16 << 20, r.bytes());
    }
}
