package io.tessera.backend;

import io.tessera.backend.cuda.exec.CudaBackend;
import io.tessera.backend.host.Host;
import io.tessera.backend.jvm.JvmBackend;
import io.tessera.storage.Database;

import java.util.List;

/**
 * The devices an open database runs queries on, by name: {@code jvm}, the host, which runs every pipeline and
 * where results end; {@code cuda:0}, the machine's GPU, when one can be used. Whatever opens a database (the
 * engine of {@code Tessera}, the command line, the JDBC driver, all through {@code exec.QueryEngine}) holds its
 * own instance, which owns the devices' state: the GPU (its runtime: context, kernels, cached columns, pools) is
 * opened on first use, kept for that database's queries and closed by {@link #close()}, and no device is
 * registered for the whole process. The one place that names each device's backend: the executor asks here and
 * holds none by name.
 */
public final class Devices implements AutoCloseable {

    /** The host's name. */
    public static final String HOST = "jvm";

    /** The GPU's name. */
    public static final String GPU = "cuda:0";

    /** The database whose queries the GPU runs; null: none, the host alone. */
    private final Database db;
    private final Host host;
    /** The GPU once opened; null before. */
    private Accelerator gpu;
    /** Why the GPU could not be opened, thrown again at every later call; null: not tried, or opened. */
    private RuntimeException gpuFailure;
    private boolean closed;

    private Devices(Database db, Host host) {
        this.db = db;
        this.host = host;
    }

    /** The devices for queries over {@code db}: the JVM on all cores, and the GPU where one can be used. */
    public static Devices of(Database db) {
        return new Devices(db, JvmBackend.INSTANCE);
    }

    /** The host alone, for work before any database is opened (compiling a process's first query early). */
    public static Devices hostOnly() {
        return new Devices(null, JvmBackend.INSTANCE);
    }

    /** The names of every device there may be, the host first. */
    public List<String> names() {
        return db == null ? List.of(HOST) : List.of(HOST, GPU);
    }

    /** The host: the JVM on all cores. */
    public Host host() {
        return host;
    }

    /**
     * The GPU ({@value #GPU}), opened on first use and kept until {@link #close()}; throws a {@link DeviceException}
     * (or a {@link LinkageError} where its native bindings cannot load) when no GPU can be used, and again at the
     * next call.
     */
    public synchronized Accelerator gpu() {
        if (db == null) {
            throw new DeviceException("no GPU: no database is open");
        }
        if (closed) {
            throw new DeviceException("no GPU: the database's devices were closed");
        }
        if (gpuFailure != null) {
            throw gpuFailure;
        }
        if (gpu == null) {
            try {
                gpu = CudaBackend.open(db);
            } catch (RuntimeException e) {
                gpuFailure = e;
                throw e;
            }
        }
        return gpu;
    }

    /** The device named {@code name} (one of {@link #names()}); throws as {@link #gpu()} for a GPU that cannot be used. */
    public Backend get(String name) {
        if (HOST.equals(name)) {
            return host();
        }
        if (GPU.equals(name) && db != null) {
            return gpu();
        }
        throw new IllegalArgumentException("no device " + name + " (expected one of " + names() + ")");
    }

    /** Closes the devices opened for this database (the GPU's runtime); the host holds nothing to close. */
    @Override
    public synchronized void close() {
        closed = true;
        if (gpu != null) {
            gpu.close();
            gpu = null;
        }
    }
}
