package io.tessera.backend.jvm.window;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.lib.Runtime;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.sort.Sorter;
import io.tessera.plan.SortKey;
import io.tessera.plan.WindowFunction;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

import java.math.BigInteger;

/**
 * COUNT, SUM, AVG, MIN and MAX over each row's frame. Counts come from prefix counts of the non-NULL values; sums,
 * minima and maxima from a segment tree over the positions of the window order (a frame is a range of positions,
 * or up to three where its EXCLUDE clause cuts it), so any frame costs O(log n). Integer and decimal sums are exact: where the tree's partial sums leave the 64-bit
 * range, the frame is summed again as a BigInteger and the result checked against the result type.
 */
final class WindowAggregates {

    private WindowAggregates() {
    }

    static void compute(WindowFunction fn, DataType argType, RowBuffer b, WindowOrder o, WindowFrames f, WindowValues out,
                        Runnable checkCancel) {
        int n = o.rows.length;
        int[] pieces = new int[6];
        if (fn.kind() == WindowFunction.Kind.COUNT_STAR) {
            for (int i = 0; i < n; i++) {
                int np = f.pieces(i, pieces);
                long cnt = 0;
                for (int p = 0; p < np; p++) {
                    cnt += pieces[2 * p + 1] - pieces[2 * p];
                }
                out.setLong(o.rows[i], cnt);
            }
            return;
        }
        int c = fn.arg();
        int[] counts = new int[n + 1];
        for (int i = 0; i < n; i++) {
            counts[i + 1] = counts[i] + (b.isNull(c, o.rows[i]) ? 0 : 1);
        }
        boolean minMax = fn.kind() == WindowFunction.Kind.MIN || fn.kind() == WindowFunction.Kind.MAX;
        boolean dbl = b.kinds[c] == ValueKind.DOUBLE;
        ArgTree extreme = minMax ? new ArgTree(b, o, c, fn.kind() == WindowFunction.Kind.MAX) : null;
        SumTree sums = !minMax && fn.kind() != WindowFunction.Kind.COUNT ? new SumTree(b, o, c) : null;
        for (int i = 0; i < n; i++) {
            if ((i & 4095) == 4095) {
                checkCancel.run();
            }
            int row = o.rows[i];
            // the frame as one to three ranges of positions (more than one where EXCLUDE cuts it)
            int np = f.pieces(i, pieces);
            long cnt = 0;
            for (int p = 0; p < np; p++) {
                cnt += counts[pieces[2 * p + 1]] - counts[pieces[2 * p]];
            }
            if (fn.kind() == WindowFunction.Kind.COUNT) {
                out.setLong(row, cnt);
                continue;
            }
            if (cnt == 0) {
                if (fn.kind() == WindowFunction.Kind.SUM0) {
                    out.setLong(row, 0);
                } else {
                    out.setNull(row);
                }
                continue;
            }
            switch (fn.kind()) {
                case MIN, MAX -> {
                    int best = -1;
                    for (int p = 0; p < np; p++) {
                        best = extreme.better(best, extreme.query(pieces[2 * p], pieces[2 * p + 1]));
                    }
                    out.copy(c, o.rows[best], row);
                }
                case SUM, SUM0 -> {
                    if (dbl) {
                        out.setDouble(row, doubleSum(sums, pieces, np));
                    } else {
                        out.setLong(row, checked(exactSum(sums, pieces, np), fn.type()));
                    }
                }
                case AVG -> {
                    double sum = dbl ? doubleSum(sums, pieces, np) : exactSum(sums, pieces, np).doubleValue();
                    double avg = sum / cnt;
                    out.setDouble(row, argType.kind() == TypeKind.DECIMAL ? avg / Math.pow(10, argType.scale()) : avg);
                }
                default -> throw new IllegalArgumentException(fn.kind() + " is not an aggregate");
            }
        }
    }

    private static double doubleSum(SumTree sums, int[] pieces, int np) {
        double s = 0;
        for (int p = 0; p < np; p++) {
            s += sums.doubleSum(pieces[2 * p], pieces[2 * p + 1]);
        }
        return s;
    }

    private static BigInteger exactSum(SumTree sums, int[] pieces, int np) {
        BigInteger s = sums.exactSum(pieces[0], pieces[1]);
        for (int p = 1; p < np; p++) {
            s = s.add(sums.exactSum(pieces[2 * p], pieces[2 * p + 1]));
        }
        return s;
    }

