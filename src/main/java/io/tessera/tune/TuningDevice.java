package io.tessera.tune;

import io.tessera.backend.cuda.driver.CudaDevices;
import io.tessera.profile.DeviceInfo;
import io.tessera.storage.Database;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A processor to tune for, as named on the command line: {@code cpu} (every core), {@code cpu:N} (N cores: the
 * workers run on a pool of N threads, the variant space offers at most N workers, and the fingerprint says N
 * cores), {@code gpu} or {@code gpu:K}. Its fingerprint keys the profiles.
 */
public final class TuningDevice implements AutoCloseable {

    private final String name;
    private final String backend;
    private final DeviceInfo info;
    private final int units;
    private final ExecutorService pool;

    private TuningDevice(String name, String backend, DeviceInfo info, int units, ExecutorService pool) {
        this.name = name;
        this.backend = backend;
        this.info = info;
        this.units = units;
        this.pool = pool;
    }

    /** A device of any backend (for backends that plug in their own devices, and for tests). */
    public static TuningDevice of(String name, String backend, DeviceInfo info, int units) {
        return new TuningDevice(name, backend, info, units, null);
    }

    /** Parses {@code cpu}, {@code cpu:N}, {@code gpu}, {@code gpu:K}. */
    public static TuningDevice parse(String spec) {
        String s = spec.strip().toLowerCase(Locale.ROOT);
        int all = java.lang.Runtime.getRuntime().availableProcessors();
        if (s.equals("cpu")) {
            return new TuningDevice("cpu", "jvm", DeviceInfo.machineCpu(all), all, null);
        }
        if (s.startsWith("cpu:")) {
            int n = number(s.substring(4), spec);
            if (n < 1 || n > all) {
                throw new IllegalArgumentException("device " + spec + ": this machine has 1 to " + all + " cores");
            }
            ExecutorService pool = n == all ? null : Executors.newFixedThreadPool(n, r -> {
                Thread t = new Thread(r, "tessera-tuning-worker");
                t.setDaemon(true);
                return t;
            });
            return new TuningDevice(n == all ? "cpu" : "cpu:" + n, "jvm", DeviceInfo.machineCpu(n), n, pool);
        }
        if (s.equals("gpu") || s.startsWith("gpu:")) {
            int k = s.equals("gpu") ? 0 : number(s.substring(4), spec);
            List<DeviceInfo> gpus = CudaDevices.gpus();
            if (k < 0 || k >= gpus.size()) {
                throw new IllegalArgumentException("device " + spec + ": " + gpus.size() + " GPU(s) on this machine");
            }
            DeviceInfo g = gpus.get(k);
            return new TuningDevice("gpu" + (k == 0 ? "" : ":" + k), "cuda", g, g.cores(), null);
        }
        throw new IllegalArgumentException("unknown device '" + spec + "' (cpu, cpu:N, gpu, gpu:K)");
    }

    /** Parses a comma-separated list. */
    public static List<TuningDevice> parseList(String specs) {
        List<TuningDevice> out = new ArrayList<>();
        for (String s : specs.split(",")) {
            if (!s.isBlank()) {
                out.add(parse(s));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no device named");
        }
        return out;
    }

    private static int number(String s, String spec) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unknown device '" + spec + "' (cpu, cpu:N, gpu, gpu:K)");
        }
    }

    /** The query on this device, through the backend's target factory. */
    public Target target(Database db, String sql) {
        return Targets.create(this, db, sql);
    }

    public String name() {
        return name;
    }

    public String backend() {
        return backend;
    }

    public DeviceInfo info() {
        return info;
    }

    public String fingerprint() {
        return info.fingerprint();
    }

    /** Parallel units: CPU cores or GPU SMs. */
    public int units() {
        return units;
    }

    /** The thread pool its workers run on (null: the executor's own, all cores). */
    public ExecutorService pool() {
        return pool;
    }

    /** A line naming the device, e.g. {@code cpu: AMD EPYC, 2 cores, Java 25}. */
    public String describe() {
        return name + ": " + info.name() + ", " + units + (info.kind() == DeviceInfo.Kind.GPU ? " SMs, " : " cores, ")
                + info.software();
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
