package io.tessera.backend.cuda.ops;

import io.tessera.backend.cuda.compile.CudaSources;
import io.tessera.backend.cuda.driver.CudaKernel;
import io.tessera.backend.cuda.driver.DeviceBuffer;
import io.tessera.backend.cuda.driver.KernelArgs;

import java.util.List;
import java.util.function.Function;

/**
 * ORDER BY and LIMIT over a small device relation, such as a query's groups after their compaction: each sort key
 * becomes one word per row that orders as an unsigned number ({@code tessera_sort_keys3}), then one block sorts the
 * row numbers by those words in shared memory ({@code tessera_sort_small}, a bitonic sort; equal rows keep their
 * order) and writes the first rows' numbers, the LIMIT's, to an index that {@link SlotCompaction#gather} reads.
 * Relations of more than {@link #MAX_ROWS} rows or more than {@link #MAX_KEYS} key words are sorted by
 * {@link LargeSort}, from the same key words.
 */
public final class SmallSort {
    /** The most rows one block sorts: its shared memory holds every row's key words. */
    public static final int MAX_ROWS = 4096;
    /** The most key words per row (a nullable key takes two: its NULL flag and its value). */
    public static final int MAX_KEYS = 6;
    private static final int THREADS = 1024;
    private static final int KEY_THREADS = 256;
    /** The keys one launch of {@code tessera_sort_keys3} encodes. */
    private static final int KEYS_PER_ENCODE = 3;

    /**
     * How a key word is read from its source array (the {@code TESSERA_SORT_*} kinds of tessera_query.cuh, in the
     * order of their numbers).
     */
    public enum Kind {
        /** A signed 64-bit integer (integers, DECIMALs unscaled, dates, dictionary codes, counts). */
        SIGNED,
        /** The bits of a double. */
        DOUBLE,
        /** One key of a dense group table, decoded from the slot number: {@code min + (slot / divisor) % size}. */
        DENSE_DIGIT,
        /** 1 where the source (an aggregate's own count) is 0, its value then being NULL; 0 elsewhere. */
        NULL_FLAG,
        /** A signed 32-bit integer of an array of one per row (a kernel's INTEGER, DATE or dictionary code column). */
        INT32,
        /**
         * 1 where a byte of an array of one per row is not 0, else 0: a boolean column, or the NULL flags of a
         * kernel's rows (for which descending means NULLS FIRST, as for NULL_FLAG).
         */
        BYTE
    }

    /**
     * One key word: word {@code word} of the {@code width} 64-bit words per row of the array that starts at word
     * {@code firstWord} of {@code source}, read as {@code kind} ({@code min}, {@code divisor}, {@code size} only
     * for DENSE_DIGIT), complemented when {@code descending}. For a NULL_FLAG key, descending means NULLS FIRST.
     */
    public record Key(DeviceBuffer source, long firstWord, int width, int word, Kind kind, long min, long divisor,
                      long size, boolean descending) {

        /** Word {@code word} of {@code width} per row, the array at word {@code firstWord} of {@code source}. */
        public static Key of(DeviceBuffer source, long firstWord, int width, int word, Kind kind, boolean descending) {
            return new Key(source, firstWord, width, word, kind, 0, 1, 1, descending);
        }

        /** A dense group table's key decoded from the slot numbers in {@code slots}. */
        public static Key denseDigit(DeviceBuffer slots, long min, long divisor, long size, boolean descending) {
            return new Key(slots, 0, 1, 0, Kind.DENSE_DIGIT, min, divisor, size, descending);
        }
    }

    private final CudaKernel encode;
    private final CudaKernel sort;

    /** {@code kernels}: a kernel of the module compiled from {@link CudaSources#utilitySource()}, by name. */
    public SmallSort(Function<String, CudaKernel> kernels) {
        this.encode = kernels.apply("tessera_sort_keys3");
        this.sort = kernels.apply("tessera_sort_small");
    }

    /** Whether {@code rows} rows by {@code keys} key words can be sorted here. */
    public static boolean fits(long rows, int keys) {
        return rows <= MAX_ROWS && keys >= 1 && keys <= MAX_KEYS;
    }

    /** The power of two of rows that the sort pads {@code rows} to (at least 2). */
    static int paddedRows(long rows) {
        return (int) Math.max(2, Long.highestOneBit(Math.max(1, rows - 1)) << 1);
    }

