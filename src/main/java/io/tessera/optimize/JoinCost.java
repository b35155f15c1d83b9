package io.tessera.optimize;

/**
 * What a hash join costs the JVM's pipelines, in lookups of a perfect table that fits a core's cache, from the
 * estimates the join enumerator has: the table each side would make, and the rows that build it, probe it and match.
 *
 * <p>A build row is copied into the table's rows and inserted into its index; a probe row looks its key up. The
 * index of a single integer key whose column's range is short enough is perfect (an array over the range: one read,
 * no hash, and the whole range allocated and cleared, however few rows fill it); any other is hashed (a hash, a slot
 * and a key compared, more for several keys). Every access is dearer as the memory it reads outgrows the caches.
 * Where the build key repeats, each build row is also linked into its key's chain, and a probe walks the chain: a
 * read of the links array per match. Every match reads its build row's payload. A table over a unique key therefore
 * costs less per row and per match than one of as many rows with repeated keys.
 */
public final class JoinCost {

    /** The JVM's longest key range with a perfect table, in slots ({@code JvmVariantSpace.MAX_PERFECT_SLOTS}). */
    static final double MAX_PERFECT_SLOTS = 1 << 24;
    /**
     * The longest key span of a ranged table: a hashed one-key table whose slots follow its keys' order
     * ({@code JoinTable.ranged}, made by the JVM's partitioned builds of at least {@link #MIN_RANGED_ROWS} rows).
     */
    static final double MAX_RANGED_SPAN = 0x1p32;
    /** The fewest rows of a ranged table: fewer are indexed on one thread, hashed ({@code JoinBuildStrategy}). */
    static final double MIN_RANGED_ROWS = 1 << 13;
    /** Memory that stays in a core's caches while a pipeline reads it at random: about a second-level cache. */
    static final double CACHED_BYTES = 1 << 20;
    /** Copying a build row into the table's rows (sequential writes of its payload and keys). */
    static final double COPY_ROW = 1;
    /** Linking a build row into the chain of its key (a sequential write of the links array). */
    static final double LINK_ROW = 0.25;
    /** Clearing one slot of a table's index (a perfect table's whole key range, a hashed table's slots). */
    static final double CLEAR_SLOT = 0.05;
    /** A lookup in a hashed index of one key, beside a perfect one's 1: the hash, and the key compared. */
    static final double HASH_LOOKUP = 1.5;
    /** A lookup in a hashed index of several keys: each key hashed and compared. */
    static final double MULTI_KEY_LOOKUP = 2.5;
    /** A step along a key's chain to its next build row. */
    static final double CHAIN_STEP = 0.5;
    /** Reading a matched build row's payload. */
    static final double PAYLOAD_READ = 0.25;
    /** Bytes of a hashed index per slot (a row and a key), and of a build row's payload. */
    static final double SLOT_BYTES = 12;
    static final double ROW_BYTES = 16;

    private JoinCost() {
    }

    /**
     * The table a join builds: {@code rows} build rows, {@code unique} where its key holds each value once,
     * {@code perfectSlots} the key range of a perfect index (0: hashed), {@code keys} the key columns it hashes;
     * {@code insertsAscend} and {@code lookupsAscend}: the build and probe rows come in their keys' ascending order
     * (a scan of a table written in that order) and the index is perfect or ranged (a hashed one-key index whose
     * slots follow the keys' order), so it is written or read in order, streaming through memory however large it
     * is. The caller says so only of such an index ({@link #orderedIndex}).
     */
    record Table(double rows, boolean unique, double perfectSlots, int keys, boolean insertsAscend,
                 boolean lookupsAscend) {

        /** A table whose rows come in no known order. */
        Table(double rows, boolean unique, double perfectSlots, int keys) {
            this(rows, unique, perfectSlots, keys, false, false);
        }

        boolean perfect() {
            return perfectSlots > 0;
        }

        /** The slots of the index: a perfect one's key range, a hashed one's power of two at least twice the rows. */
        double slots() {
            return perfect() ? perfectSlots : Math.pow(2, Math.max(4, Math.ceil(Math.log(2 * Math.max(1, rows)) / Math.log(2))));
        }

        double indexBytes() {
            return perfect() ? 4 * perfectSlots : SLOT_BYTES * slots();
        }

        /** One lookup of a probe row's key, before the caches. */
        double lookup() {
            return perfect() ? 1 : keys > 1 ? MULTI_KEY_LOOKUP : HASH_LOOKUP;
        }
    }

    /**
     * Whether a table of {@code rows} rows over one key keeps its index in key order: a perfect table ({@code
     * perfectSlots} above 0), or a hashed one whose key values span {@code span} values (0 if unknown), few enough for
     * a ranged table, and that the workers build together. Keys that arrive in order then read or write it in order.
     * The join enumerator's costs and the plan's runtime filters and probe order (plan.RuntimeFilters) ask this.
     */
    public static boolean orderedIndex(double rows, double perfectSlots, double span) {
        return perfectSlots > 0 || span > 0 && span <= MAX_RANGED_SPAN && rows >= MIN_RANGED_ROWS;
    }

    /** The work of building {@code t}: its index cleared, each row copied, inserted and (repeated keys) linked. */
    static double build(Table t) {
        double perRow = COPY_ROW + t.lookup() * (t.insertsAscend() ? 1 : memory(t.indexBytes()))
                + (t.unique() ? 0 : LINK_ROW);
        return t.slots() * CLEAR_SLOT + t.rows() * perRow;
    }

    /**
     * The work of probing {@code t} with {@code probeRows} rows that find {@code matches} build rows: a lookup per
     * probe row, a payload read per match, and for repeated keys a step along the chain per match.
     */
    static double probe(Table t, double probeRows, double matches) {
        double perMatch = PAYLOAD_READ * memory(ROW_BYTES * t.rows())
                + (t.unique() ? 0 : CHAIN_STEP * memory(4 * t.rows()));
        return probeRows * t.lookup() * (t.lookupsAscend() ? 1 : memory(t.indexBytes())) + matches * perMatch;
    }

    /** The work of one join: building {@code t} and probing it. */
    static double join(Table t, double probeRows, double matches) {
        return build(t) + probe(t, probeRows, matches);
    }

    /** What a random access into this much memory costs against one in the caches: 1 there, up to 3 far beyond. */
    static double memory(double bytes) {
        return 1 + Math.min(2, 0.5 * Math.log10(Math.max(1, bytes / CACHED_BYTES)));
    }
}
