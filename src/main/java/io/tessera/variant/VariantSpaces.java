package io.tessera.variant;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The variant space of each kind of device, under the names the command line uses for devices, and of each
 * backend by its name. A backend makes its variants known with one line in the static block below: the device
 * kind, the backend, the space for a device with a number of parallel units (CPU cores, GPU SMs), and the
 * dimensions that form its thread configuration (what plateau descent tunes).
 */
public final class VariantSpaces {

    public static final String CPU = "cpu";
    public static final String GPU = "gpu";

    /** Every device kind the command line accepts, whether or not its backend declares a space yet. */
    public static final List<String> DEVICES = List.of(CPU, GPU);

    /**
     * One backend's registration: its device kind, name, space, the dimensions of its thread configuration, and
     * whether the best thread configuration depends on the code variant enough that feature-wise search checks a
     * close code decision under the loser's own ({@code FeatureWise.retuning}), and the dimensions whose time
     * changes smoothly along their ordered values, which feature-wise search walks rather than scans
     * ({@code FeatureWise.alongLines}).
     */
    public record Entry(String device, String backend, IntFunction<VariantSpace> factory, List<String> threadDimensions,
                        boolean threadsFollowCode, List<String> lineDimensions) {
        public Entry {
            threadDimensions = List.copyOf(threadDimensions);
            lineDimensions = List.copyOf(lineDimensions);
        }
    }

    private static final Map<String, Entry> BY_DEVICE = new LinkedHashMap<>();

    static {
        // access deals the morsels to the workers: like workers and morsel it leaves the code as it is. On SSB SF 1
        // on 2 cores, the check of close code decisions ran on 7 of 13 queries and found none faster under its own
        // threads, at 6% of exhaustive search's variants instead of 4%: every code variant wants all the workers
        // the morsel size is a line: small morsels pay the scheduling per morsel, large ones the wait for the last
        register(new Entry(CPU, JvmVariantSpace.BACKEND, JvmVariantSpace::new,
                List.of(JvmDimensions.WORKERS, JvmDimensions.MORSEL, JvmDimensions.ACCESS), false,
                List.of(JvmDimensions.MORSEL)));
        // the launch configuration: threads per block, items per thread and the blocks of the grid. A tile's size
        // trades against the aggregation's shared memory and atomics: on SSB q3.4 at SF 20 on the H200 a dense array
        // is fastest at 8 items per thread, a shared table at 4, 2.8x faster there than at 8. None of them is a line:
        // the blocks an SM holds step with threads per block and items per thread (registers, shared memory)
        register(new Entry(GPU, CudaVariantSpace.BACKEND, units -> CudaVariantSpace.INSTANCE,
                List.of(CudaVariantSpace.TPB, CudaVariantSpace.IPT, CudaVariantSpace.GRID), true, List.of()));
    }

    private VariantSpaces() {
    }

    /** Adds or replaces a registration. */
    public static synchronized void register(Entry e) {
        BY_DEVICE.put(e.device(), e);
    }

    /** The space of a device kind on this machine, or empty when its backend declares none (yet). */
    public static synchronized Optional<VariantSpace> forDevice(String device) {
        Entry e = BY_DEVICE.get(device);
        return e == null ? Optional.empty()
                : Optional.of(e.factory().apply(java.lang.Runtime.getRuntime().availableProcessors()));
    }

    /** The device kinds that have a space. */
    public static synchronized List<String> withSpace() {
        return List.copyOf(BY_DEVICE.keySet());
    }

    public static synchronized boolean has(String backend) {
        return BY_DEVICE.values().stream().anyMatch(e -> e.backend().equals(backend));
    }

    /** The registration of a backend; throws with the known backends named when there is none. */
    public static synchronized Entry entry(String backend) {
        List<String> known = new ArrayList<>();
        for (Entry e : BY_DEVICE.values()) {
            if (e.backend().equals(backend)) {
                return e;
            }
            known.add(e.backend());
        }
        throw new IllegalArgumentException("no variant space for backend '" + backend + "' (known: "
                + String.join(", ", known) + ")");
    }

    /** The space of a backend on a device with {@code units} parallel units (CPU cores, GPU SMs). */
    public static VariantSpace forBackend(String backend, int units) {
        return entry(backend).factory().apply(units);
    }

    /** The space of a backend on this machine's processor (units = the JVM's available processors). */
    public static VariantSpace forBackend(String backend) {
        return forBackend(backend, java.lang.Runtime.getRuntime().availableProcessors());
    }

    /** The dimensions of a backend's thread configuration, in order (JVM: workers, morsel, access; CUDA: tpb, ipt). */
    public static List<String> threadDimensions(String backend) {
        return entry(backend).threadDimensions();
    }

    /** The dimensions of a backend that feature-wise search walks along their ordered values (see {@link Entry}). */
    public static List<String> lineDimensions(String backend) {
        return entry(backend).lineDimensions();
    }

    /** Whether a backend's best thread configuration depends on the code variant (see {@link Entry}). */
    public static boolean threadsFollowCode(String backend) {
        return entry(backend).threadsFollowCode();
    }
}
