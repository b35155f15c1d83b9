package io.tessera.backend.jvm.join;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.RowCopies;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;

/**
 * How a join table is made from the workers' row buffers, one strategy per value of the {@code build} dimension.
 * Every one makes a table of the same layout that the probes read as they always do; they differ in who builds
 * the index:
 * <ul>
 * <li>serial: the buffers concatenated (by all workers), the index built on one thread;</li>
 * <li>partitioned: the rows radix-partitioned by bits of their key's hash (or, for a perfect table, of the key's
 * offset) while they are copied into one buffer, then each partition indexed by one worker into a slot range of
 * its own ({@link PartitionedJoinBuild});</li>
 * <li>atomic: the buffers concatenated, then each worker inserts a range of rows into the one table with atomic
 * exchanges and compare-and-sets ({@link AtomicJoinBuild}; cuckoo tables are built partitioned).</li>
 * </ul>
 * Below {@link #PARALLEL_MIN_ROWS} rows every strategy builds serially: handing the work out would cost more.
 */
public enum JoinBuildStrategy {
    SERIAL, PARTITIONED, ATOMIC;

    /** Fewer rows than this are indexed on one thread whatever the strategy. */
    public static final int PARALLEL_MIN_ROWS = 1 << 13;

    /** The genome value: serial, partitioned, atomic. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static JoinBuildStrategy of(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }

    /**
     * The table over the buffers' rows ({@code kinds}: their columns, the payload's then {@code keyCount} LONG keys),
     * of layout {@code layout}; {@code min} and {@code max} bound a perfect table's keys.
     */
    public JoinTable build(ValueKind[] kinds, List<RowBuffer> buffers, int payloadColumns, int keyCount,
                           JoinTable.Layout layout, long min, long max, boolean murmur, boolean unique,
                           ExecutorService pool, int workers) {
        return build(kinds, buffers, payloadColumns, keyCount, layout, min, max, murmur, unique, pool, workers,
                () -> { });
    }

    /** As above; a table built serially runs {@code checkCancel} (the query's cancel check) every 4,096 rows. */
    public JoinTable build(ValueKind[] kinds, List<RowBuffer> buffers, int payloadColumns, int keyCount,
                           JoinTable.Layout layout, long min, long max, boolean murmur, boolean unique,
                           ExecutorService pool, int workers, Runnable checkCancel) {
        return build(kinds, buffers, payloadColumns, keyCount, layout, min, max, murmur, unique, pool, workers,
                JoinTable.MAX_BITS, PARALLEL_MIN_ROWS, checkCancel);
    }

    /** As below, without a cancel check. */
    JoinTable build(ValueKind[] kinds, List<RowBuffer> buffers, int payloadColumns, int keyCount, JoinTable.Layout layout,
                    long min, long max, boolean murmur, boolean unique, ExecutorService pool, int workers, int maxBits,
                    int minParallelRows) {
        return build(kinds, buffers, payloadColumns, keyCount, layout, min, max, murmur, unique, pool, workers, maxBits,
                minParallelRows, () -> { });
    }

    /** As above, with cuckoo tables no larger than 2^maxBits slots, built serially below {@code minParallelRows}. */
    JoinTable build(ValueKind[] kinds, List<RowBuffer> buffers, int payloadColumns, int keyCount, JoinTable.Layout layout,
                    long min, long max, boolean murmur, boolean unique, ExecutorService pool, int workers, int maxBits,
                    int minParallelRows, Runnable checkCancel) {
        long rows = 0;
        for (RowBuffer b : buffers) {
            rows += b.size;
        }
        if (this == SERIAL || workers <= 1 || rows < minParallelRows) {
            RowBuffer all = RowCopies.concat(kinds, buffers, pool, workers);
            return JoinTable.build(all, payloadColumns, keyCount, layout, min, max, murmur, unique, maxBits,
                    checkCancel);
        }
        if (this == ATOMIC && layout.ways == 0) {
            RowBuffer all = RowCopies.concat(kinds, buffers, pool, workers);
            return AtomicJoinBuild.build(all, payloadColumns, keyCount, layout, min, max, murmur, unique, pool, workers);
        }
        return PartitionedJoinBuild.build(kinds, buffers, payloadColumns, keyCount, layout, min, max, murmur, unique,
                pool, workers, maxBits);
    }
}
