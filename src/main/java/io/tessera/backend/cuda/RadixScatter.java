package io.tessera.backend.cuda;

/**
 * The kernel a pass of {@link LargeSort}'s radix sort runs (tessera_sort.cuh), each a stable scatter of (key, row)
 * pairs by one 8-bit digit with decoupled look-back between tiles. {@link #DEFAULT} is the one queries use, the
 * fastest measured (docs/PERFORMANCE.md, "GPU sort, top-k and sorted search"); {@code tessera bench gpu-sort} and the
 * smoke check run every one.
 */
public enum RadixScatter {
    /** tessera_radix_scatter: tiles of 2,048 pairs, the tile states cleared before each pass, 32-bit rows out. */
    LOOKBACK("tessera_radix_scatter", 256 * 8),
    /**
     * tessera_radix_onesweep_12: tiles of 3,072 pairs (12 a thread), the digits' starts scanned once per word, tile
     * states told apart by pass (one clear per sort), keys and rows reordered in turn through shared memory, the
     * last pass writing the 64-bit result.
     */
    ONESWEEP_12("tessera_radix_onesweep_12", 256 * 12),
    /** As {@link #ONESWEEP_12}, the row numbers read before the look-back, in flight while it waits. */
    ONESWEEP_12_EARLY("tessera_radix_onesweep_12_early", 256 * 12),
    /** As {@link #ONESWEEP_12} with tiles of 4,096 pairs (16 a thread). */
    ONESWEEP_16("tessera_radix_onesweep_16", 256 * 16);

    /**
     * The one queries run: onesweep-16, 11.96 ms for 100 M pairs on an H200 against 14.57 ms by {@link #LOOKBACK}
     * (CUB's 7.55 ms).
     */
    public static final RadixScatter DEFAULT = ONESWEEP_16;

    private final String kernel;
    private final int tile;

    RadixScatter(String kernel, int tile) {
        this.kernel = kernel;
        this.tile = tile;
    }

    /** The kernel's name in the sort module. */
    public String kernel() {
        return kernel;
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
