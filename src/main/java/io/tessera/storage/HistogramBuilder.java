package io.tessera.storage;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Makes a column's {@link Histogram} from its finished file when a table version is committed ({@link TableWriter}),
 * so every write (CREATE TABLE AS, INSERT, UPDATE, DELETE, import, gen) leaves one that describes all the rows of the
 * new version. Time is linear in the rows and memory bounded whatever the table's size, in one of three ways:
 * <ul>
 *   <li>at most {@value #SAMPLE} non-null values: all of them, sorted; every count exact;</li>
 *   <li>values in a range of at most {@value #DENSE_VALUES} (integers, dates, booleans, a string's dictionary codes)
 *       no wider than the non-null rows: one count per value of the range; every count exact;</li>
 *   <li>otherwise a sample of {@value #SAMPLE} non-null values, one from each of as many equal runs of the rows (a
 *       fixed seed, so the same table gives the same histogram), sorted: bucket bounds from the sample (the first
 *       and last from the column's min and max where those are exact), rows and frequent values' rows scaled
 *       from the sample's, and each bucket's distinct values estimated (see {@link Shaper#distinct}).</li>
 * </ul>
 */
final class HistogramBuilder {

    static final int MAX_BUCKETS = 64;
    static final int MAX_MOST_COMMON = 16;
    static final int SAMPLE = 1 << 16;
    static final int DENSE_VALUES = 1 << 22;
    /** A VARCHAR bound longer than this many code points is kept as its prefix of this length. */
    static final int BOUND_CODE_POINTS = 64;
    /** A frequent string longer than this many characters is not listed (its rows stay in its bucket). */
    static final int MOST_COMMON_MAX_CHARS = 1024;
    private static final long SEED = 0x5eed_0f_7e55e7aL;

    private HistogramBuilder() {
    }

    /**
     * {@code stats} with the histogram of a finished column: {@code rows} values in {@code seg}, NULL where
     * {@code nullBits} has a bit set (null: none). A VARCHAR column holds codes into its sorted dictionary of
     * {@code dictionarySize} strings, code c being {@code codeText.apply(c)}; other kinds pass 0 and null.
     */
    static ColumnStats attach(ColumnStats stats, TypeKind kind, MemorySegment seg, long rows, long[] nullBits,
                              int dictionarySize, IntFunction<String> codeText) {
        return attach(stats, kind, seg, rows, nullBits, dictionarySize, codeText, Limits.DEFAULT);
    }

    /** When values are all sorted, counted per value, or sampled (and how many): tests take smaller ones. */
    record Limits(int sample, int denseValues) {
        static final Limits DEFAULT = new Limits(SAMPLE, DENSE_VALUES);
    }

    static ColumnStats attach(ColumnStats stats, TypeKind kind, MemorySegment seg, long rows, long[] nullBits,
                              int dictionarySize, IntFunction<String> codeText, Limits limits) {
        long nonNull = rows - nullCount(nullBits);
        if (nonNull <= 0) {
            return stats.withHistogram(Histogram.EMPTY);
        }
        Keys keys = keys(kind, seg);
        Space space = new Space(kind, kind == TypeKind.VARCHAR ? codeText : null);
        if (nonNull <= limits.sample()) {
            long[] all = new long[(int) nonNull];
            int n = 0;
            for (long r = 0; r < rows; r++) {
                if (!isNull(nullBits, r)) {
                    all[n++] = keys.at(r);
                }
            }
            return stats.withHistogram(fromSorted(all, nonNull, true, 0, space, Long.MAX_VALUE, Long.MIN_VALUE));
        }
        long denseFrom;
        long denseValues;
        if (kind == TypeKind.VARCHAR) {
            denseFrom = 0;
            denseValues = dictionarySize;
        } else if (kind != TypeKind.DOUBLE && stats.hasRange()) {
            denseFrom = stats.minLong();
            denseValues = stats.maxLong() - stats.minLong() + 1; // <= 0 on overflow: too wide
        } else {
            denseFrom = 0;
            denseValues = 0;
        }
        boolean countable = denseValues > 0 && denseValues <= limits.denseValues() && denseValues <= nonNull;
        if (countable && nonNull < Integer.MAX_VALUE) {
            return stats.withHistogram(dense(kind, seg, keys, rows, nullBits, nonNull, denseFrom, (int) denseValues,
                    space));
        }
        long[] sample = sample(keys, rows, nullBits, nonNull, limits.sample());
        long low = Long.MAX_VALUE; // the sample's own least and greatest keys unless the column's are known
        long high = Long.MIN_VALUE;
        if (kind == TypeKind.VARCHAR) {
            low = 0; // the dictionary's first and last codes: at or beyond the values present
            high = dictionarySize - 1;
        } else if (kind == TypeKind.DOUBLE) {
            // min is NaN only where every value is; max is NaN where any value is, the greatest value
            if (stats.min() instanceof Double d && !Double.isNaN(d)) {
                low = sortable(d);
            }
            if (stats.max() instanceof Double d) {
                high = sortable(d);
            }
        } else {
            low = stats.minLong();
            high = stats.maxLong();
        }
        return stats.withHistogram(fromSorted(sample, nonNull, false, stats.distinctEstimate(), space, low, high));
    }

    /** A value's key: longs in the values' order (a DOUBLE's bits reordered, a string's sorted dictionary code). */
    private interface Keys {
        long at(long row);
    }

    private static Keys keys(TypeKind kind, MemorySegment seg) {
        return switch (kind) {
            case DOUBLE -> r -> sortable(seg.get(Column.DOUBLE, r << 3));
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> r -> seg.get(Column.LONG, r << 3);
            case BOOLEAN -> r -> seg.get(ValueLayout.JAVA_BYTE, r);
            case INTEGER, DATE, VARCHAR -> r -> seg.get(Column.INT, r << 2);
        };
    }

    /** A double's bits as a long that orders as {@link Double#compare}, with -0.0 taken as 0.0. */
    static long sortable(double d) {
        long bits = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
        return bits >= 0 ? bits : bits ^ Long.MAX_VALUE;
    }

    static double unsortable(long key) {
        return Double.longBitsToDouble(key >= 0 ? key : key ^ Long.MAX_VALUE);
    }

    /** Keys as the histogram's raw values. */
    private record Space(TypeKind kind, IntFunction<String> text) {

        /** A bucket bound: a string cut to {@link #BOUND_CODE_POINTS} code points. */
        Object bound(long key) {
            if (text != null) {
                String s = text.apply((int) key);
                return s.codePointCount(0, s.length()) <= BOUND_CODE_POINTS ? s
                        : s.substring(0, s.offsetByCodePoints(0, BOUND_CODE_POINTS));
            }
            return value(key);
        }

        /** A frequent value, whole; null for a string too long to list. */
        Object value(long key) {
            if (text != null) {
                String s = text.apply((int) key);
                return s.length() <= MOST_COMMON_MAX_CHARS ? s : null;
            }
            return kind == TypeKind.DOUBLE ? (Object) unsortable(key) : (Object) key;
        }

        /** Whether a value gets a bucket of its own: an infinity or NaN, which no bound can interpolate to. */
        boolean apart(long key) {
            return kind == TypeKind.DOUBLE && !Double.isFinite(unsortable(key));
        }

        /** Whether keys count the values between them: integers, and codes of a dictionary that holds every value. */
        boolean countable() {
            return kind != TypeKind.DOUBLE;
        }
    }

    private static long nullCount(long[] nullBits) {
        long n = 0;
        if (nullBits != null) {
            for (long w : nullBits) {
                n += Long.bitCount(w);
            }
        }
        return n;
    }

    private static boolean isNull(long[] nullBits, long r) {
        return nullBits != null && (r >>> 6) < nullBits.length && (nullBits[(int) (r >>> 6)] & (1L << (r & 63))) != 0;
    }

    /** Every key counted in an array over [from, from + values); the runs read off it in order. */
    private static Histogram dense(TypeKind kind, MemorySegment seg, Keys keys, long rows, long[] nullBits,
                                   long nonNull, long from, int values, Space space) {
        int[] counts = new int[values];
        // the counting loops in methods of their own: the JIT compiles them small and soon (inlined here with the
        // shaping below, one compile of this method took C2 over a second)
        if (kind == TypeKind.INTEGER || kind == TypeKind.DATE || kind == TypeKind.VARCHAR) {
            countInts(seg, rows, nullBits, from, counts);
        } else {
            countKeys(keys, rows, nullBits, from, counts);
        }
        int first = -1;
        int last = -1;
        long distinct = 0;
        for (int i = 0; i < values; i++) {
            if (counts[i] != 0) {
                first = first < 0 ? i : first;
                last = i;
                distinct++;
            }
        }
        Shaper s = new Shaper(nonNull, nonNull, distinct, 0, true, space);
        for (int i = first; i <= last; i++) {
            if (counts[i] != 0) {
                s.accept(from + i, counts[i]);
            }
        }
        return s.finish(0, from + first, from + last);
    }

    /** Counts each 4-byte key's rows, the common case, read a block at a time rather than through a call per row. */
    private static void countInts(MemorySegment seg, long rows, long[] nullBits, long from, int[] counts) {
        int[] block = new int[4096];
        for (long at = 0; at < rows; at += block.length) {
            int k = (int) Math.min(block.length, rows - at);
            MemorySegment.copy(seg, Column.INT, at << 2, block, 0, k);
            for (int i = 0; i < k; i++) {
                if (nullBits == null || !isNull(nullBits, at + i)) {
                    counts[(int) (block[i] - from)]++;
                }
            }
        }
    }

    private static void countKeys(Keys keys, long rows, long[] nullBits, long from, int[] counts) {
        for (long r = 0; r < rows; r++) {
            if (!isNull(nullBits, r)) {
                counts[(int) (keys.at(r) - from)]++;
            }
        }
    }

    /**
     * A histogram from keys, sorted here: all the column's ({@code exact}) or a sample of its {@code nonNull} values,
     * with the distinct estimate and the column's least and greatest keys where known beyond the keys' own
     * ({@code low}, {@code high}; else Long.MAX_VALUE and Long.MIN_VALUE).
     */
    private static Histogram fromSorted(long[] keys, long nonNull, boolean exact, long distinctEstimate, Space space,
                                        long low, long high) {
        Arrays.sort(keys);
        long runs = 0;
        for (int i = 0; i < keys.length; i++) {
            if (i == 0 || keys[i] != keys[i - 1]) {
                runs++;
            }
        }
        int apart = 0;
        for (int i = 0; i < keys.length; i++) {
            if ((i == 0 || keys[i] != keys[i - 1]) && space.apart(keys[i])) {
                apart++;
            }
        }
        Shaper s = new Shaper(keys.length, nonNull, runs, apart, exact, space);
        for (int i = 0; i < keys.length; ) {
            int j = i + 1;
            while (j < keys.length && keys[j] == keys[i]) {
                j++;
            }
            s.accept(keys[i], j - i);
            i = j;
        }
        return s.finish(distinctEstimate, Math.min(low, keys[0]), Math.max(high, keys[keys.length - 1]));
    }

    /**
     * {@value #SAMPLE} keys of non-null rows: the non-null rows split in as many runs of (nearly) equal length, one
     * row drawn from each. More even than a simple random sample over sorted or clustered data, and as unbiased.
     */
    private static long[] sample(Keys keys, long rows, long[] nullBits, long nonNull, int size) {
        SplittableRandom random = new SplittableRandom(SEED);
        long[] out = new long[size];
        NonNullRows rowsByRank = new NonNullRows(rows, nullBits);
        long start = 0;
        for (int k = 0; k < size; k++) {
            long end = Math.multiplyExact(nonNull, k + 1L) / size;
            long rank = start + random.nextLong(end - start);
            out[k] = keys.at(nullBits == null ? rank : rowsByRank.row(rank));
            start = end;
        }
        return out;
    }

    /** The row of the k-th non-null value, for k rising: a walk over the null bitmap's words. */
    private static final class NonNullRows {
        private final long rows;
        private final long[] nullBits;
        private long word;
        private long before; // non-null rows in the words before {@code word}

        NonNullRows(long rows, long[] nullBits) {
            this.rows = rows;
            this.nullBits = nullBits;
        }

        long row(long rank) {
            while (true) {
                long valid = ~(word < nullBits.length ? nullBits[(int) word] : 0L);
                long left = rows - (word << 6);
                if (left < 64) {
                    valid &= (1L << left) - 1;
                }
                int n = Long.bitCount(valid);
                if (rank < before + n) {
                    for (long skip = rank - before; skip > 0; skip--) {
                        valid &= valid - 1;
                    }
                    return (word << 6) + Long.numberOfTrailingZeros(valid);
                }
                before += n;
                word++;
            }
        }
    }

    /**
     * Shapes runs of equal keys, given in order with their counts, into equi-depth buckets and picks the most common
     * values. {@code counted} is the sum of the counts: all {@code nonNull} values, or a sample's.
     */
    private static final class Shaper {
        private final long counted;
        private final long nonNull;
        private final long runs;
        private final boolean exact;
        private final Space space;
        private final int target;
        private final List<long[]> closed = new ArrayList<>(); // {upper key, counted so far, runs, runs of count 1}
        /** The most frequent runs seen, least frequent first: {key, count}. */
        private final PriorityQueue<long[]> frequent = new PriorityQueue<>(
                Comparator.<long[]>comparingLong(r -> r[1]).thenComparing(Comparator.<long[]>comparingLong(r -> r[0])
                        .reversed()));
        private long sum;
        private long nextShare = 1;
        private long previousKey;
        private boolean previousApart;
        private long bucketRuns;
        private long bucketSingles;

        /**
         * {@code apart}: how many of the runs get a bucket of their own ({@link Space#apart}); each may also close
         * the bucket before it and the one after it, so the equi-depth shares are three fewer for each.
         */
        Shaper(long counted, long nonNull, long runs, int apart, boolean exact, Space space) {
            this.counted = counted;
            this.nonNull = nonNull;
            this.runs = runs;
            this.exact = exact;
            this.space = space;
            this.target = (int) Math.max(1, Math.min(MAX_BUCKETS - 3L * apart, runs));
        }

        void accept(long key, long count) {
            boolean apart = space.apart(key);
            if (apart && bucketRuns > 0) {
                close(previousKey);
            }
            boolean afterApart = previousApart;
            previousKey = key;
            previousApart = apart;
            sum += count;
            bucketRuns++;
            if (count == 1) {
                bucketSingles++;
            }
            if (frequent.size() < MAX_MOST_COMMON) {
                frequent.add(new long[] {key, count});
            } else if (count > frequent.peek()[1]) { // runs come in key order: on a tie the earlier key stays
                frequent.poll();
                frequent.add(new long[] {key, count});
            }
            // A bucket closes once the count reaches its share; a run never straddles two buckets, and one that
            // reaches past several shares closes a single bucket, the next one closing at the next share above.
            // The value after -Infinity closes its bucket too, so that the next bucket has a finite lower bound.
            if (apart || afterApart || runs <= MAX_BUCKETS || sum * target >= nextShare * counted) {
                close(key);
            }
        }

        private void close(long upper) {
            closed.add(new long[] {upper, sum, bucketRuns, bucketSingles});
            bucketRuns = 0;
            bucketSingles = 0;
            nextShare = sum * target / counted + 1;
        }

        /** The buckets and frequent values, from {@code low} (the least key) up to {@code high} (the greatest). */
        Histogram finish(long distinctEstimate, long low, long high) {
            long distinct = exact ? runs : Math.max(distinctEstimate, runs);
            double perRun = (double) nonNull / counted;
            long[] rows = new long[closed.size()];
            long previous = 0;
            for (int i = 0; i < rows.length; i++) {
                long upTo = i == rows.length - 1 ? nonNull : Math.round(closed.get(i)[1] * perRun);
                rows[i] = upTo - previous;
                previous = upTo;
            }
            long[] distincts = distinct(rows, distinct, low, high);
            List<Histogram.Bucket> buckets = new ArrayList<>(rows.length);
            for (int i = 0; i < rows.length; i++) {
                long upper = i == rows.length - 1 ? high : closed.get(i)[0];
                buckets.add(new Histogram.Bucket(space.bound(upper), rows[i], distincts[i]));
            }
            return new Histogram(space.bound(low), buckets, mostCommon(distinct, perRun), exact);
        }

        /**
         * Each bucket's distinct values: exact, the runs, where every value was counted. From a sample, a value seen
         * twice or more is taken as one value, and each value seen once as standing for k values, with k (between 1 and
         * the rows per sampled value) such that the buckets add up to the column's distinct estimate: frequent values
         * are thus counted once, and the values too rare to be seen share the rest. A bucket has at least the values
         * its sample saw, at most its rows, and for integers and strings at most the keys between its bounds.
         */
        private long[] distinct(long[] rows, long distinct, long low, long high) {
            long[] out = new long[rows.length];
            long repeated = 0;
            long singles = 0;
            for (long[] c : closed) {
                repeated += c[2] - c[3];
                singles += c[3];
            }
            double most = Math.max(1.0, (double) nonNull / counted);
            double k = singles == 0 ? 1 : Math.clamp((double) (distinct - repeated) / singles, 1.0, most);
            for (int i = 0; i < rows.length; i++) {
                long[] c = closed.get(i);
                long d = exact ? c[2] : Math.round((c[2] - c[3]) + c[3] * k);
                if (space.countable()) {
                    long from = i == 0 ? low - 1 : closed.get(i - 1)[0];
                    long width = (i == rows.length - 1 ? high : c[0]) - from;
                    if (width > 0) {
                        d = Math.min(d, width);
                    }
                }
                out[i] = Math.clamp(Math.max(d, c[2]), 1, Math.max(1, rows[i]));
            }
            return out;
        }

        /** The frequent runs more than twice the average's rows and on at least 1% of the rows, most frequent first. */
        private List<Histogram.MostCommon> mostCommon(long distinct, double perRun) {
            List<long[]> top = new ArrayList<>(frequent);
            top.sort(Comparator.<long[]>comparingLong(r -> -r[1]).thenComparingLong(r -> r[0]));
            List<Histogram.MostCommon> out = new ArrayList<>();
            double average = (double) nonNull / Math.max(1, distinct);
            for (long[] r : top) {
                long rows = Math.max(1, Math.round(r[1] * perRun));
                Object value = space.value(r[0]);
                if (rows > 2 * average && rows >= 0.01 * nonNull && value != null) {
                    out.add(new Histogram.MostCommon(value, rows));
                }
            }
            return out;
        }
    }
}
