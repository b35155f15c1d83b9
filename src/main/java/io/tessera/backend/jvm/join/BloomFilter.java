package io.tessera.backend.jvm.join;

import io.tessera.backend.host.HostWorkers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A blocked Bloom filter over a join table's encoded keys, which a probing pipeline tests before its probes (the
 * {@code joinfilter=bloom} strategy): a key sets {@link #BITS_PER_KEY} bits inside one block of eight longs (a cache
 * line's 512 bits), so a test reads one block. It never says no for a key of the table; at
 * {@link #TARGET_BITS_PER_KEY} bits a key it says yes for about 1.3% of the other keys (BloomFilterTest measures it;
 * at 8 bits a key it was 2.5%, and a fifth bit a key gains less than two more bits a key do).
 *
 * <p>The key's hash is murmur's finalizer of the value the table's slot functions hash ({@code JoinTable.hashKey}:
 * the key, or the combined hash of several keys): its high 32 bits pick the block (multiplied by the number of
 * blocks and shifted, so any number of blocks is uniform and the filter need not round up to a power of two), its
 * low 36 bits the four bits (3 bits for the word, 6 for the bit, each).
 *
 * <p>A large table's filter is made by all the workers the table was built with, each over a chunk of its rows, setting
 * bits with an atomic OR (two chunks' keys may share a word); bits are only ever set, so the filter is the same as one
 * made on one thread.
 */
public final class BloomFilter {

    /** Bits set per key, all in the key's block. */
    public static final int BITS_PER_KEY = 4;
    /** The filter's size per key (rounded up to whole blocks). */
    static final int TARGET_BITS_PER_KEY = 10;
    /** Longs per block: 512 bits. */
    static final int BLOCK_LONGS = 8;
    /** Most blocks: the words fit one array. */
    static final int MAX_BLOCKS = (Integer.MAX_VALUE - 8) / BLOCK_LONGS;

    /** The blocks, {@link #BLOCK_LONGS} longs each. */
    public final long[] words;
    /** The number of blocks; the block of hash h is {@code ((h >>> 32) * blocks) >>> 32}. */
    public final int blocks;

    private BloomFilter(int blocks) {
        this.blocks = blocks;
        this.words = new long[BLOCK_LONGS * blocks];
    }

    /** Fewest rows whose filter is made on several threads: fewer are hashed in less time than the tasks take. */
    static final int MIN_PARALLEL_ROWS = 1 << 16;

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    /** The filter over rows {@code [0, rows)} of a table's encoded key columns, on the calling thread. */
    static BloomFilter over(long[][] keyCols, int rows) {
        return over(keyCols, rows, HostWorkers.ONE);
    }

    /** As above, on {@code workers} where there are many rows (a chunk of rows per task). */
    static BloomFilter over(long[][] keyCols, int rows, HostWorkers workers) {
        long bits = (long) rows * TARGET_BITS_PER_KEY;
        BloomFilter f = new BloomFilter((int) Math.clamp((bits + 511) / 512, 1, MAX_BLOCKS));
        if (workers.threads() == 1 || rows < MIN_PARALLEL_ROWS) {
            for (int r = 0; r < rows; r++) {
                f.add(mix(JoinTable.hashKey(keyCols, r)));
            }
        } else {
            workers.chunks(rows, MIN_PARALLEL_ROWS / 4, (from, to) -> {
                for (int r = from; r < to; r++) {
                    f.addShared(mix(JoinTable.hashKey(keyCols, r)));
                }
            });
        }
        return f;
    }

    private void add(long h) {
        int base = block(h, blocks);
        for (int i = 0; i < BITS_PER_KEY; i++) {
            int b = (int) (h >>> (9 * i));
            words[base + ((b >>> 6) & 7)] |= 1L << b;
        }
    }

    /** {@link #add} while other threads add too: a bit not yet seen set is set by an atomic OR. */
    private void addShared(long h) {
        int base = block(h, blocks);
        for (int i = 0; i < BITS_PER_KEY; i++) {
            int b = (int) (h >>> (9 * i));
            int w = base + ((b >>> 6) & 7);
            long bit = 1L << b;
            if ((words[w] & bit) == 0) {
                WORDS.getAndBitwiseOr(words, w, bit);
            }
        }
    }

    /** The first word of hash h's block. */
    private static int block(long h, int blocks) {
        return (int) (((h >>> 32) * blocks) >>> 32) << 3;
    }

    /** Whether a key of hash {@code h} ({@link #mix} of the key's value) may be in the table: false only if it is not. */
    public static boolean mayContain(long[] words, int blocks, long h) {
        int base = block(h, blocks);
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
