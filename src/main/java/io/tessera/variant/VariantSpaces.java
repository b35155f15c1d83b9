package io.tessera.variant;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The variant space of each kind of device, under the names the command line uses for devices. A backend
 * makes its variants known with one line in the static block below.
 */
public final class VariantSpaces {

    public static final String CPU = "cpu";
    public static final String GPU = "gpu";

    /** Every device kind the command line accepts, whether or not its backend declares a space yet. */
    public static final List<String> DEVICES = List.of(CPU, GPU);

    private static final Map<String, Supplier<VariantSpace>> SPACES = new LinkedHashMap<>();

    static {
        SPACES.put(CPU, JvmVariantSpace::new);
        SPACES.put(GPU, () -> CudaVariantSpace.INSTANCE);
    }

    private VariantSpaces() {
    }

    /** The space of a device kind, or empty when its backend declares none (yet). */
    public static Optional<VariantSpace> forDevice(String device) {
        Supplier<VariantSpace> s = SPACES.get(device);
        return s == null ? Optional.empty() : Optional.of(s.get());
    }

    /** The device kinds that have a space. */
    public static List<String> withSpace() {
        return List.copyOf(SPACES.keySet());
    }
}
