package io.tessera.backend.cuda.ops;

import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

/**
 * The index of cache lines that tessera_search.cuh's {@code tessera_search_index_G} kernels search through: level
 * h (1 to {@link #levels}) holds the last key of every block of 16^h keys of the sorted array, padded with ~0 to
 * whole lines of 16 entries (128 bytes); the levels lie one after another from the top, which is one line, down to
 * level 1. One line of a level splits its block into 16, so a lookup reads one line per level and one line of the
 * array. This class computes the layout (the kernels compute the same), builds the index on the device, and
 * descends it on the host ({@link #bound}), the reference the layout is tested against.
 */
public final class SearchIndex {

    /**
     * Lanes a lookup of the default sorted search, {@code tessera_search_index_4}: the fastest measured (1.84 ms for
     * 2^24 lookups in 2^24 keys on an H200, 2.26x binary search's 4.16 ms; 1, 8 and 16 lanes 1.57x, 1.33x, 0.61x).
     * The probes of a sorted join table (ht=sorted-pary) search with as many lanes a lookup; {@code tessera bench
     * gpu-search} and the smoke check time and check every lane count ({@link #kernel}).
     */
    public static final int DEFAULT_LANES = 4;
    /** Entries of a line: 16 keys of 8 bytes. */
    public static final int FANOUT = 16;
    private static final int FANOUT_BITS = 4;
    private static final int THREADS = 256;
    private static final int MAX_GRID = 4096;

    private SearchIndex() {
    }

    /** The search kernel with {@code lanes} lanes a lookup (1, 4, 8 or 16): tessera_search_index_LANES. */
    public static String kernel(int lanes) {
        return "tessera_search_index_" + lanes;
    }

    /** Levels over {@code n} (at least 1) keys: the fewest whose top level has at most one line of entries. */
    public static int levels(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("an index over " + n + " keys");
        }
        int h = 1;
        while (entries(n, h) > FANOUT) {
            h++;
        }
        return h;
    }

    /** Entries of level {@code h}: the blocks of 16^h keys in {@code n}. */
    public static long entries(long n, int h) {
        int bits = FANOUT_BITS * h;
        return bits >= 63 ? 1 : (n + (1L << bits) - 1) >>> bits;
    }

    /** Entries of level {@code h} with its padding to whole lines. */
    public static long padded(long n, int h) {
        return (entries(n, h) + FANOUT - 1) & -FANOUT;
    }

    /** Where level {@code h} starts, in entries: after the levels above it. */
    public static long offset(long n, int h) {
        long off = 0;
        for (int g = levels(n); g > h; g--) {
            off += padded(n, g);
        }
        return off;
    }

    /** Entries of the whole index over {@code n} keys (about n / 15). */
    public static long size(long n) {
        return offset(n, 0);
    }

    /**
     * Builds the index over the {@code n} sorted keys at device address {@code sorted} into {@code index} (room for
     * {@link #size} entries): one launch of {@code levelKernel} (tessera_search_index_level) per level.
     */
    public static void build(CudaKernel levelKernel, long sorted, long n, DeviceBuffer index) {
        if (index.size() < size(n) * 8) {
            throw new IllegalArgumentException("an index over " + n + " keys needs " + size(n) * 8 + " bytes");
        }
        for (int h = levels(n); h >= 1; h--) {
            long padded = padded(n, h);
            int grid = (int) Math.max(1, Math.min(MAX_GRID, (padded + THREADS - 1) / THREADS));
            levelKernel.launch(grid, THREADS, KernelArgs.of().ptr(sorted).i64(n).i32(FANOUT_BITS * h)
                    .i64(entries(n, h)).i64(padded).ptr(index.address() + offset(n, h) * 8));
        }
    }

    /** The index over {@code sorted} (unsigned keys, in order) as the device builds it. */
    public static long[] hostIndex(long[] sorted) {
        long n = sorted.length;
        long[] index = new long[(int) size(n)];
        for (int h = levels(n); h >= 1; h--) {
            long off = offset(n, h);
            for (long j = 0; j < padded(n, h); j++) {
                long end = (j + 1) << (FANOUT_BITS * h);
                index[(int) (off + j)] = j < entries(n, h) ? sorted[(int) (Math.min(end, n) - 1)] : -1L;
            }
        }
        return index;
    }

    /**
     * The first place of {@code sorted} whose key is not below {@code q} (upper: above it), unsigned, by the descent
     * the kernels make: per level the first entry of the line not below q names the block to go on in, the last
     * block of the level where every entry is below.
     */
    public static long bound(long[] sorted, long[] index, long q, boolean upper) {
        long n = sorted.length;
        long block = 0;
        for (int h = levels(n); h >= 1; h--) {
            long line = offset(n, h) + block * FANOUT;
            int valid = (int) Math.min(FANOUT, entries(n, h) - block * FANOUT);
            block = block * FANOUT + Math.min(count(index, line, FANOUT, q, upper), valid - 1);
        }
        long first = block * FANOUT;
        return first + count(sorted, first, (int) Math.min(FANOUT, n - first), q, upper);
    }

    private static int count(long[] keys, long from, int limit, long q, boolean upper) {
        int c = 0;
        for (int s = 0; s < limit; s++) {
            int cmp = Long.compareUnsigned(keys[(int) (from + s)], q);
            if (cmp < 0 || (upper && cmp == 0)) {
                c++;
            }
        }
        return c;
    }
}
