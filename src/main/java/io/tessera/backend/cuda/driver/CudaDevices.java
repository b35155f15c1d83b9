package io.tessera.backend.cuda.driver;

import io.tessera.profile.DeviceInfo;

import java.util.ArrayList;
import java.util.List;

/** The GPUs the CUDA driver sees, described as {@link DeviceInfo}s (the CPU describes itself there). */
public final class CudaDevices {

    private CudaDevices() {
    }

    /** A GPU, queried through the driver (no context needed). */
    public static DeviceInfo gpu(CudaDriver driver, int ordinal) {
        int dev = driver.device(ordinal);
        int v = driver.driverVersion();
        return new DeviceInfo(DeviceInfo.Kind.GPU, ordinal, driver.deviceName(dev),
                driver.deviceAttribute(CudaDriver.ATTR_MULTIPROCESSOR_COUNT, dev),
                driver.deviceTotalMemory(dev),
                driver.deviceAttribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MAJOR, dev),
                driver.deviceAttribute(CudaDriver.ATTR_COMPUTE_CAPABILITY_MINOR, dev),
                driver.deviceAttribute(CudaDriver.ATTR_CLOCK_RATE, dev) / 1000,
                v, "CUDA " + versionText(v));
    }

    /** Every GPU the driver sees; empty when none. Throws CudaUnavailableException without a driver. */
    public static List<DeviceInfo> gpus() {
        CudaDriver d = CudaDriver.get();
        int n = d.deviceCount();
        List<DeviceInfo> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(gpu(d, i));
        }
        return out;
    }

    /** 13000 -> "13.0", 12040 -> "12.4". */
    public static String versionText(int v) {
        return (v / 1000) + "." + (v % 1000) / 10;
    }
}
