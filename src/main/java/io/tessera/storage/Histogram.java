package io.tessera.storage;

import java.util.List;
import java.util.Objects;

/**
 * An equi-depth histogram of a column's non-null values and its most common values, kept with the column's
 * statistics ({@link ColumnStats#histogram}) so that the planner can estimate how many rows a filter keeps.
 * {@link HistogramBuilder} makes it from the column's data whenever a table is written.
 *
 * <p>Values are raw, as {@link ColumnStats} has them: Long for INTEGER, BIGINT, SMALLINT, TINYINT, DECIMAL (unscaled),
 * DATE (days since 1970-01-01) and BOOLEAN (0 or 1); Double for DOUBLE, ordered as {@link Double#compare} orders
 * them (-0.0 equal to 0.0, NaN above +Infinity); String for VARCHAR, ordered by code point ({@link CodePointOrder}).
 *
 * <p>Buckets: bucket 0 holds the values from {@code lower} (the column's least value) up to its {@code upper},
 * both included; bucket i &gt; 0 the values above bucket i-1's upper bound up to its own, included. The buckets hold
 * about equal numbers of rows, at most 64 of them; a value never straddles two, so a frequent value may fill a bucket
 * of its own, and a column with at most 64 distinct values has one bucket per value. Each bucket has its rows and
 * its distinct values (exact or estimated, see {@link #exact}). Every bound is a value of the column, except that a
 * VARCHAR bound longer than 64 code points is cut to its first 64: a prefix sorts at or before the whole string, so
 * the bounds stay in order, and the values between the prefix and the whole bound are taken for the next bucket's,
 * which moves an estimate by less than that bucket's rows.
 *
 * <p>{@code mostCommon}: up to 16 values, most frequent first, each more than twice as frequent as the average value
 * and on at least 1% of the non-null rows, with its rows; none for a column whose values are about equally frequent.
 * Their rows are counted in their buckets too. {@code exact}: whether every count was taken over every value; when
 * false, the bounds, rows and frequent values come from a sample of the column and the counts are estimates.
 *
 * <p>Estimates ({@link #fractionBelow}, {@link #fractionBetween}, {@link #fractionEqual}, {@link #fractionWithPrefix})
 * are fractions of the non-null rows (0 where there are none; multiply by the rows less the null count). Within a
 * bucket, its values other than the most common ones are taken as spread evenly between its bounds: a numeric bound
 * interpolates linearly, a string one on its first code points after the bounds' common prefix; the most common
 * values count with their own rows. A gap inside a bucket (between a frequent value's bucket and the values after it,
 * or below one value far above the others) is not seen, so an estimate there may be off by up to the bucket's rows.
 * Numbers of any Java type may be asked about a numeric column; a string about a VARCHAR one.
 */
public record Histogram(Object lower, List<Bucket> buckets, List<MostCommon> mostCommon, boolean exact) {

    /** No values: a column that is all NULL, or whose statistics came from a manifest without histograms. */
    public static final Histogram EMPTY = new Histogram(null, List.of(), List.of(), true);

    /** Values above the previous bucket's bound (bucket 0: from {@code lower}) up to {@code upper}, included. */
    public record Bucket(Object upper, long rows, long distinct) {
        public Bucket {
            Objects.requireNonNull(upper, "bucket bound");
            if (rows < 0 || distinct > rows || distinct < (rows > 0 ? 1 : 0)) {
                throw new IllegalArgumentException("a bucket of " + rows + " rows cannot hold " + distinct
                        + " distinct values");
            }
        }
    }

    /** A frequent value and its rows. */
    public record MostCommon(Object value, long rows) {
        public MostCommon {
            Objects.requireNonNull(value, "most common value");
            if (rows < 1) {
                throw new IllegalArgumentException("a most common value on " + rows + " rows");
            }
        }
    }

    public Histogram {
        buckets = List.copyOf(buckets);
        mostCommon = List.copyOf(mostCommon);
        if (!buckets.isEmpty()) {
            Objects.requireNonNull(lower, "histogram lower bound");
            Object previous = lower;
            for (Bucket b : buckets) {
                checkKind(lower, b.upper());
                if (HistogramAxis.compare(previous, b.upper()) > 0) {
                    throw new IllegalArgumentException("histogram bounds out of order: " + previous + ", "
                            + b.upper());
                }
                previous = b.upper();
            }
        } else if (!mostCommon.isEmpty()) {
            throw new IllegalArgumentException("most common values without buckets");
        }
        for (MostCommon m : mostCommon) {
            checkKind(lower, m.value());
        }
    }

    private static void checkKind(Object lower, Object v) {
        if (!(v instanceof Long || v instanceof Double || v instanceof String) || v.getClass() != lower.getClass()) {
            throw new IllegalArgumentException("histogram value " + v + " is not of the kind of " + lower);
        }
    }

