package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.Hashing;

/**
 * One grouping table that all workers of a pipeline update at once (agg=shared): its groups are spread over lock
 * stripes by a hash of their key ({@link Hashing#spread}), each stripe a {@link HashGroupTable} that a worker
 * locks while it finds its row's group and updates the aggregates. A key lives in exactly one stripe, so at the
 * end the stripes are concatenated, not merged group by group.
 */
public final class SharedGroupTable {

    /** log2 of the number of stripes. */
    public static final int STRIPE_BITS = 6;

    private final HashGroupTable[] stripes;

    public SharedGroupTable(AggSpec[] aggs, int width, boolean nullableKeys, boolean murmur, int expectedGroups) {
        stripes = new HashGroupTable[1 << STRIPE_BITS];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new HashGroupTable(aggs, width, nullableKeys, murmur, Math.max(16, expectedGroups >> STRIPE_BITS));
        }
    }

    /** The stripe of the key whose spreading hash is {@code h}; the caller locks it while using it. */
    public HashGroupTable stripe(long h) {
        return stripes[Hashing.spread(h, STRIPE_BITS)];
    }

    /** All groups in one table (the first stripe, the others' groups added to it); call after the workers are done. */
    public HashGroupTable collect(boolean[] stringKeys) {
        HashGroupTable all = stripes[0];
        for (int i = 1; i < stripes.length; i++) {
            all.mergeFrom(stripes[i], stringKeys);
        }
        return all;
    }
}
