package io.tessera.tune;

import io.tessera.storage.Database;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/**
 * How each backend makes a {@link Target} of a query on a device: one registration per backend, the JVM backend's
 * here, the others' through {@link TargetProvider} services.
 */
public final class Targets {

    /** Makes the target of one query on one device. */
    @FunctionalInterface
    public interface Factory {
        Target create(TuningDevice device, Database db, String sql);
    }

    private static final Map<String, Factory> FACTORIES = new TreeMap<>();

    static {
        register("jvm", JvmTarget::new);
        for (TargetProvider p : ServiceLoader.load(TargetProvider.class, Targets.class.getClassLoader())) {
            register(p.backend(), p);
        }
    }

    private Targets() {
    }

    public static synchronized void register(String backend, Factory f) {
        FACTORIES.put(backend, f);
    }

    /** The backends that can run tuning measurements. */
    public static synchronized Set<String> backends() {
        return Set.copyOf(FACTORIES.keySet());
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
