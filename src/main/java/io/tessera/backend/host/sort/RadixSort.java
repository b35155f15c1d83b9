package io.tessera.backend.host.sort;

import java.util.Arrays;

/**
 * Least-significant-digit radix sorts of 64-bit keys, a byte per pass, in unsigned order: a pass over a byte that
 * every key of the range holds alike is skipped (the keys of a sort are offsets from the smallest value in as few
 * bits as the range needs, so most of their bytes are). Each pass is stable, so the whole sort is.
 */
final class RadixSort {

    /** Below this many keys a comparison sort is quicker than the passes. */
    private static final int SMALL = 256;

    private RadixSort() {
    }

    /** Sorts {@code a[from, to)} of non-negative longs ({@code tmp} at least as long as a). */
    static void sort(long[] a, long[] tmp, int from, int to, Runnable checkCancel) {
        if (to - from < SMALL) {
            Arrays.sort(a, from, to);
            return;
        }
        long[] src = a;
        long[] dst = tmp;
        int[] count = new int[257];
        for (int shift : varyingBytes(a, from, to)) {
            checkCancel.run(); // before each pass over the rows
            Arrays.fill(count, 0);
            for (int i = from; i < to; i++) {
                count[(int) (src[i] >>> shift & 0xFF) + 1]++;
            }
            for (int d = 0; d < 256; d++) {
                count[d + 1] += count[d];
            }
            for (int i = from; i < to; i++) {
                long v = src[i];
                dst[from + count[(int) (v >>> shift & 0xFF)]++] = v;
            }
            long[] t = src;
            src = dst;
            dst = t;
        }
        if (src != a) {
            System.arraycopy(src, from, a, from, to - from);
        }
    }

    /**
     * Sorts the pairs {@code (keys[i], values[i])} of {@code [from, to)} by key, unsigned, keeping the order of
     * equal keys ({@code tmpKeys} and {@code tmpValues} at least as long as the arrays).
     */
    static void sort(long[] keys, int[] values, long[] tmpKeys, int[] tmpValues, int from, int to,
                     Runnable checkCancel) {
        long[] srcK = keys;
        long[] dstK = tmpKeys;
        int[] srcV = values;
        int[] dstV = tmpValues;
        int[] count = new int[257];
        for (int shift : varyingBytes(keys, from, to)) {
            checkCancel.run(); // before each pass over the rows
            Arrays.fill(count, 0);
            for (int i = from; i < to; i++) {
                count[(int) (srcK[i] >>> shift & 0xFF) + 1]++;
            }
            for (int d = 0; d < 256; d++) {
                count[d + 1] += count[d];
            }
            for (int i = from; i < to; i++) {
                long k = srcK[i];
                int at = from + count[(int) (k >>> shift & 0xFF)]++;
                dstK[at] = k;
                dstV[at] = srcV[i];
            }
            long[] tk = srcK;
            srcK = dstK;
            dstK = tk;
            int[] tv = srcV;
            srcV = dstV;
            dstV = tv;
        }
        if (srcK != keys) {
            System.arraycopy(srcK, from, keys, from, to - from);
            System.arraycopy(srcV, from, values, from, to - from);
        }
    }

    /** The shifts of the bytes, lowest first, in which some keys of the range differ. */
    static int[] varyingBytes(long[] a, int from, int to) {
        long or = 0;
        long and = -1L;
        for (int i = from; i < to; i++) {
            or |= a[i];
            and &= a[i];
        }
        long differ = or ^ and;
        int[] shifts = new int[8];
        int n = 0;
        for (int shift = 0; shift < 64; shift += 8) {
            if ((differ >>> shift & 0xFF) != 0) {
                shifts[n++] = shift;
            }
        }
        return Arrays.copyOf(shifts, n);
    }
}
