package io.tessera.backend.jvm.join;

/**
 * A blocked Bloom filter over a join table's encoded keys, which a probing pipeline tests before its probes (the
 * {@code joinfilter=bloom} strategy): a key sets {@link #BITS_PER_KEY} bits inside one block of eight longs (a cache
 * line's 512 bits), so a test reads one block. It never says no for a key of the table; it says yes for about 3% of
 * the other keys at {@link #TARGET_BITS_PER_KEY} bits a key.
 *
 * <p>The key's hash is murmur's finalizer of the value the table's slot functions hash ({@code JoinTable.hashKey}:
 * the key, or the combined hash of several keys): its high bits pick the block, its low 36 bits the four bits
 * (3 bits for the word, 6 for the bit, each).
 */
public final class BloomFilter {

    /** Bits set per key, all in the key's block. */
    public static final int BITS_PER_KEY = 4;
    /** The filter's size per key (rounded up to a power of two of blocks). */
    static final int TARGET_BITS_PER_KEY = 8;
    /** Longs per block: 512 bits. */
    static final int BLOCK_LONGS = 8;
    /** Most bits of the block number: the hash's high 28 bits, disjoint from the 36 low ones the bits use. */
    static final int MAX_BLOCK_BITS = 28;

    /** The blocks, {@link #BLOCK_LONGS} longs each. */
    public final long[] words;
    /** log2 of the number of blocks; the block of hash h is {@code h >>> (64 - blockBits)} (0 when 0). */
    public final int blockBits;

    private BloomFilter(int blockBits) {
        this.blockBits = blockBits;
        this.words = new long[BLOCK_LONGS << blockBits];
    }

    /** The filter over rows {@code [0, rows)} of a table's encoded key columns. */
    static BloomFilter over(long[][] keyCols, int rows) {
        long bits = (long) rows * TARGET_BITS_PER_KEY;
        int blockBits = 0;
        while (blockBits < MAX_BLOCK_BITS && (512L << blockBits) < bits) {
            blockBits++;
        }
        BloomFilter f = new BloomFilter(blockBits);
        for (int r = 0; r < rows; r++) {
            f.add(mix(JoinTable.hashKey(keyCols, r)));
        }
        return f;
    }

    private void add(long h) {
        int base = block(h, blockBits);
        for (int i = 0; i < BITS_PER_KEY; i++) {
            int b = (int) (h >>> (9 * i));
            words[base + ((b >>> 6) & 7)] |= 1L << b;
        }
    }

    private static int block(long h, int blockBits) {
        return blockBits == 0 ? 0 : (int) (h >>> (64 - blockBits)) << 3;
    }

    /** Whether a key of hash {@code h} ({@link #mix} of the key's value) may be in the table: false only if it is not. */
    public static boolean mayContain(long[] words, int blockBits, long h) {
        int base = block(h, blockBits);
        int b0 = (int) h;
        int b1 = (int) (h >>> 9);
        int b2 = (int) (h >>> 18);
        int b3 = (int) (h >>> 27);
        return (words[base + ((b0 >>> 6) & 7)] & (1L << b0)) != 0
                && (words[base + ((b1 >>> 6) & 7)] & (1L << b1)) != 0
                && (words[base + ((b2 >>> 6) & 7)] & (1L << b2)) != 0
                && (words[base + ((b3 >>> 6) & 7)] & (1L << b3)) != 0;
    }

    /** murmur3's 64-bit finalizer: every bit of the key moves every bit of the hash. */
    public static long mix(long key) {
        long k = key;
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
