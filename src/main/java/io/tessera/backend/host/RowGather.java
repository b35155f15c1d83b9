package io.tessera.backend.host;

/**
 * Rows of a buffer copied into a new buffer in a given order (a sort's result, a LIMIT's slice), column by column
 * in chunks of output rows on the workers; each chunk starts at a multiple of 64 rows, so that chunks set bits of
 * disjoint words of the NULL bitmaps, which are made before the chunks run.
 */
public final class RowGather {

    private RowGather() {
    }

    /** Rows {@code order[from .. to)} of {@code b}, in that order. */
    public static RowBuffer gather(RowBuffer b, int[] order, int from, int to, HostWorkers w) {
        int n = Math.max(0, to - from);
        RowBuffer out = new RowBuffer(b.kinds.clone(), n);
        out.size = n;
        for (int c = 0; c < b.kinds.length; c++) {
            if (b.nulls[c] != null) {
                out.nulls[c] = new long[(Math.max(16, n) + 63) >>> 6];
            }
        }
        w.chunks(n, 16384, (lo, hi) -> {
            for (int c = 0; c < b.kinds.length; c++) {
                copy(b, out, c, order, from, lo, hi);
            }
        });
        return out;
    }

    /** Column c of output rows {@code [lo, hi)}: input rows {@code order[from + lo ..]}. */
    private static void copy(RowBuffer b, RowBuffer out, int c, int[] order, int from, int lo, int hi) {
        switch (b.kinds[c]) {
            case INT, CODE -> {
                int[] src = b.ints[c];
                int[] dst = out.ints[c];
                for (int i = lo; i < hi; i++) {
                    dst[i] = src[order[from + i]];
                }
            }
            case LONG -> {
                long[] src = b.longs[c];
                long[] dst = out.longs[c];
                for (int i = lo; i < hi; i++) {
                    dst[i] = src[order[from + i]];
                }
            }
            case DOUBLE -> {
                double[] src = b.doubles[c];
                double[] dst = out.doubles[c];
                for (int i = lo; i < hi; i++) {
                    dst[i] = src[order[from + i]];
                }
            }
            case BOOL -> {
                byte[] src = b.bytes[c];
                byte[] dst = out.bytes[c];
                for (int i = lo; i < hi; i++) {
                    dst[i] = src[order[from + i]];
                }
            }
            case STRING -> {
                String[] src = b.strings[c];
                String[] dst = out.strings[c];
                for (int i = lo; i < hi; i++) {
                    dst[i] = src[order[from + i]];
                }
            }
        }
        long[] nulls = out.nulls[c];
        if (nulls != null) {
            for (int i = lo; i < hi; i++) {
                if (b.isNull(c, order[from + i])) {
                    nulls[i >>> 6] |= 1L << i;
                }
            }
        }
    }
}
