package io.tessera.backend.jvm.lib;

/** The hash functions a genome can pick for hash tables. */
public final class Hashing {
    private Hashing() {
    }

    /** Fibonacci multiply-shift: the high bits of key times 2^64/phi. */
    public static int multiplyShift(long key, int bits) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - bits));
    }

    /** murmur3's 64-bit finalizer, then the high bits. */
    public static int murmur(long key, int bits) {
        long k = key;
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return (int) (k >>> (64 - bits));
    }

    public static int hash(long key, int bits, boolean murmur) {
        return murmur ? murmur(key, bits) : multiplyShift(key, bits);
    }

    /**
     * The scale that maps a key's offset in a span of keys, {@code [0, span]} with {@code span < 2^32}, to one of
     * {@code 2^bits} slots in the keys' order: {@link #ranged}. Where the span has fewer keys than there are slots
     * each offset is its own slot.
     */
    public static long rangeScale(long span, int bits) {
        return Math.min(1L << 32, (1L << (bits + 32)) / (span + 1));
    }

    /** The slot of a key's offset in its span, scaled by {@link #rangeScale}: less than 2^bits. */
    public static int ranged(long offset, long scale) {
        return (int) ((offset * scale) >>> 32);
    }

    /** Odd multipliers of the multiply-shift functions of a cuckoo table; the first is {@link #multiplyShift}'s. */
    private static final long[] CUCKOO_MULTIPLIERS = {
            0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L, 0xD6E8FEB86659FD93L};
    /** Salts of the murmur functions of a cuckoo table; the first leaves {@link #murmur} as it is. */
    private static final long[] CUCKOO_SALTS = {0L, 0x5851F42D4C957F2DL, 0x14057B7EF767814FL, 0x2545F4914F6CDD1DL};

    /** The most hash functions a cuckoo table uses. */
    public static final int MAX_CUCKOO_FUNCTIONS = CUCKOO_MULTIPLIERS.length;

    /**
     * Hash function {@code fn} (0 .. {@link #MAX_CUCKOO_FUNCTIONS} - 1) of a cuckoo table's family: multiply-shift
     * with the fn-th multiplier, or murmur's finalizer of the key xor the fn-th salt. Function 0 is {@link #hash}.
     */
    public static int cuckoo(long key, int fn, int bits, boolean murmur) {
        return murmur ? murmur(key ^ CUCKOO_SALTS[fn], bits) : (int) ((key * CUCKOO_MULTIPLIERS[fn]) >>> (64 - bits));
    }

    /**
     * {@code bits} bits of a key for spreading it over partitions or lock stripes: the low bits of murmur's
     * finalizer, independent of the high bits that the tables inside a partition or stripe use.
     */
    public static int spread(long key, int bits) {
        long k = key;
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return (int) (k & ((1L << bits) - 1));
    }

    /** Combines column hashes of a composite key. */
    public static long combine(long h, long k) {
        return (h ^ k) * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
    }

    /** Doubles as hash keys: -0.0 equals 0.0, and every NaN is the same key. */
    public static long doubleKey(double d) {
        return d == 0.0 ? 0L : Double.doubleToLongBits(d);
    }

    public static int bitsFor(long entries) {
        int bits = 4;
        while ((1L << bits) < entries * 2 && bits < 30) {
            bits++;
        }
        return bits;
    }
}
