package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.Hashing;

/**
 * One grouping table that all workers of a pipeline update at once (agg=shared): its groups are spread over lock
 * stripes by a hash of their key ({@link Hashing#spread}), each stripe a {@link HashGroupTable} that a worker
 * locks while it finds its row's group and updates the aggregates. A key lives in exactly one stripe, so at the
 * end the stripes' groups are the result as they are, nothing merged.
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

    /** The stripes (their keys are disjoint); call after the workers are done. */
    public java.util.List<HashGroupTable> stripes() {
        return java.util.List.of(stripes);
    }
}
