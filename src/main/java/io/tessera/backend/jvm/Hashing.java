package io.tessera.backend.jvm;

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
