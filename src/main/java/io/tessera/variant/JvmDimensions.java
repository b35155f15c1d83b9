package io.tessera.variant;

/** Names and values of the JVM backend's variant dimensions (ARCHITECTURE.md, the variant table). */
public final class JvmDimensions {
    private JvmDimensions() {
    }

    public static final String WORKERS = "workers";
    public static final String MORSEL = "morsel";
    /** branch: one if per filter, in order; predicated: consecutive filters combined with a non-short-circuit &. */
    public static final String PREDICATION = "pred";
    /** join hash table of a BUILD sink: perfect | linear. */
    public static final String HASH_TABLE = "ht";
    /** hash function: mulshift | murmur. */
    public static final String HASH = "hash";
    /** grouped aggregation: dense | hash (thread-local tables merged at the end in both). */
    public static final String AGGREGATION = "agg";

    /** The dimension of a probe pipeline that mirrors the table kind of join j's BUILD. */
    public static String probeTable(int joinId) {
        return "ht.j" + joinId;
    }

    public static String probeHash(int joinId) {
        return "hash.j" + joinId;
    }
}