    /** Dynamic shared memory of a sort of {@code rows} rows by {@code keys} key words. */
    public static int sharedBytes(long rows, int keys) {
        int m = paddedRows(rows);
        return m * keys * 8 + m * 4;
    }

    /** Bytes of scratch for the key words of {@code rows} rows by {@code keys} keys. */
    public static long scratchBytes(long rows, int keys) {
        return Math.max(8, rows * keys * 8);
    }

    /**
     * Writes key {@code j} of row {@code i} as a word that orders as an unsigned number to word {@code j * rows + i}
     * of {@code scratch} ({@link #scratchBytes}; {@code tessera_sort_keys3}), asynchronously: the key words
     * {@link LargeSort} sorts as well.
     */
    public void encode(List<Key> keys, long rows, DeviceBuffer scratch) {
        encode(keys, rows, 0, scratch);
    }

    /**
     * As {@link #encode(List, long, DeviceBuffer)} for as many rows as the count at device address {@code countAt}
     * says, at most {@code rows} (0: {@code rows}); the key words stay {@code rows} apart.
     */
    public void encode(List<Key> keys, long rows, long countAt, DeviceBuffer scratch) {
        if (scratch.size() < scratchBytes(rows, keys.size())) {
            throw new IllegalArgumentException(keys.size() + " key words of " + rows + " rows in " + scratch.size() + " bytes");
        }
        int blocks = (int) Math.min(1024, (rows + KEY_THREADS - 1) / KEY_THREADS);
        // three keys a launch (tessera_sort_keys3), row y of the grid encoding the launch's key y
        for (int from = 0; from < keys.size() && rows > 0; from += KEYS_PER_ENCODE) {
            int to = Math.min(keys.size(), from + KEYS_PER_ENCODE);
            KernelArgs args = KernelArgs.of().i64(rows).ptr(countAt);
            for (int j = from; j < from + KEYS_PER_ENCODE; j++) {
                Key k = keys.get(Math.min(j, to - 1)); // a row of the grid past the last key: never launched
                args.ptr(k.source().address() + k.firstWord() * 8).i32(k.width()).i32(k.word())
                        .i32(k.kind().ordinal()).i64(k.min()).i64(k.divisor()).i64(k.size()).i32(k.descending() ? 1 : 0)
                        .ptr(scratch.address() + Math.min(j, to - 1) * rows * 8);
            }
            encode.launch(blocks, to - from, 1, KEY_THREADS, 1, 1, 0, null, args);
        }
    }

    /**
     * Writes the numbers of the first {@code outRows} of {@code rows} rows in the order of {@code keys} to
     * {@code outIndex} (64-bit); {@code scratch} holds the key words ({@link #scratchBytes}). Asynchronous on the
     * default stream: a later copy to the host waits for it.
     */
    public void sort(List<Key> keys, long rows, long outRows, DeviceBuffer scratch, DeviceBuffer outIndex) {
        sort(keys, rows, 0, outRows, scratch, outIndex);
    }

    /**
     * As {@link #sort(List, long, long, DeviceBuffer, DeviceBuffer)} for as many rows as the count at device address
     * {@code countAt} says, at most {@code rows} (0: {@code rows}), queued before the host knows it: the first
     * {@code outRows} of them, or all where they are fewer.
     */
    public void sort(List<Key> keys, long rows, long countAt, long outRows, DeviceBuffer scratch, DeviceBuffer outIndex) {
        if (!fits(rows, keys.size()) || scratch.size() < scratchBytes(rows, keys.size())
                || outIndex.size() < Math.min(rows, outRows) * 8 || outRows < 0) {
            throw new IllegalArgumentException("sorting " + rows + " rows by " + keys.size() + " keys into "
                    + outRows + " rows, with " + scratch.size() + " and " + outIndex.size() + " bytes");
        }
        if (rows == 0 || outRows == 0) {
            return;
        }
        encode(keys, rows, countAt, scratch);
        int shared = sharedBytes(rows, keys.size());
        if (shared > 48 * 1024) {
            sort.allowDynamicShared(shared);
        }
        sort.launch(1, THREADS, shared, null, KernelArgs.of().ptr(scratch).i32(keys.size()).i64(rows).ptr(countAt)
                .i32(paddedRows(rows)).ptr(outIndex).i64(outRows));
    }
}
