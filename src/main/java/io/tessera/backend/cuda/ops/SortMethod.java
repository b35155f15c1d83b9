package io.tessera.backend.cuda.ops;

/**
 * How the GPU orders a device relation ({@link LargeSort}), chosen once the key words' varying bits are known
 * ({@link RadixPasses}): a bitonic top-k where a LIMIT of at most {@link #MAX_TOP_K} rows keeps a small part of the
 * rows and one key word orders them, else the radix sort cut to the LIMIT; nothing where no key word varies.
 */
public enum SortMethod {
    /** Every key is the same in all rows: the rows stay in their order. */
    NONE,
    /** The bitonic top-k of the Crystal thesis over one key word. */
    TOP_K,
    /** The LSD radix sort, then the first rows. */
    RADIX;

    /** The largest LIMIT (offset plus fetch) the bitonic top-k takes. */
    public static final int MAX_TOP_K = 1024;

    /**
     * What the GPU may use for a LIMIT: the bitonic top-k where it applies, or always the full sort (the CUDA
     * genome's {@code topk} dimension, {@code bitonic} or {@code sort}).
     */
    public enum Preference {
        BITONIC, SORT
    }

    /**
     * The method for {@code rows} rows of which the first {@code keep} are wanted, when {@code varyingWords} key
     * words differ between rows.
     */
    public static SortMethod choose(long rows, long keep, int varyingWords, Preference preference) {
        if (varyingWords == 0 || rows <= 1 || keep == 0) {
            return NONE;
        }
        boolean cuts = keep < rows && keep <= MAX_TOP_K;
        return cuts && varyingWords == 1 && preference == Preference.BITONIC ? TOP_K : RADIX;
    }

    /**
     * The k the top-k kernel runs with for a LIMIT of {@code keep}: the power of two at or above it, at least 8 (the
     * pairs each thread of tessera_topk_tile holds in registers).
     */
    public static int topKWidth(long keep) {
        if (keep < 1 || keep > MAX_TOP_K) {
            throw new IllegalArgumentException("top-k of " + keep + " rows");
        }
        int k = 8;
        while (k < keep) {
            k <<= 1;
        }
        return k;
    }
}
