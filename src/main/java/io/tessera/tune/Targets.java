package io.tessera.tune;

import io.tessera.storage.Database;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How each backend makes a {@link Target} of a query on a device. The targets run their queries through the engine
 * (io.tessera.exec), which this package sits above: the JVM backend's are {@link JvmTarget}s, the CUDA backend's
 * {@link CudaTuningTarget}s.
 */
public final class Targets {

    /** Makes the target of one query on one device. */
    @FunctionalInterface
    public interface Factory {
        Target create(TuningDevice device, Database db, String sql);
    }

    private static final Map<String, Factory> FACTORIES = new TreeMap<>(Map.of(
            "jvm", JvmTarget::new,
            "cuda", CudaTuningTarget::new));

    private Targets() {
    }

    /** The backends that can run tuning measurements. */
    public static Set<String> backends() {
        return Set.copyOf(FACTORIES.keySet());
    }

    public static Target create(TuningDevice device, Database db, String sql) {
        Factory f = FACTORIES.get(device.backend());
        if (f == null) {
            throw new IllegalArgumentException("device " + device.name() + " runs the " + device.backend()
                    + " backend, which cannot run tuning measurements yet (backends that can: "
                    + String.join(", ", FACTORIES.keySet()) + ")");
        }
        return f.create(device, db, sql);
    }

    /** Closes every target (each one even where an earlier close failed; the first failure is thrown). */
    public static void closeAll(java.util.List<? extends Target> targets) {
        closeAll(targets, null);
    }

    /**
     * Closes every target, as {@link #closeAll(java.util.List)} does, in a {@code finally} after {@code pending}
     * (the failure that ended the work, or null): its failures to close are added to {@code pending} as suppressed,
     * so that they never hide it; without one the first is thrown.
     */
    public static void closeAll(java.util.List<? extends Target> targets, Throwable pending) {
        RuntimeException first = null;
        for (Target t : targets) {
            try {
                t.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null && pending != null) {
            pending.addSuppressed(first);
        } else if (first != null) {
            throw first;
        }
    }
}
