package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.lib.Hashing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A DISTINCT aggregate's set against a plain set: values added, sets noted and united serially or by partitions. */
class DistinctSetTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(4);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    private static long sum(Set<Long> values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }

    /** Workers' sets of random values (0, negatives and repeats among them), each also added to {@code all}. */
    private static List<DistinctSet> workers(Random rnd, int workers, int values, int domain, Set<Long> all) {
        List<DistinctSet> sets = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            DistinctSet s = new DistinctSet();
            for (int i = 0; i < values; i++) {
                long v = rnd.nextInt(domain) - domain / 4;
                s.add(v);
                all.add(v);
            }
            sets.add(s);
        }
        return sets;
    }

    @Test
    void valuesAreCountedAndSummedOnce() {
        DistinctSet s = new DistinctSet();
        Set<Long> expected = new HashSet<>();
        Random rnd = new Random(1);
        for (int i = 0; i < 10_000; i++) {
            long v = i % 3 == 0 ? 0 : rnd.nextInt(3000) - 1000;
            s.add(v);
            expected.add(v);
        }
        assertEquals(expected.size(), s.size());
        assertEquals(sum(expected), s.longSum());
        DistinctSet d = new DistinctSet();
        for (double x : new double[] {1.5, -0.0, 0.0, 1.5, Double.NaN, Double.NaN, -2.25}) {
            d.add(Hashing.doubleKey(x));
        }
        assertEquals(4, d.size(), "-0.0 is 0.0, NaN is one value");
        assertTrue(Double.isNaN(d.doubleSum()));
        DistinctSet big = new DistinctSet();
        big.add(Long.MAX_VALUE);
        big.add(1);
        assertThrows(ArithmeticException.class, big::longSum, "a sum that overflows fails");
    }

    @Test
    void notedSetsAreAddedWhenRead() {
        Random rnd = new Random(2);
        Set<Long> all = new HashSet<>();
        List<DistinctSet> sets = workers(rnd, 5, 2000, 5000, all);
        // merged as group tables merge them: into the first, and sets that already noted others
        sets.get(1).defer(sets.get(2));
        sets.get(0).defer(sets.get(1));
        sets.get(0).defer(sets.get(3));
        sets.get(0).defer(sets.get(4));
        assertTrue(sets.get(0).hasPending());
        assertEquals(all.size(), sets.get(0).size());
        assertFalse(sets.get(0).hasPending());
        assertEquals(sum(all), sets.get(0).longSum());
    }

    @Test
    void aPartitionedUnionHasTheSerialOnesValues() {
        Random rnd = new Random(3);
        Set<Long> all = new HashSet<>();
        List<DistinctSet> sets = workers(rnd, 6, 20_000, 60_000, all);
        for (int i = 1; i < sets.size(); i++) {
            sets.get(0).defer(sets.get(i));
        }
        DistinctUnion.unitePartitioned(sets.get(0), POOL, 4);
        assertFalse(sets.get(0).hasPending());
        assertEquals(all.size(), sets.get(0).size());
        assertEquals(sum(all), sets.get(0).longSum());
        // values added after the union, some of them already there, are counted once
        sets.get(0).add(all.iterator().next());
        sets.get(0).add(1L << 50);
        all.add(1L << 50);
        assertEquals(all.size(), sets.get(0).size());
        assertEquals(sum(all), sets.get(0).longSum());
    }

    @Test
    void stringsAreUnitedToo() {
        Set<String> all = new HashSet<>();
        List<DistinctSet> sets = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            DistinctSet s = new DistinctSet();
            for (int i = 0; i < 30_000; i++) {
                String v = "v" + ((i * 7 + w * 13_000) % 50_000);
                s.add(v);
                all.add(v);
            }
            sets.add(s);
        }
        sets.get(0).defer(sets.get(1));
        sets.get(0).defer(sets.get(2));
        DistinctUnion.unitePartitioned(sets.get(0), POOL, 4);
        assertEquals(all.size(), sets.get(0).size());
    }
}
