package io.tessera.backend.cuda.gen;

import io.tessera.plan.KeyRange;

import java.util.List;
import java.util.Locale;

/**
 * How the device table of one join is laid out, decided by the BUILD kernel and read by the probes: {@code kind}
 * (the genome's {@code ht}) perfect over {@code [min, min + slots)}, linear probing, or cuckoo with 2 to 4 hash
 * functions, the hashed kinds with the murmur or multiply-shift hash; keys of {@code keyType}; one array per payload
 * column ({@code payloadTypes}), indexed by slot. {@code payloadDicts}: the dictionary key of each VARCHAR payload
 * column (else null). {@code selectivity}: the estimated fraction of the build table's rows in the table, which is
 * the fraction of probes that find a match when the join follows a foreign key. {@code payloadRanges}: per payload
 * column, the range it is stored over as an unsigned offset from the range's minimum (pay=narrow), one byte for up to
 * 256 values and two for up to 2^16, or null where the column is stored as its type. {@code chained}: the build's
 * keys may repeat, so the table keeps rows rather than one entry per key ({@link ChainedRows}): its slots (one per
 * distinct key, as the kind places keys) hold the first of the key's rows, each row the next one, and the payload
 * arrays are indexed by row; in a sorted table the rows of a key are a range of the sorted keys. {@code
 * nullFlags}: a table whose payload can be NULL (a table's column that holds NULLs, a scalar subquery's value over
 * no rows): after the {@link #columns} payload columns of the plan come as many BOOLEAN columns, column {@code c}'s
 * NULL flag at {@link #nullFlag}{@code (c)}.
 */
public record JoinLayout(int joinId, Kind kind, boolean murmur, CType keyType, List<CType> payloadTypes,
                         List<String> payloadDicts, List<KeyRange> payloadRanges, long min, long perfectSlots,
                         double selectivity, boolean chained, boolean nullFlags) {

    /**
     * The table kinds, by genome value: perfect, linear, cuckoo2, cuckoo3, cuckoo4, and the sorted tables
     * sorted-binary and sorted-pary ({@link SortedJoinTable}: the build's keys sorted on the device, each probe a
     * binary search, or a p-ary search over an index of cache lines).
     */
    public enum Kind {
        PERFECT(0), LINEAR(0), CUCKOO2(2), CUCKOO3(3), CUCKOO4(4), SORTED_BINARY(0), SORTED_PARY(0);

        /** The hash functions of a cuckoo table; 0 for the others. */
        public final int ways;

        Kind(int ways) {
            this.ways = ways;
        }

        public boolean cuckoo() {
            return ways > 0;
        }

        /** Whether the table is the build's keys sorted, searched by the probes: no slots, no hash. */
        public boolean sorted() {
            return this == SORTED_BINARY || this == SORTED_PARY;
        }

        /** The genome value ({@code ht}). */
        public String value() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Kind of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    /** The payload columns of the plan's BUILD (without the NULL flags after them). */
    public int columns() {
        return nullFlags ? payloadTypes.size() / 2 : payloadTypes.size();
    }

    /** The column that holds payload column {@code c}'s NULL flag (only where {@link #nullFlags}). */
    public int nullFlag(int c) {
        return columns() + c;
    }

    /** The bytes one slot of payload column {@code c} takes in device memory. */
    public int payloadBytes(int c) {
        KeyRange r = payloadRanges.get(c);
        if (r == null) {
            return payloadTypes.get(c).bytes;
        }
        return r.size() <= 256 ? 1 : 2;
    }

    /** The element type of payload column {@code c}'s array in device memory. */
    public String payloadMemory(int c) {
        if (payloadRanges.get(c) == null) {
            return payloadTypes.get(c).memory();
        }
        return payloadBytes(c) == 1 ? "unsigned char" : "unsigned short";
    }

    public boolean perfect() {
        return kind == Kind.PERFECT;
    }

    /** Whether the table is sorted keys ({@link SortedJoinTable}); its payload arrays are indexed by place. */
    public boolean sorted() {
        return kind.sorted();
    }

    /** The empty-slot marker of the key array. */
    public long emptyKey() {
        return keyType == CType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
    }

    public String hashStruct() {
        return murmur ? "tessera::HashMurmur" : "tessera::HashMultiplyShift";
    }

    /** Slots of a hashed table for {@code rows} build rows: a quarter full at most with two cuckoo functions, else half. */
    public long hashedSlots(long rows) {
        long want = Math.max(2, (kind == Kind.CUCKOO2 ? 4 : 2) * Math.max(1, rows));
        return Long.highestOneBit(want - 1) << 1;
    }

    /** What the generated code says about the table. */
    public String describe() {
        String hash = murmur ? "murmur" : "multiply-shift";
        String what = switch (kind) {
            case PERFECT -> "perfect table";
            case LINEAR -> "linear probing, " + hash;
            case SORTED_BINARY -> "sorted keys, binary search";
            case SORTED_PARY -> "sorted keys, p-ary search over an index of lines";
            default -> "cuckoo, " + kind.ways + " " + hash + " functions";
        };
        if (sorted()) {
            return chained ? what + ", each key's rows a range" : what;
        }
        return chained ? what + ", each key's rows chained" : what;
    }
}
