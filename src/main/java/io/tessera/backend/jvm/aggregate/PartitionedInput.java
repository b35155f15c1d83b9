package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.RowBuffer;

/**
 * One worker's rows of a partitioned aggregation (agg=partitioned), radix-partitioned by a hash of their group
 * key ({@link Hashing#spread}): a {@link RowBuffer} per partition of the layout the emitted code writes. Equal keys
 * fall into the same partition in every worker, so each partition is aggregated on its own afterwards.
 */
public final class PartitionedInput {

    /** log2 of the number of partitions: the fewest, for few or unknown groups. */
    public static final int PARTITION_BITS = 6;
    /** log2 of the most partitions: more would spread each worker's writes over too many buffers at once. */
    static final int MAX_PARTITION_BITS = 8;
    /**
     * Groups a partition's table is meant to hold at most, where the estimate allows: a table of 32,768 groups of
     * one key and aggregate (its slots, keys and values, about 1 MiB) stays in a core's cache while it is filled.
     */
    static final double GROUPS_PER_PARTITION = 1 << 15;

    public final RowBuffer[] parts;
    private final int bits;

    public PartitionedInput(ValueKind[] kinds) {
        this(kinds, 0, PARTITION_BITS);
    }

    /**
     * log2 of the partitions for an estimate of the groups: enough that each partition's table holds about
     * {@link #GROUPS_PER_PARTITION} groups (TPC-H Q18 at SF 10: 15 million orders, 256 partitions), at least
     * {@link #PARTITION_BITS} and at most {@link #MAX_PARTITION_BITS}.
     */
    public static int bitsFor(double estimatedGroups) {
        int bits = PARTITION_BITS;
        while (bits < MAX_PARTITION_BITS && estimatedGroups / (1 << bits) > GROUPS_PER_PARTITION) {
            bits++;
        }
        return bits;
    }

    /**
     * {@code 1 << bits} partitions expecting {@code expectedRows} rows in all (0: unknown): each its share and an eighth more, as the
     * hash spreads them, which its buffer grows towards in large steps ({@link RowBuffer#RowBuffer(ValueKind[], int, int)}).
     */
    public PartitionedInput(ValueKind[] kinds, int expectedRows, int bits) {
        this.bits = bits;
        parts = new RowBuffer[1 << bits];
        int share = expectedRows >> bits;
        for (int i = 0; i < parts.length; i++) {
            parts[i] = new RowBuffer(kinds, 64, share + (share >> 3));
        }
    }

    /** The buffer of the partition of the key whose spreading hash is {@code h}. */
    public RowBuffer part(long h) {
        return parts[Hashing.spread(h, bits)];
    }
}
