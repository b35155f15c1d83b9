package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.lib.Hashing;
import io.tessera.backend.host.ColumnData;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.MatRelation;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.ColumnInfo;
import io.tessera.storage.Dictionary;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A join's hash table over the rows of its build side: payload columns in a {@link RowBuffer}, and an index
 * from key to row in one of these layouts:
 * <ul>
 * <li>perfect: {@code first[key - min]} (dense key ranges), holding the row plus one, 0 where no row has the key:
 * the array the JVM allocates zeroed is then an empty table without a pass writing -1 over the whole range (a
 * range of order keys takes 24 MB at TPC-H SF 1 for the ~150K orders a probe keeps);</li>
 * <li>linear probing: open addressing over {@code slotKeys}/{@code slotRows} (one key) or {@code slotRows} plus
 * {@code keyCols} (several keys), probing the next slot on a collision;</li>
 * <li>cuckoo with 2, 3 or 4 hash functions: every key sits in one of its {@code ways} candidate slots
 * ({@link Hashing#cuckoo}), so a lookup reads at most {@code ways} slots; an insert that finds them all taken
 * moves a resident key to another of its slots, and so on (a random walk); when that fails the table is rebuilt
 * twice as large, and only at the largest size do keys go into a small stash searched last.</li>
 * </ul>
 * Rows with equal keys are chained through {@code next} unless the keys are unique. A join that builds its
 * preserved side also has a mark per build row ({@link #marks}), which its probes set and a scan of the marked or
 * unmarked rows reads ({@link #payloadColumns}).
 */
public final class JoinTable {

    /** The layouts of the index, as named by the {@code ht} dimension. */
    public enum Layout {
        PERFECT(0), LINEAR(0), CUCKOO2(2), CUCKOO3(3), CUCKOO4(4);

        /** Hash functions of a cuckoo layout; 0 for the others. */
        public final int ways;

        Layout(int ways) {
            this.ways = ways;
        }

        /** The genome value: perfect, linear, cuckoo2, cuckoo3, cuckoo4. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Layout of(String label) {
            return valueOf(label.toUpperCase(Locale.ROOT));
        }
    }

    /** The largest cuckoo table, in bits of its slot count. */
    static final int MAX_BITS = 30;

    public final Layout layout;
    public final boolean perfect;
    public final boolean murmur;
    public final boolean unique;
    /** The query's cancel check while the table is built serially, every 4,096 rows (none once built). */
    private Runnable checkCancel = () -> { };
    public final RowBuffer payload;
    public final int rows;
    /** Cuckoo: the number of hash functions. */
    public final int ways;
    public long min;
    public long max;
    public int[] first;
    public int bits;
    public int mask;
    public long[] slotKeys;
    public int[] slotRows;
    public long[][] keyCols;
    public int[] next;
    /**
     * Linear, one key: the keys' home slots follow their order ({@link Hashing#ranged} of the key's offset from
     * {@link #rangeLo}) rather than their hash. A partitioned build makes a table so where the keys' span allows it
     * and keeps it so where they proved spread evenly over their span (PartitionedJoinBuild): probes whose keys
     * ascend (lineitem's order keys) then read the slots in order, as a scan reads, where hashed slots would miss
     * the cache at every row. A key outside the span is in no slot.
     */
    public boolean ranged;
    /** A ranged table's smallest key, its keys' span (largest minus smallest, below 2^32) and its slot scale. */
    public long rangeLo;
    public long rangeSpan;
    public long rangeScale;
    /** Cuckoo: rows that found no slot at the largest table size (normally none), searched last. */
    public int[] stashRows = new int[0];
    public int stashSize;
    /** The runtime filters over the keys, made when a probing pipeline first asks for them. */
    private KeyRanges keyRanges;
    private BloomFilter bloom;
    /** The threads that make the runtime filters (those the table was built with; the calling thread alone unless set). */
    private HostWorkers filterWorkers = HostWorkers.ONE;

    JoinTable(Layout layout, boolean murmur, boolean unique, RowBuffer payload, int rows) {
        this.layout = layout;
        this.perfect = layout == Layout.PERFECT;
        this.ways = layout.ways;
        this.murmur = murmur;
        this.unique = unique;
        this.payload = payload;
        this.rows = rows;
    }

    /**
     * Builds the table from the build side's rows: {@code all}'s first {@code payloadColumns} columns are the payload,
     * the remaining {@code keyCount} LONG columns the encoded keys (rows with a NULL key were never added).
     */
    public static JoinTable build(RowBuffer all, int payloadColumns, int keyCount, Layout layout, long min, long max,
                                  boolean murmur, boolean unique) {
        return build(all, payloadColumns, keyCount, layout, min, max, murmur, unique, MAX_BITS);
    }

    /** As above, with cuckoo tables no larger than 2^maxBits slots (tests make the stash necessary with a small one). */
    static JoinTable build(RowBuffer all, int payloadColumns, int keyCount, Layout layout, long min, long max,
                           boolean murmur, boolean unique, int maxBits) {
        return build(all, payloadColumns, keyCount, layout, min, max, murmur, unique, maxBits, () -> { });
    }

    /** As above, running {@code checkCancel} (the query's cancel check) every 4,096 rows indexed. */
    static JoinTable build(RowBuffer all, int payloadColumns, int keyCount, Layout layout, long min, long max,
                           boolean murmur, boolean unique, int maxBits, Runnable checkCancel) {
        int n = all.size;
        JoinTable t = new JoinTable(layout, murmur, unique, all, n);
        t.checkCancel = checkCancel;
        long[][] keys = new long[keyCount][];
        for (int k = 0; k < keyCount; k++) {
            keys[k] = all.longs[payloadColumns + k];
        }
        t.keyCols = keys;
        switch (layout) {
            case PERFECT -> t.buildPerfect(min, max);
            case LINEAR -> t.buildLinear();
            default -> t.buildCuckoo(maxBits);
        }
        t.checkCancel = () -> { };
        return t;
    }

    private long[] present;

    /**
     * A perfect table's keys as one bit per slot of its range (bit {@code key - min}), for probes that ask only
     * whether a key is there (semi and anti): a 200,000-key range is 25 KB of bits, which stays in a core's cache,
     * where its slots' rows take 800 KB. Made on the first call (by a probing pipeline's init), on the {@link
     * #filterWorkers} threads, each setting whole words.
     */
    public synchronized long[] present() {
        if (present == null) {
            long[] bits = new long[Math.max(1, (first.length + 63) >>> 6)];
            int[] slots = first;
            filterWorkers.chunks(slots.length, 1 << 16, (from, to) -> {
                for (int i = from; i < to; i++) {
                    if (slots[i] != 0) { // the row plus one; 0: no row
                        bits[i >>> 6] |= 1L << i;
                    }
                }
            });
            present = bits;
        }
        return present;
    }

    /** The range of each key column over the rows (runtime join filters); made on the first call. */
    public synchronized KeyRanges keyRanges() {
        if (keyRanges == null) {
            keyRanges = KeyRanges.over(keyCols, rows);
        }
        return keyRanges;
    }

    /**
     * A Bloom filter over the rows' keys (runtime join filters); made on the first call (by the probing pipeline before
     * its workers start), on the {@link #filterWorkers} threads.
     */
    public synchronized BloomFilter bloom() {
        if (bloom == null) {
            bloom = BloomFilter.over(keyCols, rows, filterWorkers);
        }
        return bloom;
    }

    /**
     * The words of the table's {@link #bloom} where it pays for the rows built ({@link
     * io.tessera.plan.RuntimeFilters#bloomPaysFor}), else null: the generated test is then skipped.
     */
    public long[] bloomIfItPays() {
        return io.tessera.plan.RuntimeFilters.bloomPaysFor(rows) ? bloom().words : null;
    }

    /** The blocks of {@link #bloomIfItPays}'s filter; 0 where there is none. */
    public int bloomBlocks() {
        return io.tessera.plan.RuntimeFilters.bloomPaysFor(rows) ? bloom().blocks : 0;
    }

    /** The threads that make the runtime filters when a probing pipeline first asks for them. */
    synchronized void filterWorkers(HostWorkers workers) {
        this.filterWorkers = workers;
    }

    void resetChains() {
        if (!unique) {
            next = new int[Math.max(1, rows)];
            Arrays.fill(next, -1);
        }
    }

    private void buildPerfect(long min, long max) {
        resetChains();
        this.min = min;
        this.max = max;
        long range = max - min + 1;
        first = new int[(int) Math.max(1, range)]; // zeroed: every key without a row
        long[] k0 = keyCols[0];
        for (int r = rows - 1; r >= 0; r--) {
            every4096(r);
            long k = k0[r];
            if (k < min || k > max) {
                throw new IllegalStateException("build key " + k + " outside its planned range [" + min + ", " + max + "]");
            }
            int s = (int) (k - min);
            int at = first[s] - 1;
            if (at >= 0) {
                chain(r, at);
            }
            first[s] = r + 1;
        }
    }

    /** The cancel check, at every 4,096th row of a build loop. */
    private void every4096(int r) {
        if ((r & 4095) == 0) {
            checkCancel.run();
        }
    }

    /** Row r has the key of row {@code at}, the chain's current head: r becomes the head. */
    void chain(int r, int at) {
        if (unique) {
            throw new IllegalStateException("duplicate key in a join table planned as unique");
        }
        next[r] = at;
    }

    /** The value the slot functions hash: the key itself, or the combined hash of several keys. */
    long hashKey(int r) {
        return hashKey(keyCols, r);
    }

    /** The first slot a linear table probes for a key's hash value: by order in a ranged table, else hashed. */
    int home(long h) {
        return ranged ? Hashing.ranged(h - rangeLo, rangeScale) : Hashing.hash(h, bits, murmur);
    }

    /** Whether a key may be in this table's slots: false for a key outside a ranged table's span. */
    private boolean inSpan(long k) {
        return !ranged || Long.compareUnsigned(k - rangeLo, rangeSpan) <= 0;
    }

    /** The value the slot functions hash for row r of these key columns. */
    static long hashKey(long[][] keyCols, int r) {
        if (keyCols.length == 1) {
            return keyCols[0][r];
        }
        long h = 0;
        for (long[] k : keyCols) {
            h = Hashing.combine(h, k[r]);
        }
        return h;
    }

    private static long hashKey(long[] key) {
        if (key.length == 1) {
            return key[0];
        }
        long h = 0;
        for (long k : key) {
            h = Hashing.combine(h, k);
        }
        return h;
    }

    private void allocateSlots(int b) {
        bits = b;
        mask = (1 << bits) - 1;
        slotRows = new int[1 << bits];
        Arrays.fill(slotRows, -1);
        slotKeys = keyCols.length == 1 ? new long[1 << bits] : null;
    }

    private void buildLinear() {
        resetChains();
        allocateSlots(Hashing.bitsFor(rows));
        for (int r = rows - 1; r >= 0; r--) {
            every4096(r);
            int s = home(hashKey(r));
            while (true) {
                int at = slotRows[s];
                if (at < 0) {
                    slotRows[s] = r;
                    if (slotKeys != null) {
                        slotKeys[s] = keyCols[0][r];
                    }
                    break;
                }
                if (sameKey(at, r)) {
                    chain(r, at);
                    slotRows[s] = r;
                    break;
                }
                s = (s + 1) & mask;
            }
        }
    }

    boolean sameKey(int a, int b) {
        for (long[] k : keyCols) {
            if (k[a] != k[b]) {
                return false;
            }
        }
        return true;
    }

    // ---- cuckoo ----

    private void buildCuckoo(int maxBits) {
        // at most a quarter full with two functions, half full with three or four (below their thresholds)
        int b = Math.min(maxBits, Hashing.bitsFor(ways == 2 ? 2L * rows : rows));
        while (!tryCuckoo(b, b >= maxBits)) {
            b++;
        }
    }

    /** Inserts every row into a table of 2^b slots; false when a key found no slot (and no stash is allowed). */
    private boolean tryCuckoo(int b, boolean useStash) {
        resetChains();
        allocateSlots(b);
        stashRows = new int[0];
        stashSize = 0;
        long seed = 0x9E3779B97F4A7C15L ^ b;
        int maxKicks = 64 + 16 * b;
        for (int r = rows - 1; r >= 0; r--) {
            every4096(r);
            long h = hashKey(r);
            int at = cuckooFindRow(h, r);
            if (at >= 0) {
                chain(r, at);
                replaceRow(h, at, r);
                continue;
            }
            int cur = r;
            long curHash = h;
            boolean placed = false;
            int from = -1;
            for (int kick = 0; kick <= maxKicks && !placed; kick++) {
                for (int i = 0; i < ways; i++) {
                    int s = Hashing.cuckoo(curHash, i, bits, murmur);
                    if (slotRows[s] < 0) {
                        put(s, cur);
                        placed = true;
                        break;
                    }
                }
                if (!placed) {
                    // evict the resident of a random candidate slot (not the one cur was just moved out of)
                    seed ^= seed << 13;
                    seed ^= seed >>> 7;
                    seed ^= seed << 17;
                    int i = (int) Long.remainderUnsigned(seed, ways);
                    int s = Hashing.cuckoo(curHash, i, bits, murmur);
                    if (s == from) {
                        s = Hashing.cuckoo(curHash, (i + 1) % ways, bits, murmur);
                    }
                    int evicted = slotRows[s];
                    put(s, cur);
                    cur = evicted;
                    curHash = hashKey(cur);
                    from = s;
                }
            }
            if (!placed) {
                if (!useStash) {
                    return false;
                }
                if (stashSize == stashRows.length) {
                    stashRows = Arrays.copyOf(stashRows, Math.max(4, stashSize * 2));
                }
                stashRows[stashSize++] = cur;
            }
        }
        return true;
    }

    private void put(int s, int row) {
        slotRows[s] = row;
        if (slotKeys != null) {
            slotKeys[s] = keyCols[0][row];
        }
    }

    /** The head row of the chain with row r's key (hash h), or -1; searches the candidate slots and the stash. */
    private int cuckooFindRow(long h, int r) {
        for (int i = 0; i < ways; i++) {
            int s = Hashing.cuckoo(h, i, bits, murmur);
            int at = slotRows[s];
            if (at >= 0 && sameKey(at, r)) {
                return at;
            }
        }
        for (int i = 0; i < stashSize; i++) {
            if (sameKey(stashRows[i], r)) {
                return stashRows[i];
            }
        }
        return -1;
    }

    /** Replaces the head row {@code at} of a chain by {@code r} wherever it sits (a slot or the stash). */
    private void replaceRow(long h, int at, int r) {
        for (int i = 0; i < ways; i++) {
            int s = Hashing.cuckoo(h, i, bits, murmur);
            if (slotRows[s] == at) {
                slotRows[s] = r;
                return;
            }
        }
        for (int i = 0; i < stashSize; i++) {
            if (stashRows[i] == at) {
                stashRows[i] = r;
                return;
            }
        }
        throw new IllegalStateException("cuckoo table lost row " + at);
    }

    /** The first row with this single key in the stash, or -1 (generated cuckoo probes call this last). */
    public int findStash1(long k) {
        long[] c0 = keyCols[0];
        for (int i = 0; i < stashSize; i++) {
            if (c0[stashRows[i]] == k) {
                return stashRows[i];
            }
        }
        return -1;
    }

    private int findStash(long[] key) {
        for (int i = 0; i < stashSize; i++) {
            int at = stashRows[i];
            if (rowHasKey(at, key)) {
                return at;
            }
        }
        return -1;
    }

    private boolean rowHasKey(int at, long[] key) {
        for (int k = 0; k < key.length; k++) {
            if (keyCols[k][at] != key[k]) {
                return false;
            }
        }
        return true;
    }

    // ---- lookups (generated code inlines the single-key ones; composite keys call these) ----

    /** The first row with these keys, or -1. */
    public int find(long[] key) {
        if (perfect) {
            long k = key[0];
            return k < min || k > max ? -1 : first[(int) (k - min)] - 1;
        }
        long h = hashKey(key);
        if (ways > 0) {
            for (int i = 0; i < ways; i++) {
                int at = slotRows[Hashing.cuckoo(h, i, bits, murmur)];
                if (at >= 0 && rowHasKey(at, key)) {
                    return at;
                }
            }
            return findStash(key);
        }
        if (!inSpan(h)) {
            return -1;
        }
        int s = home(h);
        while (true) {
            int at = slotRows[s];
            if (at < 0) {
                return -1;
            }
            if (rowHasKey(at, key)) {
                return at;
            }
            s = (s + 1) & mask;
        }
    }

    /** The first row with this single key, or -1. */
    public int find1(long k) {
        if (perfect) {
            return k < min || k > max ? -1 : first[(int) (k - min)] - 1;
        }
        if (ways > 0) {
            for (int i = 0; i < ways; i++) {
                int s = Hashing.cuckoo(k, i, bits, murmur);
                if (slotRows[s] >= 0 && slotKeys[s] == k) {
                    return slotRows[s];
                }
            }
            return findStash1(k);
        }
        if (!inSpan(k)) {
            return -1;
        }
        for (int s = home(k); ; s = (s + 1) & mask) {
            int at = slotRows[s];
            if (at < 0 || slotKeys[s] == k) {
                return at;
            }
        }
    }

    public int find2(long k0, long k1) {
        long h = Hashing.combine(Hashing.combine(0, k0), k1);
        long[] c0 = keyCols[0];
        long[] c1 = keyCols[1];
        if (ways > 0) {
            for (int i = 0; i < ways; i++) {
                int at = slotRows[Hashing.cuckoo(h, i, bits, murmur)];
                if (at >= 0 && c0[at] == k0 && c1[at] == k1) {
                    return at;
                }
            }
            return stashSize == 0 ? -1 : findStash(new long[] {k0, k1});
        }
        int s = Hashing.hash(h, bits, murmur);
        while (true) {
            int at = slotRows[s];
            if (at < 0 || (c0[at] == k0 && c1[at] == k1)) {
                return at;
            }
            s = (s + 1) & mask;
        }
    }

    // ---- marks, and the scan of marked or unmarked rows ----

    private byte[] marks;

    /**
     * One byte per build row, 1 once a probe matched the row; made on first use (by the init of a pipeline that
     * marks or scans, on one thread). Probing workers only ever write 1, so racing writes agree, and a scan of the
     * marks runs in a later pipeline, after the marking pipeline's workers were joined, which makes their writes
     * visible to it.
     */
    public synchronized byte[] marks() {
        if (marks == null) {
            marks = new byte[Math.max(1, rows)];
        }
        return marks;
    }

    /**
     * The payload columns as a scan of the table's rows reads them, with the types and dictionaries of
     * {@code columns} (one per payload column).
     */
    public List<ColumnData> payloadColumns(List<ColumnInfo> columns, Function<String, Dictionary> dictionaries) {
        return new MatRelation(payload, columns).columnData(dictionaries);
    }
}
