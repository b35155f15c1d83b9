package io.tessera.backend.cuda.gen;

/**
 * Switches for the GPU's join capabilities that came after the first single-key joins, each on unless its system
 * property is {@code false}: a capability found wrong on a GPU can be turned off (its pipelines then run on the JVM
 * with the reason the capability check gave before it existed) without changing the code.
 *
 * <ul>
 *   <li>{@code tessera.gpu.multiKeyJoins}: joins on two 32-bit keys, packed into one 64-bit key ({@link JoinKeys});
 *   <li>{@code tessera.gpu.markJoins}: probes that mark the rows of a table built on the device, pipelines that
 *       only mark, and scans of a device table's marked or unmarked rows ({@link MarkOps});
 *   <li>{@code tessera.gpu.chainedJoins}: tables whose build keys may repeat, and the probes that take several
 *       matches per row ({@link ChainedRows});
 *   <li>{@code tessera.gpu.expandedBuilds}: such a table built by a pipeline whose probe takes several matches per
 *       row, its rows placed by a counter ({@link ChainedRows#reservePlaces});
 *   <li>{@code tessera.gpu.residualJoins}: inner and marking probes with a condition besides the keys ({@link
 *       ProbeOp});
 *   <li>{@code tessera.gpu.leftJoins}: left joins probed on the device, their payload NULL for a row without a
 *       match, and the NULL-aware expressions over it ({@link DeviceNulls}).
 * </ul>
 */
public final class GpuJoinSwitches {

    public static final String MULTI_KEY_PROPERTY = "tessera.gpu.multiKeyJoins";
    public static final String MARKS_PROPERTY = "tessera.gpu.markJoins";
    public static final String CHAINED_PROPERTY = "tessera.gpu.chainedJoins";
    public static final String EXPANDED_PROPERTY = "tessera.gpu.expandedBuilds";
    public static final String RESIDUAL_PROPERTY = "tessera.gpu.residualJoins";
    public static final String LEFT_PROPERTY = "tessera.gpu.leftJoins";

    private GpuJoinSwitches() {
    }

    static boolean multiKeyJoins() {
        return on(MULTI_KEY_PROPERTY);
    }

    static boolean markJoins() {
        return on(MARKS_PROPERTY);
    }

    static boolean chainedJoins() {
        return on(CHAINED_PROPERTY);
    }

    static boolean expandedBuilds() {
        return on(EXPANDED_PROPERTY);
    }

    static boolean residualJoins() {
        return on(RESIDUAL_PROPERTY);
    }

    static boolean leftJoins() {
        return on(LEFT_PROPERTY);
    }

    /** Read at every check, so that a test or a session may turn a switch off and on again. */
    private static boolean on(String property) {
        return !"false".equalsIgnoreCase(System.getProperty(property));
    }
}
