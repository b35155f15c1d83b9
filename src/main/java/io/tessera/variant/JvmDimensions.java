package io.tessera.variant;

/**
 * Names of the JVM backend's variant dimensions (ARCHITECTURE.md, the variant table). Their values, where each
 * applies and the constraints between them are declared in {@link JvmVariantSpace}.
 */
public final class JvmDimensions {
    private JvmDimensions() {
    }

    /** worker threads running the pipeline's morsels. */
    public static final String WORKERS = "workers";
    /** rows per morsel. */
    public static final String MORSEL = "morsel";
    /** how workers are given morsels: dynamic | blocked | strided. */
    public static final String ACCESS = "access";
    /** branch: one if per filter, in order; predicated: the conjuncts of a run of filters combined with a non-short-circuit &. */
    public static final String PREDICATION = "pred";
    /** scalar | vector: the leading filters' comparisons of a column with a constant evaluated with the Vector API. */
    public static final String SIMD = "simd";
    /** written | selectivity: the order of a pipeline's movable probes. */
    public static final String PROBE_ORDER = "order";
    /** join hash table of a BUILD sink: perfect | linear | cuckoo2 | cuckoo3 | cuckoo4. */
    public static final String HASH_TABLE = "ht";
    /** hash function of hash tables: mulshift | murmur. */
    public static final String HASH = "hash";
    /** grouped aggregation: dense | hash | shared | partitioned. */
    public static final String AGGREGATION = "agg";
    /** who builds a BUILD sink's join table: serial (one thread) | partitioned (radix partitions) | atomic. */
    public static final String JOIN_BUILD = "build";
    /** how a grouping pipeline's per-worker tables come together: serial | partitioned (merged in parallel). */
    public static final String GROUP_MERGE = "merge";
    /** how the workers' sets of a DISTINCT aggregate are united: serial | partitioned (by value hash, in parallel). */
    public static final String DISTINCT = "distinct";
    /** a SORT sink's full sort: serial (one thread) | runs (a run per worker, merged by the workers). */
    public static final String SORT = "sort";
    /** a top-k SORT sink: serial (one bounded heap) | worker (each worker's rows cut to their top k, then merged). */
    public static final String TOP_K = "topk";
    /** a WINDOW sink: serial (one thread) | partitions (groups of whole partitions, each sorted and evaluated by a worker). */
    public static final String WINDOW = "window";

    /**
     * runtime join filters tested before a pipeline's probes: none | range (a join table's key range) | bloom
     * (that, and a Bloom filter over the table's keys); each probe gets the tests its estimates say pay.
     */
    public static final String JOIN_FILTER = "joinfilter";

    /** The dimension of a probe pipeline that mirrors the table kind of join j's BUILD. */
    public static String probeTable(int joinId) {
        return "ht.j" + joinId;
    }

    public static String probeHash(int joinId) {
        return "hash.j" + joinId;
    }
}
