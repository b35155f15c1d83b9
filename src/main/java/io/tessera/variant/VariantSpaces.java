package io.tessera.variant;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * Where the rest of the engine obtains a backend's variant space: one registration per backend, giving the space
 * for a device with a number of parallel units (CPU cores, GPU SMs) and the dimensions that form the backend's
 * thread configuration (the plateau descent's search space). Unknown backends fail with the list of known ones.
 */
public final class VariantSpaces {

    /** One backend's registration. */
    public record Entry(String backend, IntFunction<VariantSpace> factory, List<String> threadDimensions) {
        public Entry {
            threadDimensions = List.copyOf(threadDimensions);
        }
    }

    private static final Map<String, Entry> ENTRIES = new TreeMap<>();

    static {
        register(new Entry("jvm", JvmVariantSpace::new, List.of(JvmDimensions.WORKERS, JvmDimensions.MORSEL)));
    }

    private VariantSpaces() {
    }

    /** Adds or replaces a backend's registration. */
    public static synchronized void register(Entry e) {
        ENTRIES.put(e.backend(), e);
    }

    public static synchronized boolean has(String backend) {
        return ENTRIES.containsKey(backend);
    }

    /** The registration of a backend; throws with the known backends named when there is none. */
    public static synchronized Entry entry(String backend) {
        Entry e = ENTRIES.get(backend);
        if (e == null) {
            throw new IllegalArgumentException("no variant space for backend '" + backend + "' (known: "
                    + String.join(", ", ENTRIES.keySet()) + ")");
        }
        return e;
    }

    /** The space of a backend on a device with {@code units} parallel units (CPU cores, GPU SMs). */
    public static VariantSpace forBackend(String backend, int units) {
        return entry(backend).factory().apply(units);
    }

    /** The space of a backend on this machine's processor (units = the JVM's available processors). */
    public static VariantSpace forBackend(String backend) {
        return forBackend(backend, java.lang.Runtime.getRuntime().availableProcessors());
    }

    /** The dimensions of a backend's thread configuration, in order (JVM: workers, morsel; CUDA: tpb, ipt). */
    public static List<String> threadDimensions(String backend) {
        return entry(backend).threadDimensions();
    }
}
