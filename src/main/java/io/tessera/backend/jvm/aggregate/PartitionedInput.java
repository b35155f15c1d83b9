package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.JKind;
import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.jvm.relation.RowBuffer;

/**
 * One worker's rows of a partitioned aggregation (agg=partitioned), radix-partitioned by a hash of their group
 * key ({@link Hashing#spread}): a {@link RowBuffer} per partition of the layout the emitted code writes. Equal keys
 * fall into the same partition in every worker, so each partition is aggregated on its own afterwards.
 */
public final class PartitionedInput {

    /** log2 of the number of partitions. */
    public static final int PARTITION_BITS = 6;

    public final RowBuffer[] parts;

    public PartitionedInput(JKind[] kinds) {
        this(kinds, 0);
    }

    /**
     * Partitions expecting {@code expectedRows} rows in all (0: unknown): each its share and an eighth more, as the
     * hash spreads them, which its buffer grows towards in large steps ({@link RowBuffer#RowBuffer(JKind[], int, int)}).
     */
    public PartitionedInput(JKind[] kinds, int expectedRows) {
        parts = new RowBuffer[1 << PARTITION_BITS];
        int share = expectedRows >> PARTITION_BITS;
        for (int i = 0; i < parts.length; i++) {
            parts[i] = new RowBuffer(kinds, 64, share + (share >> 3));
        }
    }

    /** The buffer of the partition of the key whose spreading hash is {@code h}. */
    public RowBuffer part(long h) {
        return parts[Hashing.spread(h, PARTITION_BITS)];
    }
}