    /**
     * A stand-in where no histogram was kept: one bucket from min to max whose distinct values are spread evenly,
     * which estimates as min, max and the distinct count alone do. Empty where min or max is null.
     */
    public static Histogram uniform(Object min, Object max, long distinct) {
        if (min == null || max == null) {
            return EMPTY;
        }
        long d = HistogramAxis.compare(min, max) == 0 ? 1 : Math.max(2, distinct);
        return new Histogram(min, List.of(new Bucket(max, d, d)), List.of(), false);
    }

    public boolean isEmpty() {
        return buckets.isEmpty();
    }

    /** The non-null rows the histogram describes (the sum of its buckets' rows). */
    public long rows() {
        long n = 0;
        for (Bucket b : buckets) {
            n += b.rows();
        }
        return n;
    }

    /** The fraction of non-null values below {@code raw} ({@code inclusive}: at or below). */
    public double fractionBelow(Object raw, boolean inclusive) {
        Objects.requireNonNull(raw, "value");
        long total = rows();
        if (total == 0) {
            return 0;
        }
        int i = bucketOf(raw);
        if (i < 0) {
            return 0;
        }
        if (i == buckets.size()) {
            return 1;
        }
        double below = 0;
        for (int j = 0; j < i; j++) {
            below += buckets.get(j).rows();
        }
        for (MostCommon m : mostCommon) {
            int c = HistogramAxis.compare(m.value(), raw);
            if ((c < 0 || (inclusive && c == 0)) && bucketOf(m.value()) == i) {
                below += m.rows();
            }
        }
        Rest r = rest(i);
        if (r.rows() > 0) {
            below += r.rows() * (double) valuesBelow(i, r.values(), raw, inclusive) / r.values();
        }
        return Math.clamp(below / total, 0.0, 1.0);
    }

    /** A bucket's rows and distinct values other than its most common values'. */
    private record Rest(long rows, long values) {
    }

    private Rest rest(int i) {
        Bucket b = buckets.get(i);
        long frequentRows = 0;
        int frequentValues = 0;
        for (MostCommon m : mostCommon) {
            if (bucketOf(m.value()) == i) {
                frequentRows += m.rows();
                frequentValues++;
            }
        }
        long rows = b.rows() - frequentRows;
        return rows <= 0 ? new Rest(0, 0) : new Rest(rows, Math.max(1, b.distinct() - frequentValues));
    }

    /**
     * How many of the {@code values} points spread evenly over bucket i lie below {@code raw} (which lies in the
     * bucket). Bucket i &gt; 0 has them at its upper bound and at even steps below it; bucket 0 from its lower bound to
     * its upper one, both included.
     */
    private long valuesBelow(int i, long values, Object raw, boolean inclusive) {
        Object upper = buckets.get(i).upper();
        double t;
        if (HistogramAxis.compare(raw, upper) >= 0) {
            t = values;
        } else if (i == 0 && values >= 2) {
            t = 1 + placed(lower, upper, raw) * (values - 1);
        } else {
            t = placed(i == 0 ? lower : buckets.get(i - 1).upper(), upper, raw) * values;
        }
        double eps = 1e-9 * values;
        long atOrBelow = Math.clamp((long) Math.floor(t + eps), 0, values);
        long strictlyBelow = Math.clamp((long) Math.ceil(t - eps) - 1, 0, values);
        return inclusive ? atOrBelow : strictlyBelow;
    }

    /** {@link HistogramAxis#position}, or the middle where it cannot tell. */
    private static double placed(Object from, Object to, Object raw) {
        if (HistogramAxis.compare(from, to) >= 0) {
            return HistogramAxis.compare(raw, to) >= 0 ? 1 : 0;
        }
        double p = HistogramAxis.position(from, to, raw);
        return Double.isNaN(p) ? 0.5 : p;
    }

    /**
     * The fraction of non-null values between {@code lo} and {@code hi}, each bound included or not; a null bound
     * leaves that side open. Equal bounds, both included, estimate as {@link #fractionEqual}.
     */
    public double fractionBetween(Object lo, boolean loInclusive, Object hi, boolean hiInclusive) {
        if (isEmpty()) {
            return 0;
        }
        if (lo != null && hi != null) {
            int c = HistogramAxis.compare(lo, hi);
            if (c > 0 || (c == 0 && !(loInclusive && hiInclusive))) {
                return 0;
            }
            if (c == 0) {
                return fractionEqual(lo);
            }
        }
        double from = lo == null ? 0 : fractionBelow(lo, !loInclusive);
        double to = hi == null ? 1 : fractionBelow(hi, hiInclusive);
        return Math.clamp(to - from, 0.0, 1.0);
    }

