package io.tessera.backend.cuda.gen;

/**
 * One parameter of a generated kernel, in order, and what the executor binds to it: {@code index} is the source
 * column, join id, aggregate, output column or constant it belongs to (-1 when none), {@code sub} the payload column
 * of a join (-1 when none), {@code value} a constant's value (a {@code Long} for {@code const long long} and
 * {@code const int}, a {@code Double} for {@code const double}; null for every other kind).
 */
public record KernelParam(Kind kind, int index, int sub, String name, String cType, Object value) {

    public KernelParam(Kind kind, int index, int sub, String name, String cType) {
        this(kind, index, sub, name, cType, null);
    }

    public KernelParam(Kind kind, int index, String name, String cType) {
        this(kind, index, -1, name, cType, null);
    }

    /** Constant {@code index} of the query: a literal, or a dictionary code or bound computed from one. */
    public static KernelParam constant(int index, String cType, Object value) {
        return new KernelParam(Kind.CONSTANT, index, -1, "k" + index, cType, value);
    }

    /**
     * A {@link Kind#CODE_MASK}'s bits, 32 codes a word: compared, hashed and printed by content, so that two kernels
     * with equal masks have equal parameter lists (and source hashes that do not depend on where the array lies).
     */
    public record Words(int[] words) {
        /**
         * The content hash of each array hashed so far, by identity: a mask's or map's array is made once per
         * dictionary and expression and never changed, and a map of millions of codes is looked up at every launch.
         */
        private static final java.util.Map<int[], Integer> HASHES =
                java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

        @Override
        public boolean equals(Object o) {
            return o instanceof Words w && (words == w.words || hashCode() == w.hashCode() && java.util.Arrays.equals(words, w.words));
        }

        @Override
        public int hashCode() {
            return HASHES.computeIfAbsent(words, java.util.Arrays::hashCode);
        }

        @Override
        public String toString() {
            return "words[" + words.length + "]#" + Integer.toHexString(hashCode());
        }
    }

