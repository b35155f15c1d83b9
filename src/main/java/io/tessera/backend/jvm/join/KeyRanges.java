package io.tessera.backend.jvm.join;

/**
 * The smallest and largest encoded value of each key column of a join table's rows, which a probing pipeline
 * compares its keys with before its probes (the {@code joinfilter} strategies range and bloom): a key outside
 * them matches no row. A table without rows has {@code min > max}, so every key is outside.
 */
public record KeyRanges(long[] min, long[] max) {

    static KeyRanges over(long[][] keyCols, int rows) {
        long[] min = new long[keyCols.length];
        long[] max = new long[keyCols.length];
        for (int k = 0; k < keyCols.length; k++) {
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            long[] col = keyCols[k];
            for (int r = 0; r < rows; r++) {
                long v = col[r];
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            min[k] = lo;
            max[k] = hi;
        }
        return new KeyRanges(min, max);
    }
}
