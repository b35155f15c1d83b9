package io.tessera.backend;

import io.tessera.backend.cuda.exec.CudaBackend;
import io.tessera.backend.host.Host;
import io.tessera.backend.jvm.JvmBackend;
import io.tessera.storage.Database;

import java.util.List;

/**
 * The devices an open database can run queries on, by name: {@code jvm}, the host, which runs every pipeline and
 * where results end; {@code cuda:0}, the machine's GPU, when one can be used. The one place that names each
 * device's backend: the executor asks here and holds none by name.
 */
public final class Devices {

    /** The host's name. */
    public static final String HOST = "jvm";

    /** The GPU's name. */
    public static final String GPU = "cuda:0";

    private final Database db;

    private Devices(Database db) {
        this.db = db;
    }

    /** The devices for queries over {@code db}. */
    public static Devices of(Database db) {
        return new Devices(db);
    }

    /** The names of every device there may be, the host first. */
    public static List<String> names() {
        return List.of(HOST, GPU);
    }

    /** The host: the JVM on all cores (the same for every database). */
    public static Host host() {
        return JvmBackend.INSTANCE;
    }

    /**
     * The GPU ({@value #GPU}); throws a {@link DeviceException} (or a {@link LinkageError} where its native
     * bindings cannot load) when no GPU can be used.
     */
    public Accelerator gpu() {
        return CudaBackend.open(db);
    }

    /** The device named {@code name} (one of {@link #names()}); throws as {@link #gpu()} for a GPU that cannot be used. */
    public Backend get(String name) {
        return switch (name) {
            case HOST -> host();
            case GPU -> gpu();
            default -> throw new IllegalArgumentException("no device " + name + " (expected one of " + names() + ")");
        };
    }
}
