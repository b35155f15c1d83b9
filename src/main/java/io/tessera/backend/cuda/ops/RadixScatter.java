package io.tessera.backend.cuda.ops;

/**
 * The kernel a pass of {@link LargeSort}'s radix sort runs (tessera_sort.cuh, tessera_radix_staged.cuh), each a
 * stable scatter of (key, row) pairs by one 8-bit digit with decoupled look-back between tiles. {@link #DEFAULT} is
 * the one queries use, the fastest measured (docs/PERFORMANCE.md, "GPU sort, top-k and sorted search"), or the one
 * the system property {@value #PROPERTY} names by its {@link #label()}; {@code tessera bench gpu-sort} and the smoke
 * check run every one.
 */
public enum RadixScatter {
    /** tessera_radix_scatter: tiles of 2,048 pairs, the tile states cleared before each pass, 32-bit rows out. */
    LOOKBACK("tessera_radix_scatter", 256, 8, 0, 4),
    /**
     * tessera_radix_onesweep_12: tiles of 3,072 pairs (12 a thread), the digits' starts scanned once per word, tile
     * states told apart by pass (one clear per sort), keys and rows reordered in turn through shared memory, the
     * last pass writing the 64-bit result.
     */
    ONESWEEP_12("tessera_radix_onesweep_12", 256, 12, 0, 3),
    /** As {@link #ONESWEEP_12}, the row numbers read before the look-back, in flight while it waits. */
    ONESWEEP_12_EARLY("tessera_radix_onesweep_12_early", 256, 12, 0, 3),
    /** As {@link #ONESWEEP_12} with tiles of 4,096 pairs (16 a thread). */
    ONESWEEP_16("tessera_radix_onesweep_16", 256, 16, 0, 3),
    /**
     * tessera_radix_staged_12: as the onesweep kernels, with the row numbers copied to shared memory (cp.async)
     * while the keys are ranked and the tile looks back, the tile's digit counts published before its keys are
     * ranked (CUB's early counts), the keys placed in shared memory before the look-back; tiles of 3,072 pairs,
     * four blocks an SM.
     */
    STAGED_12("tessera_radix_staged_12", 256, 12, 12, 4),
    /** As {@link #STAGED_12} with tiles of 4,096 pairs, three blocks an SM. */
    STAGED_16("tessera_radix_staged_16", 256, 16, 12, 3),
    /** As {@link #STAGED_12} with tiles of 5,120 pairs, three blocks an SM. */
    STAGED_20("tessera_radix_staged_20", 256, 20, 12, 3),
    /**
     * As {@link #STAGED_12} in blocks of 384 threads, 15 pairs each (tiles of 5,760 pairs), two blocks an SM: the
     * shape of CUB's onesweep for 64-bit keys and 32-bit values on the H100.
     */
    STAGED_15_384("tessera_radix_staged_15_384", 384, 15, 12, 2);

    /** The system property that picks {@link #DEFAULT} by label ("staged-16"), for measuring one against another. */
    public static final String PROPERTY = "tessera.gpu.sortScatter";

    /**
     * The one queries run: staged-16 (10.56 ms for 100 M pairs on an H200 against 12.04 ms by {@link #ONESWEEP_16}
     * and 14.28 ms by {@link #LOOKBACK}; CUB's 7.58 ms) unless {@value #PROPERTY} names another.
     */
    public static final RadixScatter DEFAULT = byLabel(System.getProperty(PROPERTY, "staged-16"));

    private final String kernel;
    private final int threads;
    private final int tile;
    private final int dynamicShared;
    private final int blocksPerSm;

    /**
     * {@code sharedPerPair}: bytes of dynamic shared memory per pair of the tile (0: the kernel's shared memory is
     * all static).
     */
    RadixScatter(String kernel, int threads, int pairsPerThread, int sharedPerPair, int blocksPerSm) {
        this.kernel = kernel;
        this.threads = threads;
        this.tile = threads * pairsPerThread;
        this.dynamicShared = tile * sharedPerPair;
        this.blocksPerSm = blocksPerSm;
    }

    /** The scatter whose {@link #label()} is {@code label}. */
    public static RadixScatter byLabel(String label) {
        for (RadixScatter r : values()) {
            if (r.label().equals(label)) {
                return r;
            }
        }
        throw new IllegalArgumentException("no radix scatter \"" + label + "\" (" + PROPERTY + "): one of "
                + java.util.Arrays.stream(values()).map(RadixScatter::label).toList());
    }

    /** The kernel's name in the sort module. */
    public String kernel() {
        return kernel;
    }

    /** Bytes of dynamic shared memory a block of the kernel takes (0: its shared memory is all static). */
    public int dynamicShared() {
        return dynamicShared;
    }

    /** Threads of a block. */
    public int threads() {
        return threads;
    }

    /** Blocks an SM runs at once, as the kernel's registers are bounded for (__launch_bounds__). */
    public int blocksPerSm() {
        return blocksPerSm;
    }

    /** Pairs a block scatters. */
    public int tile() {
        return tile;
    }

    /** Blocks of a pass over {@code rows} rows. */
    public long tiles(long rows) {
        return (rows + tile - 1) / tile;
    }

    /** A name for reports: "onesweep-16". */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
