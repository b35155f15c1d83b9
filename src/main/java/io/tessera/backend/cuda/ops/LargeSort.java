package io.tessera.backend.cuda.ops;

import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * ORDER BY and LIMIT over device relations of any size (up to {@link #MAX_ROWS} rows) and any number of key words,
 * by the kernels of tessera_sort.cuh: the key words are those {@link SmallSort#encode} writes (words that order as
 * unsigned numbers, one array per ORDER BY key word); one reduction gives each word's AND and OR, which say which
 * digits vary ({@link RadixPasses}); then either the bitonic top-k (a LIMIT of at most 1,024 rows over one varying
 * word) or the LSD radix sort of the row numbers, stable, cut to the LIMIT ({@link SortMethod}). The result is the
 * row numbers in order, 64-bit, as {@link SmallSort} writes them. Launches go to the default stream; the
 * reduction's read-back is the one wait (and, over many rows, the top-k filter's count).
 */
public final class LargeSort {

    /** The most rows: row numbers are 32-bit on the device, and the top-k pads with the largest. */
    public static final long MAX_ROWS = (1L << 32) - 2;
    private static final int RADIX_THREADS = 256;
    private static final int RADIX_TILE = RADIX_THREADS * 8;
    private static final int DIGITS = 1 << RadixPasses.DIGIT_BITS;
    /** Digit places of a 64-bit word: tessera_radix_digit_totals counts them all in one read. */
    private static final int PLACES = 64 / RadixPasses.DIGIT_BITS;
    /** Blocks of tessera_radix_digit_totals: each adds its counts of every digit to the totals once. */
    private static final int TOTALS_GRID = 1024;
    private static final int TOPK_THREADS = 512;
    private static final int TOPK_TILE = 4096;
    private static final int TOPK_SHARED = TOPK_TILE * 12;
    /** Rows of the top-k's sample, evenly spaced: its k-th pair bounds the pairs that can be among the first k. */
    public static final long TOPK_SAMPLE = 65_536;
    /** The top-k filters its rows first from this many on (a sample of at most a quarter of them). */
    public static final long TOPK_FILTER_ROWS = 4 * TOPK_SAMPLE;
    private static final int GRID_THREADS = 256;
    private static final int MAX_GRID = 4096;

    /** Device memory the sort takes for a while and gives back (a pool, or plain allocations). */
    public interface Scratch {
        DeviceBuffer take(long bytes);

        /** Hands a buffer back; work queued on the default stream that uses it runs before any later use. */
        void give(DeviceBuffer b);
    }

    /** Key word {@code word}'s digit counts at every place in {@code totals}, as tessera_radix_digit_totals writes. */
    record Counted(int word, DeviceBuffer totals) {
    }

    /** What a sort did: its method and the radix passes it planned (run only by {@link SortMethod#RADIX}). */
    public record Outcome(SortMethod method, RadixPasses passes, int keyWords) {
        public String describe() {
            return switch (method) {
                case NONE -> "no key varies: rows kept in their order";
                case TOP_K -> "bitonic top-k over 1 of " + keyWords + " key words";
                case RADIX -> "radix sort, " + passes.describe(keyWords);
            };
        }
    }

    private final SmallSort encoder;
    private final CudaKernel bitsInit;
    private final CudaKernel bits;
    private final CudaKernel bitsTotals;
    private final CudaKernel clear;
    private final CudaKernel digitTotals;
    private final CudaKernel gatherKeys;
    private final CudaKernel rowsOut;
    private final CudaKernel topKTile;
    private final CudaKernel topKSample;
    private final CudaKernel topKFilter;
    private final java.util.Map<RadixScatter, CudaKernel> scatters = new java.util.EnumMap<>(RadixScatter.class);
    private final OnesweepRadix onesweep;

    /**
     * {@code sortKernels}: a kernel of the module compiled from {@link CudaSources#sortSource()}, by name;
     * {@code encoder}: the small sort of the utility module, whose key encoding this sort shares.
     */
    public LargeSort(Function<String, CudaKernel> sortKernels, SmallSort encoder) {
        this.encoder = encoder;
        this.bitsInit = sortKernels.apply("tessera_radix_bits_init");
        this.bits = sortKernels.apply("tessera_radix_bits");
        this.bitsTotals = sortKernels.apply("tessera_radix_bits_totals");
        this.clear = sortKernels.apply("tessera_radix_clear");
        this.digitTotals = sortKernels.apply("tessera_radix_digit_totals");
        this.gatherKeys = sortKernels.apply("tessera_radix_gather_keys");
        this.rowsOut = sortKernels.apply("tessera_sort_rows_out");
        this.topKTile = sortKernels.apply("tessera_topk_tile");
        this.topKSample = sortKernels.apply("tessera_topk_sample");
        this.topKFilter = sortKernels.apply("tessera_topk_filter");
        for (RadixScatter r : RadixScatter.values()) {
            CudaKernel k = sortKernels.apply(r.kernel());
            if (r.dynamicShared() > 0) {
                // above 48 KB a block must opt in; the carve-out asked for holds the blocks an SM runs
                k.allowDynamicShared(r.dynamicShared());
                k.preferSharedPerSm((long) r.blocksPerSm() * (k.staticSharedBytes() + r.dynamicShared() + 1024));
            }
            scatters.put(r, k);
        }
        this.onesweep = new OnesweepRadix(clear, digitTotals, sortKernels.apply("tessera_radix_starts"), gatherKeys);
    }

    /** Whether {@code rows} rows by {@code keys} key words can be sorted here. */
    public static boolean fits(long rows, int keys) {
        return rows >= 0 && rows <= MAX_ROWS && keys >= 1;
    }

    /**
     * Writes the numbers of the first {@code outRows} of {@code rows} rows in the order of {@code keys} to
     * {@code outIndex} (64-bit; room for {@code min(rows, outRows)} numbers).
     */
    public Outcome sort(List<SmallSort.Key> keys, long rows, long outRows, SortMethod.Preference preference,
                        Scratch scratch, DeviceBuffer outIndex) {
        return sort(keys, rows, outRows, preference, RadixScatter.DEFAULT, scratch, outIndex);
    }

    /** As {@link #sort(List, long, long, SortMethod.Preference, Scratch, DeviceBuffer)}, the radix passes by {@code scatter}. */
    public Outcome sort(List<SmallSort.Key> keys, long rows, long outRows, SortMethod.Preference preference,
                        RadixScatter scatter, Scratch scratch, DeviceBuffer outIndex) {
        DeviceBuffer words = scratch.take(SmallSort.scratchBytes(rows, keys.size()));
        try {
            encoder.encode(keys, rows, words);
            return sortWords(words.address(), keys.size(), rows, outRows, preference, scatter, scratch, outIndex);
        } finally {
            scratch.give(words);
        }
    }

    /**
     * As {@link #sort}, from key words already encoded: word {@code j} of row {@code i} at word {@code j * rows + i}
     * of the array at device address {@code words}, which the sort only reads.
     */
    public Outcome sortWords(long words, int keyWords, long rows, long outRows, SortMethod.Preference preference,
                             Scratch scratch, DeviceBuffer outIndex) {
        return sortWords(words, keyWords, rows, outRows, preference, RadixScatter.DEFAULT, scratch, outIndex);
    }

    /** As {@link #sortWords(long, int, long, long, SortMethod.Preference, Scratch, DeviceBuffer)}, the radix passes by {@code scatter}. */
    public Outcome sortWords(long words, int keyWords, long rows, long outRows, SortMethod.Preference preference,
                             RadixScatter scatter, Scratch scratch, DeviceBuffer outIndex) {
        long keep = Math.min(rows, Math.max(0, outRows));
        if (!fits(rows, keyWords) || outIndex.size() < keep * 8) {
            throw new IllegalArgumentException("sorting " + rows + " rows by " + keyWords + " key words into " + outRows
                    + " rows, with " + outIndex.size() + " bytes");
        }
        // a sort sure to run radix passes if any word varies counts the last word's digits in the plan's read of it
        // (the first word sorted, where it varies); the top-k never needs them
        Counted counted = rows > 0 && scatter != RadixScatter.LOOKBACK && radixUnlessConstant(rows, keep, preference)
                ? new Counted(keyWords - 1, scratch.take(OnesweepRadix.TOTALS_BYTES)) : null;
        try {
            RadixPasses passes = rows == 0 ? RadixPasses.plan(new long[0], new long[0])
                    : plan(words, keyWords, rows, scratch, counted);
            SortMethod method = SortMethod.choose(rows, keep, passes.varyingWords(), preference);
            switch (method) {
                case NONE -> launchRowsOut(0, keep, outIndex);
                case TOP_K -> topK(words + passes.words().get(0).word() * rows * 8, rows, keep, scratch, outIndex);
                case RADIX -> radix(words, rows, passes, keep, scratch, outIndex, scatter, counted);
            }
            return new Outcome(method, passes, keyWords);
        } finally {
            if (counted != null) {
                scratch.give(counted.totals());
            }
        }
    }

    /** Whether {@link SortMethod#choose} picks the radix sort for these rows whenever some key word varies. */
    static boolean radixUnlessConstant(long rows, long keep, SortMethod.Preference preference) {
        return rows > 1 && keep > 0 && SortMethod.choose(rows, keep, 1, preference) == SortMethod.RADIX;
    }

    /** Each word's AND and OR over all rows (one reduction per word, one read-back), as radix passes. */
    public RadixPasses plan(long words, int keyWords, long rows, Scratch scratch) {
        return plan(words, keyWords, rows, scratch, null);
    }

    /** As {@link #plan(long, int, long, Scratch)}, counting the digits of {@code counted}'s word in the same read. */
    private RadixPasses plan(long words, int keyWords, long rows, Scratch scratch, Counted counted) {
        DeviceBuffer b = scratch.take(16L * keyWords);
        try (Arena arena = Arena.ofConfined()) {
            bitsInit.launch(1, GRID_THREADS, KernelArgs.of().ptr(b).i32(keyWords));
            if (counted != null) {
                long totalWords = counted.totals().size() / 8;
                clear.launch(grid(totalWords), GRID_THREADS, KernelArgs.of().ptr(counted.totals()).i64(totalWords));
            }
            for (int w = 0; w < keyWords; w++) {
                KernelArgs args = KernelArgs.of().ptr(words + w * rows * 8).i64(rows).ptr(b.address() + 16L * w);
                if (counted != null && counted.word() == w) {
                    bitsTotals.launch((int) Math.min(TOTALS_GRID, (rows + RADIX_TILE - 1) / RADIX_TILE), RADIX_THREADS,
                            args.ptr(counted.totals()));
                } else {
                    bits.launch(grid(rows), GRID_THREADS, args);
                }
            }
            MemorySegment host = arena.allocate(16L * keyWords, 8);
            b.copyToHost(host, 0); // a synchronous copy: waits for the reductions
            long[] and = new long[keyWords];
            long[] or = new long[keyWords];
            for (int w = 0; w < keyWords; w++) {
                and[w] = host.getAtIndex(JAVA_LONG, 2L * w);
                or[w] = host.getAtIndex(JAVA_LONG, 2L * w + 1);
            }
            return RadixPasses.plan(and, or);
        } finally {
            scratch.give(b);
        }
    }

    /**
     * The LSD radix sort of the rows by the words and digits of {@code passes}, then the first {@code keep} row
     * numbers to {@code outIndex}. Word {@code w}'s first pass reads the word gathered in the order the rows have
     * reached (the first word sorted reads it as it is, the rows being in their order then). Each word's digits
     * are counted in one read before its passes; a pass is one launch (after its tile states are cleared), the
     * tiles learning where their runs go from the tiles before them (decoupled look-back). {@code scatter} other
     * than {@link RadixScatter#LOOKBACK}: the passes of {@link OnesweepRadix}.
     */
    public void radix(long words, long rows, RadixPasses passes, long keep, Scratch scratch, DeviceBuffer outIndex,
                      RadixScatter scatter) {
        radix(words, rows, passes, keep, scratch, outIndex, scatter, null);
    }

    /** As the public {@code radix}, with one word's digits counted already ({@code counted}, or null). */
    private void radix(long words, long rows, RadixPasses passes, long keep, Scratch scratch, DeviceBuffer outIndex,
                       RadixScatter scatter, Counted counted) {
        if (scatter != RadixScatter.LOOKBACK) {
            List<DeviceBuffer> taken = new ArrayList<>();
            try {
                long sorted = onesweep.sort(scatters.get(scatter), scatter, words, rows, passes, keep, counted, scratch,
                        taken, outIndex);
                if (sorted != 0) {
                    launchRowsOut(sorted, keep, outIndex);
                }
            } finally {
                for (DeviceBuffer b : taken) {
                    scratch.give(b);
                }
            }
            return;
        }
        long tiles = (rows + RADIX_TILE - 1) / RADIX_TILE;
        List<DeviceBuffer> taken = new ArrayList<>();
        try {
            DeviceBuffer[] keyBufs = {take(scratch, taken, rows * 8), take(scratch, taken, rows * 8)};
            DeviceBuffer[] rowBufs = {take(scratch, taken, rows * 4), take(scratch, taken, rows * 4)};
            // the tiles' look-back states, then the counter that hands out tile numbers
            long stateWords = tiles * DIGITS + 1;
            DeviceBuffer states = take(scratch, taken, stateWords * 8);
            long nextTile = states.address() + tiles * DIGITS * 8;
            long totalWords = PLACES * DIGITS / 2;
            DeviceBuffer totals = take(scratch, taken, totalWords * 8); // 32-bit counts, PLACES rows of DIGITS
            long keysIn = 0;
            long rowsIn = 0; // null: the rows in their order
            int nextKeys = 0;
            int nextRows = 0;
            boolean first = true;
            for (RadixPasses.Word w : passes.words()) {
                long word = words + w.word() * rows * 8;
                if (first) {
                    keysIn = word;
                    first = false;
                } else {
                    DeviceBuffer gathered = keyBufs[nextKeys];
                    gatherKeys.launch(grid(rows), GRID_THREADS, KernelArgs.of().ptr(word).ptr(rowsIn).i64(rows).ptr(gathered));
                    keysIn = gathered.address();
                    nextKeys ^= 1;
                }
                int digits = 0;
                for (int shift : w.shifts()) {
                    digits |= 1 << (shift / RadixPasses.DIGIT_BITS);
                }
                clear.launch(1, GRID_THREADS, KernelArgs.of().ptr(totals).i64(totalWords));
                digitTotals.launch((int) Math.min(TOTALS_GRID, tiles), RADIX_THREADS, KernelArgs.of().ptr(keysIn)
                        .i64(rows).i32(digits).ptr(totals));
                for (int shift : w.shifts()) {
                    clear.launch(grid(stateWords), GRID_THREADS, KernelArgs.of().ptr(states).i64(stateWords));
                    DeviceBuffer keysOut = keyBufs[nextKeys];
                    DeviceBuffer rowsOutBuf = rowBufs[nextRows];
                    long passTotals = totals.address() + (long) (shift / RadixPasses.DIGIT_BITS) * DIGITS * 4;
                    scatters.get(RadixScatter.LOOKBACK).launch((int) tiles, RADIX_THREADS, KernelArgs.of().ptr(keysIn).ptr(rowsIn).i64(rows).i32(shift)
                            .ptr(passTotals).ptr(states).ptr(nextTile).ptr(keysOut).ptr(rowsOutBuf));
                    keysIn = keysOut.address();
                    rowsIn = rowsOutBuf.address();
                    nextKeys ^= 1;
                    nextRows ^= 1;
                }
            }
            launchRowsOut(rowsIn, keep, outIndex);
        } finally {
            for (DeviceBuffer b : taken) {
                scratch.give(b);
            }
        }
    }

    /**
     * The bitonic top-k: the first {@code keep} (at most {@link SortMethod#MAX_TOP_K}) of {@code rows} rows by the
     * one key word at device address {@code word}, ties by row number, to {@code outIndex}. From
     * {@link #TOPK_FILTER_ROWS} rows on, only the pairs that pass {@link #filter} enter the tiles (all of them where
     * more pass than it has room for).
     */
    public void topK(long word, long rows, long keep, Scratch scratch, DeviceBuffer outIndex) {
        int k = SortMethod.topKWidth(keep);
        List<DeviceBuffer> taken = new ArrayList<>();
        try {
            long[] candidates = filtersFirst(rows) ? filter(word, rows, k, scratch, taken) : null;
            long[] best = candidates != null
                    ? tiles(candidates[0], candidates[1], candidates[2], k, scratch, taken)
                    : tiles(word, 0, rows, k, scratch, taken);
            launchRowsOut(best[1], keep, outIndex);
        } finally {
            for (DeviceBuffer b : taken) {
                scratch.give(b);
            }
        }
    }

    /** Whether a top-k over {@code rows} rows filters them before its tiles. */
    public static boolean filtersFirst(long rows) {
        return rows >= TOPK_FILTER_ROWS;
    }

    /**
     * The pairs that can be among the first {@code k} of {@code rows} rows (at least {@link #TOPK_FILTER_ROWS}):
     * those not after the k-th pair of a sample of {@link #TOPK_SAMPLE} evenly spaced rows (which are real rows, so
     * at least k pass). Returns the device addresses of their keys and rows and their number, or null where more
     * pass than the room of an eighth of the rows (keys alike over long runs, say): the caller then takes every row.
     * The number is read back (a wait).
     */
    private long[] filter(long word, long rows, int k, Scratch scratch, List<DeviceBuffer> taken) {
        long stride = rows / TOPK_SAMPLE;
        DeviceBuffer sampleKeys = take(scratch, taken, TOPK_SAMPLE * 8);
        DeviceBuffer sampleRows = take(scratch, taken, TOPK_SAMPLE * 4);
        DeviceBuffer count = take(scratch, taken, 8);
        topKSample.launch(grid(TOPK_SAMPLE), GRID_THREADS, KernelArgs.of().ptr(word).i64(stride).i64(TOPK_SAMPLE)
                .ptr(sampleKeys).ptr(sampleRows).ptr(count));
        long[] limit = tiles(sampleKeys.address(), sampleRows.address(), TOPK_SAMPLE, k, scratch, taken);
        long capacity = (rows + 7) / 8;
        DeviceBuffer keys = take(scratch, taken, capacity * 8);
        DeviceBuffer rowNumbers = take(scratch, taken, capacity * 4);
        topKFilter.launch(grid(rows), GRID_THREADS, KernelArgs.of().ptr(word).i64(rows).ptr(limit[0] + (k - 1) * 8L)
                .ptr(limit[1] + (k - 1) * 4L).ptr(keys).ptr(rowNumbers).i64(capacity).ptr(count));
        long passed = count.readLong(0);
        return passed >= k && passed <= capacity ? new long[] {keys.address(), rowNumbers.address(), passed} : null;
    }

    /**
     * The tile launches of the top-k over {@code count} pairs (keys at {@code keysIn}; rows at {@code rowsIn}, or 0
     * for the pairs' indexes): each keeps the first k of every tile of 4,096 pairs, until one tile's are left.
     * Returns the device addresses of the keys and rows of the k first pairs, in order.
     */
    private long[] tiles(long keysIn, long rowsIn, long count, int k, Scratch scratch, List<DeviceBuffer> taken) {
        long pairs = Math.max(1, (count + TOPK_TILE - 1) / TOPK_TILE) * k;
        DeviceBuffer[] keyBufs = {take(scratch, taken, pairs * 8), take(scratch, taken, pairs * 8)};
        DeviceBuffer[] rowBufs = {take(scratch, taken, pairs * 4), take(scratch, taken, pairs * 4)};
        int next = 0;
        long tiles;
        do {
            tiles = Math.max(1, (count + TOPK_TILE - 1) / TOPK_TILE);
            topKTile.launch((int) tiles, TOPK_THREADS, TOPK_SHARED, null, KernelArgs.of().ptr(keysIn).ptr(rowsIn)
                    .i64(count).i32(k).ptr(keyBufs[next]).ptr(rowBufs[next]));
            keysIn = keyBufs[next].address();
            rowsIn = rowBufs[next].address();
            count = tiles * k;
            next ^= 1;
        } while (tiles > 1);
        return new long[] {keysIn, rowsIn};
    }

    /** The tile launches of one top-k of {@code keep} over {@code rows} pairs, unfiltered (for reports and tests). */
    public static int topKLaunches(long rows, long keep) {
        int k = SortMethod.topKWidth(keep);
        long count = rows;
        int launches = 0;
        long tiles;
        do {
            tiles = (count + TOPK_TILE - 1) / TOPK_TILE;
            count = tiles * k;
            launches++;
        } while (tiles > 1);
        return launches;
    }

    private void launchRowsOut(long rows, long keep, DeviceBuffer outIndex) {
        if (keep > 0) {
            rowsOut.launch(grid(keep), GRID_THREADS, KernelArgs.of().ptr(rows).i64(keep).ptr(outIndex));
        }
    }

    static DeviceBuffer take(Scratch scratch, List<DeviceBuffer> taken, long bytes) {
        DeviceBuffer b = scratch.take(Math.max(8, bytes));
        taken.add(b);
        return b;
    }

    static int grid(long n) {
        return (int) Math.max(1, Math.min(MAX_GRID, (n + GRID_THREADS - 1) / GRID_THREADS));
    }
}
