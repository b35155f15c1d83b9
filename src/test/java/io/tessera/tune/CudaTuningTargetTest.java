package io.tessera.tune;

import io.tessera.backend.DeviceException;
import io.tessera.bench.Queries;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.profile.DeviceInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The CUDA tuning target owns the engines it opens: the JVM's is closed once it gave the expected answer, the GPU's
 * when the target closes, and both when the target cannot be made (here, without a GPU, at the runtime; on a GPU
 * machine, at a query that does not plan).
 */
class CudaTuningTargetTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(5, 2_000);

    private static final TuningDevice GPU = TuningDevice.of("gpu", "cuda", new DeviceInfo(DeviceInfo.Kind.GPU, 0,
            "Some GPU", 132, 1L << 30, 9, 0, 1800, 13000, "CUDA 13.0"), 132);

    /** Engines over the test database that remember being opened, with the device each was opened for. */
    private static Function<Device, QueryEngine> recording(List<QueryEngine> opened, List<Device> devices) {
        return d -> {
            QueryEngine e = new QueryEngine(SSB.db(), 2, d, null);
            opened.add(e);
            devices.add(d);
            return e;
        };
    }

    private static void assertClosed(QueryEngine e) {
        DeviceException closed = assertThrows(DeviceException.class, () -> e.devices().gpu());
        assertEquals("no GPU: the database's devices were closed", closed.getMessage());
    }

    @Test
    void theEnginesItOpensAreClosedWithItOrWhenItCannotBeMade() {
        List<QueryEngine> opened = new ArrayList<>();
        List<Device> devices = new ArrayList<>();
        String sql = Queries.sql("ssb", "q1.1");
        String noGpu = GpuRuntime.unavailableReason();
        if (noGpu != null) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new CudaTuningTarget(GPU, SSB.db(), sql, recording(opened, devices)));
            assertEquals("device gpu: the GPU cannot be used: " + noGpu, e.getMessage());
            assertEquals(List.of(Device.GPU), devices, "no JVM engine before the GPU's runtime opened");
        } else {
            CudaTuningTarget t = new CudaTuningTarget(GPU, SSB.db(), sql, recording(opened, devices));
            assertEquals(List.of(Device.GPU, Device.CPU), devices);
            assertClosed(opened.get(1)); // the JVM's answer was taken, its engine closed
            t.close();
        }
        opened.forEach(CudaTuningTargetTest::assertClosed);
    }

    @Test
    void aQueryThatCannotBeTunedLeavesNoEngineOpen() {
        List<QueryEngine> opened = new ArrayList<>();
        List<Device> devices = new ArrayList<>();
        assertThrows(RuntimeException.class, () -> new CudaTuningTarget(GPU, SSB.db(),
                "select no_such_column from lineorder", recording(opened, devices)));
        assertEquals(List.of(Device.GPU), devices);
        opened.forEach(CudaTuningTargetTest::assertClosed);
        assertEquals(1, opened.size());
    }
}
