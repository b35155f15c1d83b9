package io.tessera.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What Tessera knows about one processor, CPU or GPU: name, cores (CPU threads or GPU SMs), memory,
 * compute capability, clock and driver (for a CPU: the JVM), and the fingerprint under which
 * measurements and profiles of that processor are stored. The CPU is read here; GPUs are read through their
 * driver by the backend ({@code backend.cuda.CudaDevices}).
 *
 * @param kind          CPU or GPU
 * @param ordinal       GPU ordinal; 0 for the CPU
 * @param name          "NVIDIA H200", or the CPU's model name
 * @param cores         GPU: streaming multiprocessors; CPU: hardware threads available to the JVM
 * @param memoryBytes   device memory, or the machine's physical memory (0 when unknown)
 * @param ccMajor       compute capability major (0 for a CPU)
 * @param ccMinor       compute capability minor (0 for a CPU)
 * @param clockMHz      GPU SM clock, or the CPU's current clock from /proc/cpuinfo (0 when unknown)
 * @param driverVersion GPU: driver API version (13000 = 13.0); CPU: 0
 * @param software      GPU: "CUDA 13.0"; CPU: the JVM ("Java 25+36")
 */
public record DeviceInfo(Kind kind, int ordinal, String name, int cores, long memoryBytes, int ccMajor, int ccMinor,
                         int clockMHz, int driverVersion, String software) {

    public enum Kind { CPU, GPU }

    /** "9.0" for a GPU, "-" for a CPU. */
    public String computeCapability() {
        return kind == Kind.GPU ? ccMajor + "." + ccMinor : "-";
    }

    /** A short id such as gpu0 or cpu. */
    public String id() {
        return kind == Kind.GPU ? "gpu" + ordinal : "cpu";
    }

    /**
     * The key of this processor's measurements and profiles: for a GPU its name, compute capability,
     * SM count and driver version; for a CPU its model, cores and JVM version.
     */
    public String fingerprint() {
        if (kind == Kind.GPU) {
            return "gpu|" + name + "|cc" + ccMajor + "." + ccMinor + "|sm" + cores + "|driver" + driverVersion;
        }
        return "cpu|" + name + "|cores" + cores + "|" + software;
    }

    private static DeviceInfo machineCpu;

    /** This machine's CPU, read once. */
    public static synchronized DeviceInfo machineCpu() {
        if (machineCpu == null) {
            machineCpu = cpu();
        }
        return machineCpu;
    }

    /** This machine's CPU with {@code cores} cores (fewer than it has, when a query or tuning uses only those). */
    public static DeviceInfo machineCpu(int cores) {
        DeviceInfo m = machineCpu();
        return new DeviceInfo(Kind.CPU, 0, m.name(), cores, m.memoryBytes(), 0, 0, m.clockMHz(), 0, m.software());
    }

    /** The CPU of this machine. */
    public static DeviceInfo cpu() {
        List<String> cpuinfo = readLines(Path.of("/proc/cpuinfo"));
        List<String> meminfo = readLines(Path.of("/proc/meminfo"));
        String model = cpuModel(cpuinfo);
        if (model == null) {
            model = System.getProperty("os.arch") + " CPU";
        }
        return new DeviceInfo(Kind.CPU, 0, model, Runtime.getRuntime().availableProcessors(), memTotalBytes(meminfo),
                0, 0, cpuMHz(cpuinfo), 0, "Java " + Runtime.version());
    }

    static String cpuModel(List<String> cpuinfo) {
        for (String l : cpuinfo) {
            if (l.startsWith("model name") || l.startsWith("Model") || l.startsWith("cpu model")) {
                int c = l.indexOf(':');
                if (c > 0) {
                    return l.substring(c + 1).strip().replaceAll("\\s+", " ");
                }
            }
        }
        return null;
    }

    static int cpuMHz(List<String> cpuinfo) {
        for (String l : cpuinfo) {
            if (l.startsWith("cpu MHz")) {
                try {
                    return (int) Math.round(Double.parseDouble(l.substring(l.indexOf(':') + 1).strip()));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    static long memTotalBytes(List<String> meminfo) {
        for (String l : meminfo) {
            if (l.startsWith("MemTotal:")) {
                String[] f = l.substring(9).strip().split("\\s+");
                try {
                    return Long.parseLong(f[0]) * 1024L;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static List<String> readLines(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
