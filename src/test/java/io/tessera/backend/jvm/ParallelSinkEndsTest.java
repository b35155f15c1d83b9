package io.tessera.backend.jvm;

import io.tessera.backend.host.MatRelation;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ends of sinks that the workers share (join tables built in partitions or with atomics, group tables merged in
 * partitions, DISTINCT sets united by value partitions, groups turned into rows in ranges) give the rows that one
 * worker gives: every query below runs under a covering sample of genomes on four workers, over enough rows that
 * the parallel ends run, and under plans whose estimates are 1000 times too small and too large.
 */
class ParallelSinkEndsTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(31, 60_000);
    static final JvmVariantSpace SPACE = new JvmVariantSpace(4, false);
    static ExecutorService pool;
    static QueryEngine engine;

    /** About 50,000 groups: a nullable key, a computed string key, every aggregate function, DISTINCT ones too. */
    static final String MANY_GROUPS = "SELECT CASE WHEN lo_orderkey % 11 = 0 THEN NULL ELSE lo_orderkey END AS k,"
            + " lo_shipmode || '-' AS m, COUNT(*), COUNT(CASE WHEN lo_discount > 5 THEN 1 END), SUM(lo_revenue),"
            + " MIN(lo_tax), MAX(lo_extendedprice), AVG(lo_quantity), STDDEV_SAMP(lo_revenue), VAR_POP(lo_discount),"
            + " COUNT(DISTINCT lo_suppkey), SUM(DISTINCT lo_discount), AVG(DISTINCT lo_quantity),"
            + " MIN(lo_orderpriority || '!'), MAX(lo_shipmode), SUM(lo_revenue) FILTER (WHERE lo_tax > 3)"
            + " FROM lineorder GROUP BY 1, 2";
    /** One group, DISTINCT sets of 60,000 values: numbers, DOUBLEs and strings. */
    static final String ONE_GROUP = "SELECT COUNT(DISTINCT lo_orderkey * 7 + lo_linenumber), SUM(DISTINCT lo_revenue),"
            + " AVG(DISTINCT lo_extendedprice), COUNT(DISTINCT lo_shipmode || CAST(lo_orderkey AS VARCHAR)),"
            + " SUM(DISTINCT CAST(lo_revenue AS DOUBLE) / 7), COUNT(*) FROM lineorder";
    /** Join tables over 60,000 rows: a known key range (perfect), a computed key, two keys, NULL keys, duplicates. */
    static final List<String> JOINS = List.of(
            "SELECT COUNT(*), SUM(b.lo_tax), MIN(b.lo_shipmode) FROM lineorder a, lineorder b"
                    + " WHERE a.lo_orderkey = b.lo_orderkey AND a.lo_linenumber = 1",
            "SELECT COUNT(*), SUM(b.r) FROM lineorder a, (SELECT lo_orderkey * 3 AS k, lo_revenue AS r FROM lineorder) b"
                    + " WHERE a.lo_orderkey * 3 = b.k AND a.lo_tax = 2",
            "SELECT COUNT(*), SUM(b.lo_revenue) FROM lineorder a JOIN lineorder b ON a.lo_orderkey = b.lo_orderkey"
                    + " AND a.lo_linenumber = b.lo_linenumber WHERE a.lo_discount < 3",
            "SELECT COUNT(*), COUNT(b.r), SUM(b.r) FROM lineorder a LEFT JOIN (SELECT CASE WHEN lo_orderkey % 5 = 0"
                    + " THEN NULL ELSE lo_orderkey * 2 END AS k, lo_revenue AS r FROM lineorder) b ON a.lo_orderkey * 2 = b.k");

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(4);
        engine = new QueryEngine(SSB.db(), 4);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    /** The rows, sorted, doubles to 9 significant digits (sums of doubles depend on the order they are added in). */
    static List<String> rows(MatRelation rel) {
        List<String> out = new ArrayList<>();
        for (int r = 0; r < rel.rowCount(); r++) {
            StringBuilder sb = new StringBuilder();
            for (int c = 0; c < rel.columns.size(); c++) {
                Object v = JvmExecutor.value(rel, c, r);
                sb.append(v instanceof Double d ? String.format(Locale.ROOT, "%.9g", d) : v).append('|');
            }
            out.add(sb.toString());
        }
        Collections.sort(out);
        return out;
    }

    static List<String> run(QueryPlan plan, Map<Integer, Genome> genomes) {
        JvmExecutor.CompiledQuery q = JvmExecutor.compile(plan, genomes);
        return rows(JvmExecutor.run(q, SSB.db(), new JvmExecutor.Options(pool, null, 0)));
    }

    /** One worker, serial ends: the reference. */
    static List<String> serial(QueryPlan plan) {
        return run(plan, Genomes.defaults(new JvmVariantSpace(1, false), plan));
    }

    /** Every value of every dimension of every pipeline runs in some genome, each run giving the serial rows. */
    static void agreesUnderCoveringGenomes(String sql) {
        QueryPlan plan = engine.plan(sql);
        List<String> expected = serial(plan);
        assertTrue(expected.size() > 0, sql);
        Set<String> used = new HashSet<>();
        for (Map<Integer, Genome> genomes : Genomes.coveringPlans(SPACE, plan)) {
            genomes.forEach((p, g) -> g.values().forEach((k, v) -> used.add(k + "=" + v)));
            assertEquals(expected, run(plan, genomes), sql + "\nunder " + genomes);
        }
        assertTrue(used.contains(JvmDimensions.WORKERS + "=4"), used.toString());
    }

    /**
     * Every valid combination of the given dimensions' values on the pipelines whose sink is of class {@code sink},
     * the others at their defaults, four workers: each run gives the serial rows.
     */
    static void agreesUnderEveryCombination(String sql, Class<? extends Sink> sink, Map<String, List<String>> values) {
        QueryPlan plan = engine.plan(sql);
        List<String> expected = serial(plan);
        List<Map<String, String>> combos = new ArrayList<>();
        combos.add(new java.util.LinkedHashMap<>());
        for (Map.Entry<String, List<String>> d : values.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combos) {
                for (String v : d.getValue()) {
                    Map<String, String> m = new java.util.LinkedHashMap<>(c);
                    m.put(d.getKey(), v);
                    next.add(m);
                }
            }
            combos = next;
        }
        int ran = 0;
        for (Map<String, String> combo : combos) {
            Map<Integer, Genome> chosen = new java.util.HashMap<>();
            boolean valid = true;
            for (Pipeline p : plan.pipelines()) {
                Genome g = SPACE.defaultGenome(plan, p);
                if (sink.isInstance(p.sink())) {
                    for (Map.Entry<String, String> e : combo.entrySet()) {
                        g = g.with(e.getKey(), e.getValue());
                    }
                    valid &= SPACE.valid(plan, p, g);
                }
                chosen.put(p.id(), SPACE.complete(plan, p, g, chosen));
            }
            if (valid) {
                assertEquals(expected, run(plan, chosen), sql + "\nunder " + combo);
                ran++;
            }
        }
        assertTrue(ran > 1, sql);
    }

    @Test
    void manyGroupsAgreeUnderEveryMergeAndAggregation() {
        QueryPlan plan = engine.plan(MANY_GROUPS);
        assertTrue(serial(plan).size() > 20_000, "enough groups for every parallel end");
        agreesUnderCoveringGenomes(MANY_GROUPS);
        agreesUnderEveryCombination(MANY_GROUPS, Sink.GroupAggregate.class, Map.of(
                JvmDimensions.AGGREGATION, List.of("hash", "shared", "partitioned"),
                JvmDimensions.GROUP_MERGE, List.of("serial", "partitioned"),
                JvmDimensions.DISTINCT, List.of("serial", "partitioned")));
    }

    @Test
    void denseArraysMergedBySlotRangesAgree() {
        // 15,000 orders of 4 lines: a dense array of 75,000 slots per worker
        String sql = "SELECT lo_orderkey, lo_linenumber, SUM(lo_revenue), COUNT(DISTINCT lo_suppkey), MIN(lo_shipmode),"
                + " STDDEV_POP(lo_tax) FROM lineorder GROUP BY lo_orderkey, lo_linenumber";
        QueryPlan plan = engine.plan(sql);
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.GroupAggregate) {
                assertEquals("dense", SPACE.defaultGenome(plan, p).get(JvmDimensions.AGGREGATION));
            }
        }
        agreesUnderEveryCombination(sql, Sink.GroupAggregate.class, Map.of(
                JvmDimensions.AGGREGATION, List.of("dense", "hash"),
                JvmDimensions.GROUP_MERGE, List.of("serial", "partitioned"),
                JvmDimensions.DISTINCT, List.of("serial", "partitioned")));
    }

    @Test
    void largeDistinctSetsAgreeUnitedByValuePartitions() {
        agreesUnderCoveringGenomes(ONE_GROUP);
        List<String> rows = serial(engine.plan(ONE_GROUP));
        assertTrue(rows.get(0).startsWith("60000|"), rows.toString());
    }

    @Test
    void joinTablesBuiltByEveryStrategyAgree() {
        for (String sql : JOINS) {
            agreesUnderCoveringGenomes(sql);
            agreesUnderEveryCombination(sql, Sink.Build.class, Map.of(
                    JvmDimensions.HASH_TABLE, List.of("perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4"),
                    JvmDimensions.JOIN_BUILD, List.of("serial", "partitioned", "atomic")));
        }
    }

    /** The plan with every estimate (groups, build rows) multiplied by {@code factor}. */
    static QueryPlan scaled(QueryPlan plan, double factor) {
        List<Pipeline> pipelines = new ArrayList<>();
        for (Pipeline p : plan.pipelines()) {
            Sink s = switch (p.sink()) {
                case Sink.GroupAggregate ga -> new Sink.GroupAggregate(ga.keys(), ga.keyNames(), ga.aggs(), ga.ranges(),
                        ga.relationId(), ga.estimatedGroups() * factor);
                case Sink.Build b -> new Sink.Build(b.joinId(), b.keys(), b.payload(), b.payloadNames(), b.uniqueKeys(),
                        b.range(), b.estimatedRows() * factor, b.commonKeyTypes());
                default -> p.sink();
            };
            pipelines.add(new Pipeline(p.id(), p.source(), p.operations(), s));
        }
        return new QueryPlan(pipelines, plan.resultRelation(), plan.resultColumns(), plan.values());
    }

    static String aggregation(QueryPlan plan, Map<Integer, Genome> genomes) {
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.GroupAggregate) {
                return genomes.get(p.id()).get(JvmDimensions.AGGREGATION);
            }
        }
        throw new AssertionError("no grouping pipeline");
    }

    @Test
    void estimatesAThousandTimesOffCostOnlySpeed() {
        for (String sql : List.of(MANY_GROUPS, JOINS.get(1), JOINS.get(3))) {
            QueryPlan plan = engine.plan(sql);
            List<String> expected = serial(plan);
            for (double factor : new double[] {1e-3, 1e3}) {
                QueryPlan wrong = scaled(plan, factor);
                Map<Integer, Genome> defaults = Genomes.defaults(SPACE, wrong);
                assertEquals(expected, run(wrong, defaults), sql + " with estimates times " + factor);
            }
        }
        // the default aggregation follows the estimate: per-worker tables for few groups, partitions for many
        QueryPlan plan = engine.plan(MANY_GROUPS);
        String few = aggregation(plan, Genomes.defaults(SPACE, scaled(plan, 1e-3)));
        String many = aggregation(plan, Genomes.defaults(SPACE, scaled(plan, 1e3)));
        assertEquals("hash", few);
        assertEquals("partitioned", many);
        assertNotEquals(few, many);
    }
}