    /**
     * A {@link Kind#CODE_MAP}'s array, the result's code per code of a column ({@link MappedCodes}), with the key
     * and the dictionary of the results, which the executor registers for the run: compared and hashed by codes and
     * key, printed by the codes alone (the key holds the query's constants).
     */
    public record Codes(Words codes, String dictionaryKey, io.tessera.storage.Dictionary results) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Codes c && codes.equals(c.codes) && dictionaryKey.equals(c.dictionaryKey);
        }

        @Override
        public int hashCode() {
            return codes.hashCode() * 31 + dictionaryKey.hashCode();
        }

        @Override
        public String toString() {
            return "codes[" + codes.words().length + "]#" + Integer.toHexString(codes.hashCode());
        }
    }

    /** The array a {@link Kind#CODE_MASK} or {@link Kind#CODE_MAP} parameter copies to the device. */
    public Words words() {
        return switch (kind) {
            case CODE_MASK -> (Words) value;
            case CODE_MAP -> ((Codes) value).codes();
            default -> throw new IllegalStateException(kind + " is no array of codes");
        };
    }

    public enum Kind {
        /** long long: rows of the source. */
        ROWS,
        /** const T*: a source column, in device memory. */
        COLUMN,
        /**
         * const unsigned char*: the NULL flags of source column {@code index} of a scanned relation (1: NULL), one per
         * row, beside its {@link #COLUMN}.
         */
        COLUMN_NULLS,
        /** const K*: the keys of join {@code index}'s table (probe side). */
        PROBE_KEYS,
        /** const T*: payload column {@code sub} of join {@code index}'s table. */
        PROBE_PAYLOAD,
        /** long long: the smallest key of a perfect table / its slots; int: log2 of a linear table's slots. */
        PROBE_MIN, PROBE_SLOTS, PROBE_LOG2,
        /**
         * unsigned int*: one mark per slot of join {@code index}'s device table, set by the probes that mark the rows
         * they match (zeroed before the first of them runs).
         */
        PROBE_MARKS,
        /**
         * The device table of join {@code index} that a scan of its marked or unmarked rows reads, slot by slot (the
         * launch's rows are the table's slots): its keys (a perfect table's presence bits), which say which slots
         * hold a row; payload column {@code sub}; its marks.
         */
        SCAN_KEYS, SCAN_PAYLOAD, SCAN_MARKS,
        /**
         * A chained table's (keys that may repeat) first row per slot and next row per row, long long* (a BUILD's,
         * then a probe's of join {@code index}), and the rows it can hold, long long (a probe's bound on a chain).
         */
        BUILD_HEADS, BUILD_NEXT, PROBE_HEADS, PROBE_NEXT, PROBE_ROWS,
        /**
         * A sorted join table's ({@link SortedJoinTable}) probe of join {@code index}: the place in the build's output
         * of each sorted key (const long long*; the keys themselves are its {@link #PROBE_KEYS}, their number its
         * {@link #PROBE_ROWS}), and under ht=sorted-pary the index of lines over the keys (const unsigned long long*)
         * and its levels (int).
         */
        PROBE_ORDER, PROBE_INDEX, PROBE_LEVELS,
        /**
         * A chained table built by a pipeline whose probe takes several matches per row ({@link
         * SinkLayout.Build#expanded}): the counter that hands out its rows' places (unsigned long long*, zeroed; it
         * ends as the rows the pipeline made, however many places there were), and the places it has (const long long).
         */
        BUILD_CURSOR, BUILD_ROWS,
        /** const long long*: a scanned chained table's next row per row ({@link #SCAN_KEYS} for it). */
        SCAN_NEXT,
        /**
         * The device group table of the aggregation whose groups the kernel scans (the launch's rows are its slots):
         * rows per slot (const unsigned long long*), agg=shared's slot states (const int*) and key words (const long
         * long*, keyWidth per slot), the value of aggregate {@code index} per slot (const long long* or double*).
         */
        SCAN_GROUP_ROWS, SCAN_GROUP_STATE, SCAN_GROUP_KEYS, SCAN_GROUP_VALUE,
        /** K*, T*, long long, long long, int: the table a BUILD sink fills. */
        BUILD_KEYS, BUILD_PAYLOAD, BUILD_MIN, BUILD_SLOTS, BUILD_LOG2,
        /** unsigned long long*: rows per group (or the single group of AGGREGATE). */
        GROUP_ROWS,
        /** long long* or double*: the value of aggregate {@code index} per group. */
        AGG_VALUE,
        /** unsigned long long*: the count of aggregate {@code index} per group (aggregates with a FILTER clause). */
        AGG_COUNT,
        /** long long*, int*, int: keys, slot states and log2 size of an agg=shared hash table. */
        GROUP_KEYS, GROUP_STATE, GROUP_LOG2,
        /** T*: output column {@code index} of MATERIALIZE / SORT. */
        OUT_COLUMN,
        /** unsigned char*: the NULL flags of output column {@code index} of MATERIALIZE / SORT (1: NULL). */
        OUT_NULLS,
        /** unsigned long long*: rows written so far by MATERIALIZE / SORT. */
        OUT_CURSOR,
        /**
         * int: which launch of a kernel of two passes this is, 0 or 1 (a cuckoo BUILD with payload: keys, then
         * payload; MATERIALIZE / SORT with mat=twopass or mat=bitmap: counts, then rows).
         */
        PASS,
        /**
         * unsigned long long*: one word per tile and one more (mat=twopass, mat=bitmap): pass 0 writes each tile's
         * selected rows (tile number base / TILE, also under a persistent grid), the executor turns them into their
         * exclusive prefix sums and the total, pass 1 reads its tile's offset.
         */
        TILE_ROWS,
        /** unsigned int*: the selection bitmap of mat=bitmap, one bit per item of each tile, 32 per word. */
        SEL_BITS,
        /**
         * const unsigned int*: a condition over one dictionary column computed on the host for every code, one bit
         * per code ({@link Words}, the value), copied to the device for the launch.
         */
        CODE_MASK,
        /**
         * const int*: a string function of one dictionary column computed on the host, the code of its result per
         * code of the column ({@link Codes}, the value), copied to the device for the launch.
         */
        CODE_MAP,
        /** int*: the error bits the kernel raised. */
        ERROR,
        /**
         * const long long, const int or const double: a constant of the query, passed by value so that no constant
         * is part of the source and queries that differ only in their constants share one compiled kernel.
         */
        CONSTANT
    }
}
