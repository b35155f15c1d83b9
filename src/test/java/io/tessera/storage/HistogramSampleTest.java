package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.tessera.storage.HistogramTest.assertNear;
import static io.tessera.storage.HistogramTest.below;
import static io.tessera.storage.HistogramTest.equal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HistogramBuilder}'s sampled histograms where the default limits would count every value: the builder run on
 * a column in memory with limits of 4,096 sampled values and 1,000 counted ones, so that strings (whose dictionaries
 * would have to exceed four million values) and columns with NULLs take the sampling path too. Tolerance 0.04: a
 * quantile of a 4,096 sample is within about 0.008, and interpolation inside one of 64 buckets adds at most 1/64.
 */
class HistogramSampleTest {

    static final HistogramBuilder.Limits SMALL = new HistogramBuilder.Limits(4096, 1000);
    static final double TOLERANCE = 0.04;

    /** Strings as a column: codes into a sorted dictionary, NULL where the value is null. */
    static ColumnStats strings(List<String> values) {
        DictionaryBuilder dict = new DictionaryBuilder("c");
        int[] codes = new int[values.size()];
        long[] nullBits = new long[(values.size() + 63) >>> 6];
        long nulls = 0;
        for (int r = 0; r < codes.length; r++) {
            if (values.get(r) == null) {
                nullBits[r >>> 6] |= 1L << (r & 63);
                nulls++;
            } else {
                codes[r] = dict.add(values.get(r));
            }
        }
        int[] order = dict.sortedOrder();
        int[] rank = new int[order.length];
        for (int s = 0; s < order.length; s++) {
            rank[order[s]] = s;
        }
        for (int r = 0; r < codes.length; r++) {
            codes[r] = rank[codes[r]];
        }
        ColumnStats stats = new ColumnStats(nulls, order.length, dict.value(order[0]),
                dict.value(order[order.length - 1]));
        return HistogramBuilder.attach(stats, TypeKind.VARCHAR, MemorySegment.ofArray(codes), codes.length,
                nullBits, order.length, c -> dict.value(order[c]), SMALL);
    }

    @Test
    void sampledStringsKeepFrequentValuesAndPrefixes() {
        List<String> values = new ArrayList<>();
        Random r = new Random(1);
        for (int i = 0; i < 60_000; i++) {
            int k = r.nextInt(100);
            values.add(k < 30 ? "MAIL" : k < 40 ? null : k < 45 ? "AIR" : "item " + r.nextInt(20_000));
        }
        ColumnStats s = strings(values);
        Histogram h = s.histogram();
        assertFalse(h.exact(), "20,000 strings are more than 1,000: sampled");
        assertEquals(values.stream().filter(v -> v != null).count(),
                h.buckets().stream().mapToLong(Histogram.Bucket::rows).sum());
        assertEquals(List.of("MAIL", "AIR"), h.mostCommon().stream().map(Histogram.MostCommon::value).toList());
        assertNear(equal(values, "MAIL"), s.fractionEqual("MAIL"), TOLERANCE, "= MAIL");
        assertNear(equal(values, "AIR"), s.fractionEqual("AIR"), TOLERANCE, "= AIR");
        assertTrue(s.fractionEqual("item 777") < 0.001, "a rare string: " + s.fractionEqual("item 777"));
        for (String x : new String[] {"A", "AIR", "MAIL", "item 1", "item 15", "item 5", "item 9999", "z"}) {
            assertNear(below(values, x, false), s.fractionBelow(x, false), TOLERANCE, "below " + x);
            assertNear(below(values, x, true), s.fractionBelow(x, true), TOLERANCE, "at or below " + x);
        }
        for (String p : new String[] {"item 1", "item 19", "item", "M", "x"}) {
            double exact = values.stream().filter(v -> v != null && v.startsWith(p)).count()
                    / (double) values.stream().filter(v -> v != null).count();
            assertNear(exact, s.fractionWithPrefix(p), TOLERANCE, "LIKE '" + p + "%'");
        }
        long distinct = h.buckets().stream().mapToLong(Histogram.Bucket::distinct).sum();
        assertTrue(distinct > 15_000 && distinct <= 20_002, "distinct values over the buckets: " + distinct);
    }

    @Test
    void sampledIntegersWithNullsAreDrawnFromTheNonNullRowsOnly() {
        int n = 50_000;
        int[] data = new int[n];
        long[] nullBits = new long[(n + 63) >>> 6];
        List<Integer> values = new ArrayList<>();
        Random r = new Random(2);
        long nulls = 0;
        for (int i = 0; i < n; i++) {
            // long runs of NULLs, and values that grow with the row: a sample of row positions would be skewed
            boolean isNull = (i / 5000) % 2 == 1;
            data[i] = i + r.nextInt(10);
            if (isNull) {
                nullBits[i >>> 6] |= 1L << (i & 63);
                nulls++;
                values.add(null);
            } else {
                values.add(data[i]);
            }
        }
        ColumnStats stats = new ColumnStats(nulls, n / 2, 0L, (long) n + 10);
        ColumnStats s = HistogramBuilder.attach(stats, TypeKind.INTEGER, MemorySegment.ofArray(data), n, nullBits,
                0, null, SMALL);
        assertFalse(s.histogram().exact());
        assertEquals(n - nulls, s.histogram().buckets().stream().mapToLong(Histogram.Bucket::rows).sum());
        for (long x = 0; x <= n; x += 2500) {
            assertNear(below(values, x, false), s.fractionBelow(x, false), TOLERANCE, "below " + x);
        }
        assertNear(0.0, s.fractionBetween(5010L, true, 9990L, true), TOLERANCE, "a run of NULLs holds no value");
    }

    @Test
    void distinctPerBucketSeparatesRepeatedValuesFromRareOnes() {
        // half the rows on 50 values, half on distinct values: a bucket of the first half has about 1 to 3 values
        int n = 40_000;
        long[] data = new long[n];
        for (int i = 0; i < n; i++) {
            data[i] = i % 2 == 0 ? (i % 100) * 1_000_000L : 100_000_000L + i;
        }
        ColumnStats stats = new ColumnStats(0, 20_050, 0L, 100_000_000L + n);
        Histogram h = HistogramBuilder.attach(stats, TypeKind.BIGINT, MemorySegment.ofArray(data), n, null,
                0, null, SMALL).histogram();
        Object previous = h.lower();
        for (Histogram.Bucket b : h.buckets()) {
            if ((Long) b.upper() < 100_000_000L) {
                assertTrue(b.distinct() <= 10, "a bucket of repeated values: " + b);
            } else if ((Long) previous >= 100_000_000L) { // not the bucket where the halves meet
                assertTrue(b.distinct() > b.rows() / 2, "a bucket of distinct values: " + b);
            }
            previous = b.upper();
        }
    }
}
