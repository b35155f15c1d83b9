package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.util.zip.CRC32C;

/**
 * The CRC-32C of a large segment on all cores: the CRC of each piece computed on its own, then the pieces' CRCs
 * joined in order. Joining uses that a CRC is the remainder of a polynomial division: the CRC of {@code A} followed
 * by {@code n} bytes {@code B} is the CRC of {@code A} multiplied by {@code x^(8n)} modulo the CRC's polynomial, plus
 * (xor) the CRC of {@code B}; the initial and final inversions of CRC-32C cancel out in that sum. Values are the
 * same as one {@link CRC32C} over the whole.
 */
final class Crc32cParts {

    /** CRC-32C's polynomial, bit-reversed (the form in which the lowest bit is the highest power). */
    private static final int POLY = 0x82F63B78;
    /** Pieces at least this large: below it a segment is one piece. */
    private static final long PIECE = 16L << 20;
    /** X_POW[k] is x^(2^k) modulo the polynomial, in bit-reversed form. */
    private static final int[] X_POW = new int[64];

    static {
        X_POW[0] = 1 << 30; // x^1: bit 31 is x^0
        for (int k = 1; k < X_POW.length; k++) {
            X_POW[k] = multiply(X_POW[k - 1], X_POW[k - 1]);
        }
    }

    private Crc32cParts() {
    }

    /** The CRC-32C of {@code seg}'s bytes. */
    static long of(MemorySegment seg) {
        long size = seg.byteSize();
        int pieces = (int) Math.max(1, Math.min(size / PIECE, 4096));
        if (pieces == 1) {
            return serial(seg);
        }
        long[] crc = new long[pieces];
        ClaimedTasks.run(java.util.stream.IntStream.range(0, pieces).toArray(), p -> {
            long from = size * p / pieces;
            crc[p] = serial(seg.asSlice(from, size * (p + 1) / pieces - from));
        });
        long all = crc[0];
        for (int p = 1; p < pieces; p++) {
            all = join(all, crc[p], size * (p + 1) / pieces - size * p / pieces);
        }
        return all;
    }

    private static long serial(MemorySegment seg) {
        CRC32C crc = new CRC32C();
        long size = seg.byteSize();
        final long chunk = 1L << 30;
        for (long off = 0; off < size; off += chunk) {
            crc.update(seg.asSlice(off, Math.min(chunk, size - off)).asByteBuffer());
        }
        return crc.getValue();
    }

    /** The CRC-32C of bytes whose first part has CRC {@code a} and whose last {@code n} bytes have CRC {@code b}. */
    static long join(long a, long b, long n) {
        return (Integer.toUnsignedLong(multiply((int) a, xPow8(n))) ^ b) & 0xffffffffL;
    }

    /** x^(8n) modulo the polynomial: the product of x^(2^k) over the bits k of 8n. */
    private static int xPow8(long n) {
        int p = 1 << 31; // x^0
        for (int k = 3; n != 0; n >>>= 1, k++) {
            if ((n & 1) != 0) {
                p = multiply(p, X_POW[k]);
            }
        }
        return p;
    }

    /** The product of two polynomials modulo CRC-32C's, both and the result bit-reversed. */
    private static int multiply(int a, int b) {
        int product = 0;
        for (int bit = 31; bit >= 0; bit--) {
            if ((a & (1 << bit)) != 0) {
                product ^= b;
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1; // b times x
        }
        return product;
    }
}