    /**
     * The fraction of non-null values equal to {@code raw}: a most common value's own rows; otherwise its bucket's
     * rows other than the most common values', over the bucket's other distinct values; 0 outside the bounds (and
     * for a number with a fraction in a column of integers).
     */
    public double fractionEqual(Object raw) {
        Objects.requireNonNull(raw, "value");
        long total = rows();
        if (total == 0) {
            return 0;
        }
        for (MostCommon m : mostCommon) {
            if (HistogramAxis.compare(m.value(), raw) == 0) {
                return (double) m.rows() / total;
            }
        }
        int i = bucketOf(raw);
        if (i < 0 || i == buckets.size() || (lower instanceof Long && !HistogramAxis.holdsInteger(raw))) {
            return 0;
        }
        Bucket b = buckets.get(i);
        if (b.distinct() == 1 && !isBound(b.upper(), raw)) {
            return 0; // a bucket of one value holds its bound alone
        }
        Rest r = rest(i);
        return r.rows() == 0 ? 0 : r.rows() / (double) r.values() / total;
    }

    /** Whether {@code raw} is the value that bound {@code bound} stands for (a cut string bound: any it begins). */
    private static boolean isBound(Object bound, Object raw) {
        if (HistogramAxis.compare(bound, raw) == 0) {
            return true;
        }
        return bound instanceof String s && raw instanceof String r
                && s.codePointCount(0, s.length()) >= HistogramBuilder.BOUND_CODE_POINTS && r.startsWith(s);
    }

    /**
     * The fraction of non-null strings that begin with {@code prefix} ({@code LIKE 'prefix%'}): those from the prefix
     * up to the least string above all that begin with it, as {@link #fractionBetween} estimates them, except in a
     * bucket that holds only part of them and part of other strings, where the prefix reaches past the first character
     * where the bucket's bounds differ with a character other than a digit ({@link #deepIn}): there the prefix's
     * strings are taken to fill half the bucket's rows (besides its most common values, counted exactly).
     * Interpolation that deep would take every character as equally likely at every place, which text is far from: it
     * estimates nearly nothing for {@code 'forest%'} between 'floral deep coral' and 'forest peru moccasin', where
     * 'forest' begins a third of the bucket's strings. The cost: a rare prefix that deep is estimated at up to a
     * bucket's rows (1/64 of the rows; half of that where it lies inside one bucket).
     */
    public double fractionWithPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        if (isEmpty()) {
            return 0;
        }
        if (!(lower instanceof String)) {
            throw new IllegalArgumentException("a prefix estimate needs a VARCHAR column's histogram");
        }
        if (prefix.isEmpty()) {
            return 1;
        }
        String end = HistogramAxis.prefixEnd(prefix);
        double fraction = fractionBetween(prefix, true, end, false);
        int first = bucketOf(prefix);
        int last = end == null ? buckets.size() : bucketOf(end);
        long total = rows();
        double rows = fraction * total;
        if (first == last) {
            if (first >= 0 && first < buckets.size() && deepIn(first, prefix)) {
                Rest r = rest(first); // the prefix's strings lie inside the bucket: [prefix, end)
                if (r.rows() > 0) {
                    double inside = (double) (valuesBelow(first, r.values(), end, false)
                            - valuesBelow(first, r.values(), prefix, false)) / r.values();
                    rows += r.rows() * (0.5 - inside);
                }
            }
            return Math.clamp(rows / total, 0.0, 1.0);
        }
        if (first >= 0 && first < buckets.size() && deepIn(first, prefix)) {
            Rest r = rest(first); // the prefix's strings enter the bucket: [prefix, upper]
            if (r.rows() > 0) {
                double entering = 1 - (double) valuesBelow(first, r.values(), prefix, false) / r.values();
                rows += r.rows() * (0.5 - entering);
            }
        }
        if (last >= 0 && last < buckets.size() && deepIn(last, prefix)) {
            Rest r = rest(last); // they leave it: (lower, end)
            if (r.rows() > 0) {
                double leaving = (double) valuesBelow(last, r.values(), end, false) / r.values();
                rows += r.rows() * (0.5 - leaving);
            }
        }
        return Math.clamp(rows / total, 0.0, 1.0);
    }

    /**
     * Whether the prefix reaches past the first character where bucket i's bounds differ, with a character there other
     * than a digit or one of {@code - . / :}: digits are taken as spread evenly, as in codes, numbers and dates, where
     * interpolation holds.
     */
    private boolean deepIn(int i, String prefix) {
        String from = (String) (i == 0 ? lower : buckets.get(i - 1).upper());
        String to = (String) buckets.get(i).upper();
        int common = 0;
        int n = Math.min(from.length(), to.length());
        while (common < n && from.charAt(common) == to.charAt(common)) {
            common++;
        }
        int[] past = prefix.codePoints().skip(from.codePointCount(0, common) + 1L).toArray();
        for (int c : past) {
            if (!(c >= '0' && c <= '9') && "-./:".indexOf(c) < 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * -1 below lower, the bucket that holds {@code raw}, or the bucket count above the last bound. A value above a
     * cut string bound that begins with it belongs to that bound's bucket.
     */
    private int bucketOf(Object raw) {
        if (HistogramAxis.compare(raw, lower) < 0) {
            return -1;
        }
        int lo = 0;
        int hi = buckets.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (HistogramAxis.compare(buckets.get(mid).upper(), raw) >= 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo > 0 && isBound(buckets.get(lo - 1).upper(), raw) ? lo - 1 : lo;
    }
}
