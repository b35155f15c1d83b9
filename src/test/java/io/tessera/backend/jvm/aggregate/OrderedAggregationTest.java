package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.host.MatRelation;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.exec.QueryEngine;
import io.tessera.exec.TinyTables;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * agg=ordered gives the rows of agg=hash on one worker whatever order the keys come in: sorted in runs that cross
 * morsels (small morsels, several workers, every access), unsorted, sorted but for a few rows, and in morsels each
 * sorted whose ranges overlap; NULL keys, every aggregate kind. The merge itself takes the key ranges only where
 * they allow it ({@link OrderedMerge.Merged#byRanges}).
 */
class OrderedAggregationTest {

    static final JvmVariantSpace SPACE = new JvmVariantSpace(4, false);
    static final int ROWS = 6_000;
    static final String AGGS = "COUNT(*), COUNT(n), SUM(v), SUM(n), MIN(v), MAX(v), MIN(d), MAX(d), AVG(v), AVG(n),"
            + " SUM(d), SUM(m), MIN(s), MAX(s), STDDEV_SAMP(d), VAR_POP(v), COUNT(DISTINCT v % 7),"
            + " SUM(DISTINCT v % 5), SUM(v) FILTER (WHERE v % 3 = 0), COUNT(*) FILTER (WHERE n IS NULL), MEDIAN(v),"
            + " BOOL_AND(v > 0)";

    @TempDir
    static Path dir;
    static Database db;
    static QueryEngine engine;
    static ExecutorService pool;

    @BeforeAll
    static void start() {
        Random rnd = new Random(35);
        String columns = "id INTEGER NOT NULL, k BIGINT NOT NULL, k2 INTEGER, v BIGINT NOT NULL, n BIGINT, d DOUBLE NOT NULL,"
                + " m DECIMAL(8,2) NOT NULL, s VARCHAR";
        long[] sorted = new long[ROWS];
        long key = 1;
        for (int i = 0; i < ROWS; i++) {
            if (rnd.nextInt(4) == 0) {
                key += 1 + rnd.nextInt(3);
            }
            sorted[i] = key; // runs of about four rows, many of them across a morsel's end at 64 rows
        }
        long[] unsorted = new long[ROWS];
        long[] partly = sorted.clone();
        long[] overlapping = new long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            unsorted[i] = rnd.nextInt(1_500);
            overlapping[i] = (i % 1_000) / 3; // each morsel ascends, the morsels' ranges repeat
        }
        for (int i = 0; i < 5; i++) {
            partly[1_000 + i * 1_000] = 7; // a few rows whose key goes back
        }
        table("sorted", columns, sorted, rnd);
        table("unsorted", columns, unsorted, rnd);
        table("partly", columns, partly, rnd);
        table("overlapping", columns, overlapping, rnd);
        db = Database.openOrCreate(dir);
        engine = new QueryEngine(db, 4);
        pool = Executors.newFixedThreadPool(4);
    }

    private static void table(String name, String columns, long[] keys, Random rnd) {
        Object[][] rows = new Object[keys.length][];
        for (int i = 0; i < keys.length; i++) {
            long v = rnd.nextInt(1_000) - 100;
            rows[i] = new Object[] {i, keys[i], rnd.nextInt(6) == 0 ? null : (int) (keys[i] % 3),
                    v, rnd.nextInt(3) == 0 ? null : (long) rnd.nextInt(50), rnd.nextInt(100) / 4.0,
                    BigDecimal.valueOf(rnd.nextInt(100_000) - 50_000, 2), rnd.nextInt(5) == 0 ? null : "s" + rnd.nextInt(40)};
        }
        TinyTables.write(dir, name, columns, rows);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
        db.close();
    }

    /** The rows, sorted by their cells that are not doubles (the group keys among them). */
    static List<List<Object>> rows(MatRelation rel) {
        List<List<Object>> out = new ArrayList<>();
        for (int r = 0; r < rel.rowCount(); r++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < rel.columns.size(); c++) {
                row.add(JvmExecutor.value(rel, c, r));
            }
            out.add(row);
        }
        out.sort(java.util.Comparator.comparing(row -> row.stream().filter(v -> !(v instanceof Double))
                .map(String::valueOf).toList().toString()));
        return out;
    }

    /** Whether two rows are equal, doubles to a relative 1e-9 (sums and moments depend on the order they combine in). */
    static boolean same(List<Object> a, List<Object> b) {
        for (int c = 0; c < a.size(); c++) {
            if (a.get(c) instanceof Double x && b.get(c) instanceof Double y) {
                if (Math.abs(x - y) > 1e-9 * Math.max(1, Math.abs(x)) && !x.equals(y)) {
                    return false;
                }
            } else if (!java.util.Objects.equals(a.get(c), b.get(c))) {
                return false;
            }
        }
        return true;
    }

    /** The rows under the default genomes with the grouping pipelines' values changed as {@code grouping} says. */
    static List<List<Object>> run(QueryPlan plan, Map<String, String> grouping) {
        Map<Integer, Genome> genomes = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            Genome g = SPACE.defaultGenome(plan, p);
            if (p.sink() instanceof Sink.GroupAggregate) {
                for (Map.Entry<String, String> e : grouping.entrySet()) {
                    g = g.with(e.getKey(), e.getValue());
                }
            }
            genomes.put(p.id(), SPACE.complete(plan, p, g, genomes));
        }
        JvmExecutor.CompiledQuery q = JvmExecutor.compile(plan, genomes);
        return rows(JvmExecutor.run(q, db, new JvmExecutor.Options(pool, null, 0)));
    }

    /** Under agg=ordered on 1, 2 and 4 workers, morsels of 64 and 1,024 rows, every access: the rows of agg=hash. */
    static void agrees(String sql) {
        agrees(sql, false);
    }

    /** {@link #agrees(String)}; {@code distinct}: the DISTINCT sets united as the groups are merged (serial, partitioned). */
    static void agrees(String sql, boolean distinct) {
        QueryPlan plan = engine.plan(sql);
        List<List<Object>> expected = run(plan, Map.of(JvmDimensions.AGGREGATION, "hash", JvmDimensions.WORKERS, "1",
                JvmDimensions.ACCESS, "dynamic", JvmDimensions.GROUP_MERGE, "serial"));
        assertTrue(expected.size() > 100, sql);
        for (String workers : List.of("1", "2", "4")) {
            for (String morsel : List.of("64", "1024")) {
                for (String access : workers.equals("1") ? List.of("dynamic") : List.of("dynamic", "blocked", "strided")) {
                    for (String merge : List.of("serial", "partitioned")) {
                        Map<String, String> g = Map.of(JvmDimensions.AGGREGATION, "ordered", JvmDimensions.WORKERS, workers,
                                JvmDimensions.MORSEL, morsel, JvmDimensions.ACCESS, access, JvmDimensions.GROUP_MERGE, merge);
                        if (distinct) {
                            g = new HashMap<>(g);
                            g.put(JvmDimensions.DISTINCT, merge);
                        }
                        List<List<Object>> got = run(plan, g);
                        String difference = firstDifference(expected, got);
                        if (difference != null) {
                            fail(sql + "\nunder " + g + ": " + got.size() + " rows, expected " + expected.size()
                                    + "; first difference " + difference);
                        }
                    }
                }
            }
        }
    }

    /** The first row that differs, or null. */
    private static String firstDifference(List<List<Object>> expected, List<List<Object>> got) {
        for (int i = 0; i < Math.min(expected.size(), got.size()); i++) {
            if (!same(expected.get(i), got.get(i))) {
                return "expected " + expected.get(i) + " got " + got.get(i);
            }
        }
        return expected.size() == got.size() ? null : "at row " + Math.min(expected.size(), got.size());
    }

    @Test
    void everyAggregateAgreesWhateverTheKeysOrder() {
        for (String t : List.of("sorted", "unsorted", "partly", "overlapping")) {
            agrees("SELECT k, " + AGGS + " FROM " + t + " GROUP BY k");
            // a nullable second key: a run ends where either key changes, a NULL key included
            agrees("SELECT k, k2, COUNT(*), SUM(v), MIN(s), AVG(d) FROM " + t + " GROUP BY k, k2");
            // a NULL first key, and three keys (the keys' words compared one by one)
            agrees("SELECT k2, k, v % 2 AS odd, COUNT(*), MAX(m) FROM " + t + " GROUP BY k2, k, v % 2");
            // a dictionary string key: its codes are the order every worker shares
            agrees("SELECT k, s, COUNT(*), SUM(v) FROM " + t + " GROUP BY k, s");
        }
    }

    @Test
    void distinctUnionsEmptyMorselsAndJoinedKeysAgree() {
        for (String t : List.of("sorted", "overlapping")) {
            // the groups' DISTINCT sets noted and united by the workers after a merge by ranges or by hash
            agrees("SELECT k, COUNT(DISTINCT v % 97), SUM(DISTINCT v), COUNT(*) FROM " + t + " GROUP BY k", true);
            // whole morsels filtered out: a worker's morsels with no groups between ones with groups
            agrees("SELECT k, COUNT(*), SUM(v) FROM " + t + " WHERE id % 1000 < 300 OR id > 5000 GROUP BY k");
            // the key from a join's build side, in the probe side's order (unsorted or sorted)
            agrees("SELECT b.k, COUNT(*), SUM(a.v) FROM " + t + " a JOIN unsorted b ON a.id = b.id GROUP BY b.k");
            agrees("SELECT b.k, COUNT(*), SUM(a.v) FROM unsorted a JOIN " + t + " b ON a.id = b.id GROUP BY b.k");
        }
    }

    @Test
    void theDefaultIsOrderedWhereTheFirstKeyAscendsAndGroupsAreMany() {
        for (String t : List.of("sorted", "unsorted")) {
            QueryPlan plan = engine.plan("SELECT k, SUM(v) FROM " + t + " GROUP BY k");
            for (Pipeline p : plan.pipelines()) {
                if (p.sink() instanceof Sink.GroupAggregate ga) {
                    assertTrue(SPACE.dimensions(plan, p).stream().anyMatch(d -> d.name().equals(JvmDimensions.AGGREGATION)
                            && d.values().contains("ordered")), t);
                    // no key range (no dense array), a million groups (beyond what per-worker hash tables hold)
                    Sink.GroupAggregate many = new Sink.GroupAggregate(ga.keys(), ga.keyNames(), ga.aggs(),
                            java.util.Collections.nCopies(ga.keys().size(), null), ga.relationId(), 1e6);
                    Pipeline q = new Pipeline(p.id(), p.source(), p.operations(), many, p.estimatedRows());
                    assertEquals(t.equals("sorted") ? "ordered" : "partitioned",
                            SPACE.defaultGenome(plan, q).get(JvmDimensions.AGGREGATION), t);
                }
            }
        }
    }

    @Test
    void aStringKeyRefusesOrdered() {
        QueryPlan plan = engine.plan("SELECT k, s || '!' AS t, COUNT(*) FROM sorted GROUP BY k, s || '!'");
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.GroupAggregate ga) {
                assertFalse(JvmVariantSpace.orderedAllowed(ga));
            }
        }
    }

    /** One worker's table with morsels of the given keys, each key a group of COUNT(*) 1. */
    private static OrderedRuns worker(long[]... morsels) {
        AggSpec[] aggs = {new AggSpec(io.tessera.plan.AggFunction.COUNT_STAR, io.tessera.backend.ValueKind.LONG, null,
                io.tessera.storage.DataType.BIGINT)};
        OrderedRuns r = new OrderedRuns(new HashGroupTable(aggs, 1, false, false, 16));
        for (long[] morsel : morsels) {
            r.morsel();
            for (long k : morsel) {
                int g = r.table.append1(k);
                r.table.counts[0][g]++;
            }
        }
        return r;
    }

    /** The merged groups as key=count, sorted by key. */
    private static List<String> groups(OrderedMerge.Merged m) {
        List<long[]> out = new ArrayList<>();
        for (HashGroupTable t : m.tables()) {
            for (int g = 0; g < t.groups; g++) {
                out.add(new long[] {t.keys[g], t.counts[0][g]});
            }
        }
        out.sort((a, b) -> Long.compare(a[0], b[0]));
        return out.stream().map(a -> a[0] + "=" + a[1]).toList();
    }

    @Test
    void rangesThatMeetOnlyAtTheirEndsNeedNoHashMerge() {
        // key 3 runs over three morsels of two workers, key 5 over two; no morsel's keys decrease
        OrderedRuns a = worker(new long[] {1, 2, 3}, new long[] {3, 5});
        OrderedRuns b = worker(new long[] {3}, new long[] {5, 6, 9});
        OrderedMerge.Merged m = OrderedMerge.merge(List.of(a, b), new boolean[1], true, pool, 2);
        assertTrue(m.byRanges());
        assertEquals(List.of("1=1", "2=1", "3=3", "5=2", "6=1", "9=1"), groups(m));
    }

    @Test
    void overlappingRangesAndDecreasingKeysGoThroughTheHashMerge() {
        OrderedRuns a = worker(new long[] {1, 4}, new long[] {5});
        OrderedRuns b = worker(new long[] {2, 3}); // 2..3 inside 1..4
        OrderedMerge.Merged m = OrderedMerge.merge(List.of(a, b), new boolean[1], false, pool, 2);
        assertFalse(m.byRanges());
        assertEquals(List.of("1=1", "2=1", "3=1", "4=1", "5=1"), groups(m));

        OrderedRuns c = worker(new long[] {1, 2, 1});
        c.ordered = false; // as the emitted code notes a key below the previous one
        OrderedRuns d = worker(new long[] {2, 7});
        m = OrderedMerge.merge(List.of(c, d), new boolean[1], true, pool, 2);
        assertFalse(m.byRanges());
        assertEquals(List.of("1=2", "2=2", "7=1"), groups(m));
    }
}
