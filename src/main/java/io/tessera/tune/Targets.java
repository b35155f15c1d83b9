package io.tessera.tune;

import io.tessera.storage.Database;

import java.util.Map;
import java.util.TreeMap;

/** How each backend makes a {@link Target} of a query on a device: one registration per backend. */
public final class Targets {

    /** Makes the target of one query on one device. */
    @FunctionalInterface
    public interface Factory {
        Target create(TuningDevice device, Database db, String sql);
    }

    private static final Map<String, Factory> FACTORIES = new TreeMap<>();

    static {
        register("jvm", JvmTarget::new);
        register("cuda", CudaTarget::new);
    }

    private Targets() {
    }

    public static synchronized void register(String backend, Factory f) {
        FACTORIES.put(backend, f);
    }

    public static synchronized Target create(TuningDevice device, Database db, String sql) {
        Factory f = FACTORIES.get(device.backend());
        if (f == null) {
            throw new IllegalArgumentException("device " + device.name() + " runs the " + device.backend()
                    + " backend, which cannot run tuning measurements yet (backends that can: "
                    + String.join(", ", FACTORIES.keySet()) + ")");
        }
        return f.create(device, db, sql);
    }
}
