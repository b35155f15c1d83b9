package io.tessera.backend.jvm.window;

import io.tessera.plan.WindowFunction;

/**
 * The functions of a row's place in its partition: ROW_NUMBER, RANK (1 + the rows before its peers), DENSE_RANK
 * (1 + the peer groups before it), PERCENT_RANK ((rank - 1) / (rows - 1), 0 for one row), CUME_DIST (the rows up to
 * its last peer / rows) and NTILE(n) (buckets 1..n whose sizes differ by at most one, the larger first).
 */
final class WindowRanks {

    private WindowRanks() {
    }

    static void compute(WindowFunction fn, WindowOrder o, WindowValues out) {
        long dense = 0;
        for (int i = 0; i < o.rows.length; i++) {
            int ps = o.partStart[i];
            long n = o.partEnd[i] - ps;
            long at = i - ps;
            if (i == ps) {
                dense = 0;
            }
            if (i == o.peerStart[i]) {
                dense++;
            }
            int row = o.rows[i];
            long rank = o.peerStart[i] - ps + 1;
            switch (fn.kind()) {
                case ROW_NUMBER -> out.setLong(row, at + 1);
                case RANK -> out.setLong(row, rank);
                case DENSE_RANK -> out.setLong(row, dense);
                case PERCENT_RANK -> out.setDouble(row, n <= 1 ? 0.0 : (double) (rank - 1) / (n - 1));
                case CUME_DIST -> out.setDouble(row, (double) (o.peerEnd[i] - ps) / n);
                case NTILE -> out.setLong(row, ntile(at, n, fn.offset()));
                default -> throw new IllegalArgumentException(fn.kind() + " is not a ranking function");
            }
        }
    }

    /** The bucket (1-based) of position {@code at} of {@code n} rows in {@code buckets} buckets. */
    static long ntile(long at, long n, long buckets) {
        long size = n / buckets;
        long larger = n % buckets; // the first buckets hold one row more
        long inLarger = larger * (size + 1);
        return at < inLarger ? at / (size + 1) + 1 : larger + (at - inLarger) / size + 1;
    }
}
