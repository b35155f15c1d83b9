package io.tessera.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Histograms and most common values that {@link TableWriter} keeps for known distributions, with their estimates
 * checked against counts over the very values written. Tolerances are absolute fractions of the non-null rows:
 * {@link #EXACT} where every value was counted and the values inside the bucket asked about are spread evenly;
 * {@link #SAMPLED} where the histogram comes from a sample of 65,536 (a quantile's sampling error is about 0.002; the
 * rest is interpolation inside a bucket); {@link #ONE_BUCKET} where the value lies in a gap inside a bucket (after a
 * frequent value's bucket, or below a far value), which the histogram cannot see: it takes a bucket's values as spread
 * evenly between its bounds.
 */
class HistogramTest {

    static final double EXACT = 0.002;
    static final double SAMPLED = 0.02;
    static final double ONE_BUCKET = 1.0 / 64;

    @TempDir
    Path dir;

    /** Writes {@code values} (null: NULL) as the only column v of a new table; returns its statistics. */
    ColumnStats write(String type, List<?> values) {
        TableSchema schema = TableSchema.parse("t", "v " + type);
        try (Database db = Database.openOrCreate(dir.resolve("db")); TableWriter w = db.replace(schema)) {
            RowBatch batch = new RowBatch(schema, 1 << 16);
            for (int from = 0; from < values.size(); from += 1 << 16) {
                batch.clear();
                for (Object v : values.subList(from, Math.min(values.size(), from + (1 << 16)))) {
                    StorageRoundTripTest.append(batch, new Object[] {v});
                }
                w.write(batch);
            }
            return w.commit().column(0).stats();
        }
    }

    static <T> List<T> shuffled(List<T> values) {
        List<T> out = new ArrayList<>(values);
        Collections.shuffle(out, new Random(7));
        return out;
    }

    /** The exact fraction of non-null values below x (or at or below), by {@link HistogramAxis#compare}. */
    static double below(List<?> values, Object x, boolean inclusive) {
        long n = 0;
        long hit = 0;
        for (Object v : values) {
            if (v == null) {
                continue;
            }
            n++;
            int c = HistogramAxis.compare(raw(v), x);
            if (c < 0 || (inclusive && c == 0)) {
                hit++;
            }
        }
        return (double) hit / n;
    }

    static double equal(List<?> values, Object x) {
        return below(values, x, true) - below(values, x, false);
    }

    static Object raw(Object v) {
        return switch (v) {
            case Integer i -> (long) i;
            case LocalDate d -> d.toEpochDay();
            default -> v;
        };
    }

    static void assertNear(double expected, double actual, double tolerance, String what) {
        assertTrue(Math.abs(expected - actual) <= tolerance,
                what + ": expected " + expected + " within " + tolerance + ", estimated " + actual);
    }

    static void checkBelow(ColumnStats s, List<?> values, Object x, double tolerance) {
        assertNear(below(values, x, false), s.fractionBelow(x, false), tolerance, "below " + x);
        assertNear(below(values, x, true), s.fractionBelow(x, true), tolerance, "at or below " + x);
    }

    static long rows(Histogram h) {
        return h.buckets().stream().mapToLong(Histogram.Bucket::rows).sum();
    }

    @Test
    void uniformIntegersWithNegativesAreCountedExactly() {
        List<Integer> values = new ArrayList<>();
        for (int v = -50_000; v < 50_000; v++) {
            values.add(v);
        }
        ColumnStats s = write("INTEGER", shuffled(values));
        Histogram h = s.histogram();
        assertTrue(h.exact());
        assertEquals(64, h.buckets().size());
        assertEquals(-50_000L, h.lower());
        assertEquals(49_999L, h.buckets().getLast().upper());
        assertTrue(h.mostCommon().isEmpty(), "a uniform column has no most common values: " + h.mostCommon());
        for (Histogram.Bucket b : h.buckets()) {
            assertTrue(Math.abs(b.rows() - 100_000 / 64.0) <= 1, "equi-depth: " + b);
            assertEquals(b.rows(), b.distinct(), "each value once: " + b);
        }
        for (long x : new long[] {-50_001, -50_000, -49_999, -12_345, 0, 1, 31_337, 49_999, 50_000}) {
            checkBelow(s, values, x, EXACT);
        }
        checkBelow(s, values, 0.5, EXACT);
        assertNear(1e-5, s.fractionEqual(123L), 1e-7, "= 123");
        assertEquals(0, s.fractionEqual(123.5), "no integer column holds 123.5");
        assertEquals(0, s.fractionEqual(50_000L));
        assertNear(0.25, s.fractionBetween(-25_000L, true, 0L, false), EXACT, "[-25000, 0)");
        assertNear(0.5, s.fractionBetween(null, false, 0L, false), EXACT, "open below");
        assertEquals(0, s.fractionBetween(10L, true, 5L, true), "an empty range");
    }

    @Test
    void wideBigintsComeFromASampleThatIsTheSameEveryTime() {
        Random r = new Random(11);
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < 300_000; i++) {
            values.add(r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L));
        }
        ColumnStats s = write("BIGINT", values);
        Histogram h = s.histogram();
        assertFalse(h.exact(), "a range this wide is sampled");
        assertEquals(64, h.buckets().size());
        assertEquals(300_000, rows(h));
        assertEquals(s.min(), h.lower(), "the column's min bounds the first bucket");
        assertEquals(s.max(), h.buckets().getLast().upper());
        assertTrue(h.mostCommon().isEmpty(), h.mostCommon().toString());
        long distinct = h.buckets().stream().mapToLong(Histogram.Bucket::distinct).sum();
        assertNear(300_000, distinct, 300_000 * 0.05, "distinct values over the buckets");
        for (int q = 0; q <= 20; q++) {
            long x = -1_000_000_000_000L + q * 100_000_000_000L;
            checkBelow(s, values, x, SAMPLED);
        }
        assertEquals(h, write("BIGINT", values).histogram(), "the sample's seed is fixed");
    }

    @Test
    void skewedValuesAreMostCommonAndTheRestInterpolates() {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            values.add(i % 10 < 5 ? 7 : i % 10 < 7 ? 3 : 1000 + i % 60_000);
        }
        ColumnStats s = write("INTEGER", shuffled(values));
        Histogram h = s.histogram();
        assertTrue(h.exact(), "a range of 61,000 is counted per value");
        assertEquals(List.of(new Histogram.MostCommon(7L, 100_000), new Histogram.MostCommon(3L, 40_000)),
                h.mostCommon());
        assertEquals(0.5, s.fractionEqual(7L));
        assertEquals(0.2, s.fractionEqual(3L));
        assertEquals(0, s.fractionEqual(5L), "between two frequent values, in a bucket of one value");
        assertNear(equal(values, 30_007L), s.fractionEqual(30_007L), 1e-5, "= 30007");
        for (long x : new long[] {2, 3, 4, 7, 20_000, 45_678, 60_999, 61_000}) {
            checkBelow(s, values, x, EXACT);
        }
        // the bucket after 7's reaches from 7 to its values from 1007 up: the gap is not seen
        for (long x : new long[] {8, 500, 1000, 1006, 1007}) {
            checkBelow(s, values, x, ONE_BUCKET);
        }
        assertTrue(h.buckets().size() < 64, "the frequent values fill buckets of their own: " + h.buckets().size());
    }

    @Test
    void skewedValuesInASampleHaveEstimatedCounts() {
        List<Long> values = new ArrayList<>();
        Random r = new Random(3);
        for (int i = 0; i < 400_000; i++) {
            values.add(i % 10 < 5 ? 7L : i % 10 < 7 ? -3L : r.nextLong(1_000_000L, 1_000_000_000L));
        }
        ColumnStats s = write("BIGINT", values);
        Histogram h = s.histogram();
        assertFalse(h.exact());
        assertEquals(2, h.mostCommon().size(), h.mostCommon().toString());
        assertEquals(7L, h.mostCommon().get(0).value());
        assertEquals(-3L, h.mostCommon().get(1).value());
        assertNear(0.5, s.fractionEqual(7L), SAMPLED, "= 7");
        assertNear(0.2, s.fractionEqual(-3L), SAMPLED, "= -3");
        assertTrue(s.fractionEqual(500_000_000L) < 1e-4, "a value of the uniform part: " + s.fractionEqual(500_000_000L));
        for (long x : new long[] {-4, -3, 0, 7, 8, 1_000_000, 250_000_000, 999_999_999, 1_000_000_000}) {
            checkBelow(s, values, x, SAMPLED);
        }
    }

    @Test
    void allEqualIsOneBucket() {
        ColumnStats s = write("INTEGER", Collections.nCopies(100_000, 42));
        Histogram h = s.histogram();
        assertEquals(List.of(new Histogram.Bucket(42L, 100_000, 1)), h.buckets());
        assertEquals(42L, h.lower());
        assertTrue(h.mostCommon().isEmpty(), "one value is the average");
        assertEquals(1, s.fractionEqual(42L));
        assertEquals(0, s.fractionEqual(41L));
        assertEquals(0, s.fractionBelow(42L, false));
        assertEquals(1, s.fractionBelow(42L, true));
        assertEquals(1, s.fractionBetween(40L, true, 50L, true));
        assertEquals(0, s.fractionBetween(43L, true, 50L, true));
    }

    @Test
    void allNullHasNoHistogramAndEstimatesNothing() {
        List<Integer> values = Collections.nCopies(1000, null);
        ColumnStats s = write("INTEGER", values);
        assertFalse(s.hasHistogram());
        assertEquals(Histogram.EMPTY, s.histogram());
        assertEquals(0, s.fractionBelow(1L, true));
        assertEquals(0, s.fractionEqual(1L));
        assertEquals(0, s.fractionBetween(null, false, null, false));
    }

    @Test
    void nullsAreLeftOutOfTheFractions() {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < 150_000; i++) {
            values.add(i % 3 == 0 ? null : i % 1000);
        }
        ColumnStats s = write("INTEGER", values);
        assertEquals(50_000, s.nullCount());
        assertEquals(100_000, rows(s.histogram()));
        for (long x : new long[] {0, 250, 500, 999}) {
            checkBelow(s, values, x, EXACT);
        }
        assertNear(0.001, s.fractionEqual(500L), 1e-4, "= 500 of 1000 values");
    }

    @Test
    void datesCountDays() {
        List<LocalDate> values = new ArrayList<>();
        for (LocalDate d = LocalDate.of(1992, 1, 1); d.isBefore(LocalDate.of(1999, 1, 1)); d = d.plusDays(1)) {
            for (int k = 0; k < 1 + d.getDayOfMonth() % 3; k++) {
                values.add(d);
            }
        }
        values.add(null);
        ColumnStats s = write("DATE", shuffled(values));
        Histogram h = s.histogram();
        assertEquals(LocalDate.of(1992, 1, 1).toEpochDay(), h.lower());
        assertTrue(h.exact());
        for (LocalDate d : List.of(LocalDate.of(1991, 1, 1), LocalDate.of(1994, 6, 30), LocalDate.of(1995, 1, 1),
                LocalDate.of(1998, 12, 31))) {
            checkBelow(s, values, d.toEpochDay(), EXACT);
        }
        assertNear(equal(values, LocalDate.of(1996, 2, 29).toEpochDay()),
                s.fractionEqual(LocalDate.of(1996, 2, 29).toEpochDay()), 2e-4, "= 1996-02-29");
    }

    @Test
    void doublesWithNanAndInfinitiesOrderNanLast() {
        List<Double> values = new ArrayList<>();
        Random r = new Random(5);
        for (int i = 0; i < 100_000; i++) {
            values.add(r.nextDouble(-1000, 1000));
        }
        values.addAll(Collections.nCopies(2000, Double.NaN));
        values.addAll(Collections.nCopies(1500, Double.POSITIVE_INFINITY));
        values.addAll(Collections.nCopies(1500, Double.NEGATIVE_INFINITY));
        values.addAll(Collections.nCopies(400, -0.0));
        values.addAll(Collections.nCopies(400, 0.0));
        values.add(null);
        ColumnStats s = write("DOUBLE", shuffled(values));
        Histogram h = s.histogram();
        assertFalse(h.exact());
        assertEquals(Double.NEGATIVE_INFINITY, h.lower());
        assertTrue(Double.isNaN((Double) h.buckets().getLast().upper()), "NaN sorts last");
        List<Object> frequent = h.mostCommon().stream().map(Histogram.MostCommon::value).toList();
        assertTrue(frequent.containsAll(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)),
                frequent.toString());
        for (double x : new double[] {Double.NEGATIVE_INFINITY, -999.5, -500, -0.0, 0.0, 1e-9, 123.25, 999.99,
                Double.POSITIVE_INFINITY, Double.NaN}) {
            checkBelow(s, values, x, SAMPLED);
        }
        assertEquals(0, s.fractionBelow(Double.NEGATIVE_INFINITY, false));
        assertEquals(1, s.fractionBelow(Double.NaN, true));
        assertNear(equal(values, Double.NaN), s.fractionEqual(Double.NaN), 0.005, "= NaN");
        assertNear(equal(values, Double.NEGATIVE_INFINITY),
                s.fractionBetween(Double.NEGATIVE_INFINITY, true, Double.NEGATIVE_INFINITY, true), 0.005, "= -Inf");
        assertNear(below(values, Double.NaN, false), s.fractionBelow(Double.POSITIVE_INFINITY, true), 0.005,
                "NaN is above +Infinity");
        checkBelow(s, values, 0L, SAMPLED); // an integer asked of a DOUBLE column
    }

    @Test
    void fewDoublesAreCountedExactly() {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            values.add(i * 0.5 - 100);
        }
        values.addAll(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        ColumnStats s = write("DOUBLE", values);
        assertTrue(s.histogram().exact());
        for (double x : new double[] {Double.NEGATIVE_INFINITY, -100, -99.75, 0, 17.25, 399.5, 400,
                Double.POSITIVE_INFINITY}) {
            checkBelow(s, values, x, EXACT);
        }
        assertEquals(1.0 / 1003, s.fractionEqual(Double.NaN), 1e-12);
    }

    @Test
    void booleansAreTwoBuckets() {
        List<Boolean> values = new ArrayList<>();
        for (int i = 0; i < 70_000; i++) {
            values.add(i % 10 == 0);
        }
        ColumnStats s = write("BOOLEAN", values);
        assertEquals(List.of(new Histogram.Bucket(0L, 63_000, 1), new Histogram.Bucket(1L, 7_000, 1)),
                s.histogram().buckets());
        assertEquals(0.1, s.fractionEqual(1L), 1e-12);
    }

    @Test
    void stringsByCodePointWithPrefixes() {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            String w = String.format("w%05d", i);
            values.addAll(List.of(w, w, w));
        }
        values.addAll(Collections.nCopies(20_000, "R"));
        ColumnStats s = write("VARCHAR", shuffled(values));
        Histogram h = s.histogram();
        assertTrue(h.exact());
        assertEquals("R", h.lower());
        assertEquals("w19999", h.buckets().getLast().upper());
        assertEquals(List.of(new Histogram.MostCommon("R", 20_000)), h.mostCommon());
        assertNear(equal(values, "R"), s.fractionEqual("R"), 1e-9, "= R");
        assertNear(equal(values, "w01234"), s.fractionEqual("w01234"), 1e-5, "= w01234");
        assertEquals(0, s.fractionEqual("Q"));
        for (String x : new String[] {"A", "R", "w00999", "w05000x", "w10000", "w19999", "x"}) {
            checkBelow(s, values, x, EXACT);
        }
        for (String x : new String[] {"S", "w", "w00000", "w00001"}) {
            checkBelow(s, values, x, ONE_BUCKET); // the bucket after R's reaches from R to w00000 and beyond
        }
        for (String p : new String[] {"w001", "w1", "w19", "w", "x", "R", "w0123"}) {
            double exact = values.stream().filter(v -> v.startsWith(p)).count() / (double) values.size();
            // 'w' begins in the bucket after R's
            assertNear(exact, s.fractionWithPrefix(p), p.equals("w") ? ONE_BUCKET : 0.005, "LIKE '" + p + "%'");
        }
        assertEquals(1, s.fractionWithPrefix(""));
        assertNear(3000.0 / values.size(), s.fractionBetween("w05000", true, "w05999", true), EXACT, "between");
    }

    @Test
    void aWordThatBeginsTextIsNotEstimatedAsNothing() {
        // strings of three words out of 80 (as TPC-H's part names are of colours): each first word begins about
        // 1.25% of the strings, less than a bucket's 1/64; interpolation over characters alone would give it nearly
        // nothing, as if every character were equally likely after "forest"
        List<String> words = new ArrayList<>();
        for (char a = 'a'; a <= 'p'; a++) {
            for (String tail : List.of("ble", "lmond", "rest", "ush", "zure")) {
                words.add(a + tail);
            }
        }
        Random r = new Random(9);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            values.add(words.get(r.nextInt(80)) + " " + words.get(r.nextInt(80)) + " " + words.get(r.nextInt(80)));
        }
        ColumnStats s = write("VARCHAR", values);
        for (String w : List.of("arest", "fble", "hush", "almond", "pzure")) {
            double exact = values.stream().filter(v -> v.startsWith(w)).count() / (double) values.size();
            double estimate = s.fractionWithPrefix(w);
            assertTrue(estimate >= exact / 3 && estimate <= exact * 3, "LIKE '" + w + "%': " + exact + " estimated "
                    + estimate);
        }
        // the price: a rare prefix that deep is taken to fill half a bucket too (1/128 of the rows here)
        double rare = values.stream().filter(v -> v.startsWith("able a")).count() / (double) values.size();
        assertNear(rare, s.fractionWithPrefix("able a"), ONE_BUCKET / 2 + 0.001, "LIKE 'able a%'");
    }

    @Test
    void stringsOrderByCodePointNotUtf16Unit() {
        // U+FF5A comes before U+1F600 by code point, after it by UTF-16 code unit (a surrogate pair)
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            values.addAll(List.of("a" + i, "ｚ" + i, "😀" + i));
        }
        ColumnStats s = write("VARCHAR", shuffled(values));
        assertEquals("😀99", s.histogram().buckets().getLast().upper());
        assertEquals(1.0 / 300, s.fractionEqual("😀42"), 1e-12);
        assertEquals(0, s.fractionWithPrefix("😁"));
        // the buckets where a, ｚ and 😀 meet span wide ranges of code points, which interpolation reads as gaps; a
        // prefix's range has both ends in such buckets
        assertNear(2.0 / 3, s.fractionBelow("😀", false), ONE_BUCKET, "below the emoji");
        assertNear(1.0 / 3, s.fractionWithPrefix("ｚ"), 2 * ONE_BUCKET, "LIKE 'ｚ%'");
        assertNear(1.0 / 3, s.fractionWithPrefix("😀"), 2 * ONE_BUCKET, "LIKE '😀%'");
        assertNear(1.0 / 300, s.fractionWithPrefix("😀42"), EXACT, "LIKE '😀42%'");
    }

    @Test
    void aFarValueInTheLastBucketCostsAtMostThatBucket() {
        // inside a bucket values are taken as spread evenly between its bounds: one far above the others puts
        // them all at the bucket's start, an error of up to the bucket's rows
        List<Long> values = new ArrayList<>();
        for (long i = 0; i < 6400; i++) {
            values.add(i);
        }
        values.add(1_000_000_000L);
        ColumnStats s = write("BIGINT", values);
        for (long x : new long[] {6300, 6399, 6400, 500_000_000}) {
            checkBelow(s, values, x, ONE_BUCKET);
        }
        checkBelow(s, values, 6000L, EXACT);
    }

    @Test
    void longStringBoundsAreCutAndLongFrequentStringsNotListed() {
        List<String> values = new ArrayList<>();
        String huge = "h".repeat(HistogramBuilder.MOST_COMMON_MAX_CHARS + 1);
        for (int i = 0; i < 5000; i++) {
            values.add(String.format("%03d", i % 1000) + "x".repeat(100) + i);
            values.add(huge);
        }
        ColumnStats s = write("VARCHAR", values);
        Histogram h = s.histogram();
        assertTrue(h.mostCommon().isEmpty(), "the frequent string is too long to list");
        for (Histogram.Bucket b : h.buckets()) {
            String u = (String) b.upper();
            assertTrue(u.codePointCount(0, u.length()) <= HistogramBuilder.BOUND_CODE_POINTS, u);
        }
        assertEquals(huge.substring(0, HistogramBuilder.BOUND_CODE_POINTS), h.buckets().getLast().upper());
        assertNear(0.5, s.fractionEqual(huge), 0.01, "the long value, from its bucket of one value");
        assertNear(0.005, s.fractionWithPrefix("01"), 0.001, "LIKE '01%'");
        checkBelow(s, values, "500", SAMPLED);
    }

    @Test
    void boundsFollowEveryValueKind() {
        for (String type : List.of("SMALLINT", "TINYINT", "DECIMAL(9,2)")) {
            List<Object> values = new ArrayList<>();
            for (int i = -100; i < 100; i++) {
                values.add(type.startsWith("DECIMAL") ? new java.math.BigDecimal(i).movePointLeft(2) : (Object) i);
            }
            Histogram h = write(type, values).histogram();
            assertEquals(-100L, h.lower(), type + ": raw values (DECIMAL unscaled)");
            assertEquals(99L, h.buckets().getLast().upper(), type);
        }
    }

    @Test
    void aStoredHistogramIsUsedAndWithoutOneMinMaxAndDistinctAre() {
        ColumnStats none = new ColumnStats(0, 100, 0L, 99L);
        assertFalse(none.hasHistogram());
        assertNear(0.5, none.fractionBelow(50L, false), 0.011, "min..max spread evenly");
        assertNear(0.01, none.fractionEqual(3L), 1e-9, "1 / distinct");
        ColumnStats text = new ColumnStats(0, 26_000, "a", "z");
        assertNear(12.0 / 25, text.fractionBelow("m", false), 0.001, "strings from a to z spread evenly");
        assertNear(1.0 / 25, text.fractionWithPrefix("m"), 0.001, "LIKE 'm%'");
        assertEquals(Arrays.asList(0.0, 0.0), Arrays.asList(ColumnStats.EMPTY.fractionBelow(1L, true),
                ColumnStats.EMPTY.fractionEqual("x")));
    }
}