    /** A sum in its result type's range (BIGINT, or DECIMAL of at most 18 digits). */
    private static long checked(BigInteger v, DataType type) {
        boolean fits = v.bitLength() < 64
                && (type.kind() != TypeKind.DECIMAL || v.abs().compareTo(BigInteger.TEN.pow(type.precision())) < 0);
        if (!fits) {
            String text = type.kind() == TypeKind.DECIMAL ? new java.math.BigDecimal(v, type.scale()).toPlainString() : v.toString();
            throw Runtime.outOfRange(text, type.toString());
        }
        return v.longValueExact();
    }

    /** Sums over position ranges: a segment tree of longs (NULL as 0), or of doubles. */
    private static final class SumTree {
        private final int n;
        private final long[] longs;
        private final double[] doubles;
        private final long[] values;
        private boolean overflowed;

        SumTree(RowBuffer b, WindowOrder o, int c) {
            n = o.rows.length;
            if (b.kinds[c] == ValueKind.DOUBLE) {
                doubles = new double[2 * n];
                longs = null;
                values = null;
                for (int i = 0; i < n; i++) {
                    int r = o.rows[i];
                    doubles[n + i] = b.isNull(c, r) ? 0.0 : b.doubles[c][r];
                }
                for (int i = n - 1; i > 0; i--) {
                    doubles[i] = doubles[2 * i] + doubles[2 * i + 1];
                }
                return;
            }
            doubles = null;
            longs = new long[2 * n];
            values = new long[n];
            for (int i = 0; i < n; i++) {
                int r = o.rows[i];
                values[i] = b.isNull(c, r) ? 0 : b.kinds[c] == ValueKind.LONG ? b.longs[c][r] : b.ints[c][r];
                longs[n + i] = values[i];
            }
            try {
                for (int i = n - 1; i > 0; i--) {
                    longs[i] = Math.addExact(longs[2 * i], longs[2 * i + 1]);
                }
            } catch (ArithmeticException e) {
                overflowed = true;
            }
        }

        double doubleSum(int l, int r) {
            double s = 0;
            for (l += n, r += n; l < r; l >>= 1, r >>= 1) {
                if ((l & 1) != 0) {
                    s += doubles[l++];
                }
                if ((r & 1) != 0) {
                    s += doubles[--r];
                }
            }
            return s;
        }

        BigInteger exactSum(int l, int r) {
            if (!overflowed) {
                try {
                    long s = 0;
                    for (int a = l + n, z = r + n; a < z; a >>= 1, z >>= 1) {
                        if ((a & 1) != 0) {
                            s = Math.addExact(s, longs[a++]);
                        }
                        if ((z & 1) != 0) {
                            s = Math.addExact(s, longs[--z]);
                        }
                    }
                    return BigInteger.valueOf(s);
                } catch (ArithmeticException e) {
                    // partial sums left the 64-bit range: the frame summed exactly below
                }
            }
            BigInteger s = BigInteger.ZERO;
            for (int i = l; i < r; i++) {
                s = s.add(BigInteger.valueOf(values[i]));
            }
            return s;
        }
    }

    /**
     * The position of the smallest (or largest) non-NULL value of a position range: a segment tree of positions
     * (-1 for none), values compared as ORDER BY compares them (strings by code point, codes by their order).
     */
    private static final class ArgTree {
        private final int n;
        private final int[] tree;
        private final RowBuffer b;
        private final WindowOrder o;
        private final SortKey[] key;
        private final boolean max;

        ArgTree(RowBuffer b, WindowOrder o, int c, boolean max) {
            this.n = o.rows.length;
            this.b = b;
            this.o = o;
            this.key = new SortKey[] {new SortKey(c, false, false)};
            this.max = max;
            tree = new int[2 * n];
            for (int i = 0; i < n; i++) {
                tree[n + i] = b.isNull(c, o.rows[i]) ? -1 : i;
            }
            for (int i = n - 1; i > 0; i--) {
                tree[i] = better(tree[2 * i], tree[2 * i + 1]);
            }
        }

        /** Of two positions (-1 for none), the one whose value comes first (last for MAX); a tie keeps x. */
        int better(int x, int y) {
            if (x < 0) {
                return y;
            }
            if (y < 0) {
                return x;
            }
            int cmp = Sorter.compare(b, key, o.rows[x], o.rows[y]);
            return (max ? cmp >= 0 : cmp <= 0) ? x : y;
        }

        int query(int l, int r) {
            int best = -1;
            for (l += n, r += n; l < r; l >>= 1, r >>= 1) {
                if ((l & 1) != 0) {
                    best = better(best, tree[l++]);
                }
                if ((r & 1) != 0) {
                    best = better(best, tree[--r]);
                }
            }
            return best;
        }
    }
}
