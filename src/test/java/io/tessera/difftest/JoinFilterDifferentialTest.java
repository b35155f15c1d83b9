package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;
import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.bench.DuckDbPeer;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.RuntimeFilters;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runtime join filters ({@code joinfilter=none|range|bloom}) against DuckDB: joins whose filters drop most, none and
 * all probing rows, keys outside the build side's range, NULL keys on both sides, two-key and string joins, and
 * every join kind (the filters may only drop rows of inner, semi and mark probes). Each query runs with every pipeline
 * that has the dimension forced to each value (the other dimensions at their defaults) and every filterable probe
 * given the value's tests ({@link RuntimeFilters#EVERY_PROBE}: on tables this small the estimates would choose none),
 * and under the preserved side built and probed ({@code tessera.joins.preserved}).
 * {@link JoinFilterEstimatesDifferentialTest} runs the filters the estimates choose, on larger tables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JoinFilterDifferentialTest {

    private static final String PRESERVED = "tessera.joins.preserved";

    /** Clears the every-probe switch and sets the preserved-side switch back to {@code before} (none where null). */
    private static void restoreProperties(String before) {
        System.clearProperty(RuntimeFilters.EVERY_PROBE);
        if (before == null) {
            System.clearProperty(PRESERVED);
        } else {
            System.setProperty(PRESERVED, before);
        }
    }

    private Tessera tessera;
    private DuckDbPeer duck;
    /** Whether a source generated under joinfilter=bloom since it was cleared tests a perfect table's presence bits. */
    private boolean presenceBits;

    @BeforeAll
    void data(@TempDir Path dir) {
        tessera = Tessera.openOrCreate(dir);
        Random rnd = new Random(35);
        // fact: 3,000 rows, keys 0..999 (a twentieth NULL), k2 0..3, strings of 40 values
        table("fact", 3000, 1000, 20, rnd);
        // dim: 400 rows over keys 0..1999 (half of them beyond fact's), a tenth NULL
        table("dim", 400, 2000, 10, rnd);
        tessera.query("CREATE TABLE none_of (k INTEGER, k2 INTEGER NOT NULL, s VARCHAR, g INTEGER NOT NULL)");
        duck = DuckDbPeer.inMemory(tessera.database());
    }

    /** A table (k INTEGER, k2 INTEGER NOT NULL, s VARCHAR, g INTEGER NOT NULL): k in [0, keys), g in 0..99. */
    private void table(String name, int rows, int keys, int nullEvery, Random rnd) {
        tessera.query("CREATE TABLE " + name + " (k INTEGER, k2 INTEGER NOT NULL, s VARCHAR, g INTEGER NOT NULL)");
        StringBuilder sql = new StringBuilder("INSERT INTO " + name + " VALUES ");
        for (int i = 0; i < rows; i++) {
            String k = rnd.nextInt(nullEvery) == 0 ? "NULL" : Integer.toString(rnd.nextInt(keys));
            String s = rnd.nextInt(nullEvery) == 0 ? "NULL" : "'s" + rnd.nextInt(keys / 25) + "'";
            sql.append(i == 0 ? "" : ", ").append("(").append(k).append(", ").append(rnd.nextInt(4)).append(", ")
                    .append(s).append(", ").append(rnd.nextInt(100)).append(")");
        }
        tessera.query(sql.toString());
    }

    @AfterAll
    void close() {
        if (duck != null) {
            duck.close();
        }
        if (tessera != null) {
            tessera.close();
        }
    }

    /** Inner and semi joins: at least one pipeline of each has the dimension. */
    static final List<String> FILTERED = List.of(
            // most dropped: few dim rows, keys spread over fact's range
            "SELECT f.k, f.g, d.g FROM fact f JOIN dim d ON f.k = d.k WHERE d.g < 5",
            // none dropped by the filter: every fact key matches (a self join on distinct keys)
            "SELECT f.k, count(*) FROM fact f JOIN (SELECT DISTINCT k FROM fact) d ON f.k = d.k GROUP BY f.k",
            // all dropped: an empty build side, and a build side outside the probe keys' range
            "SELECT f.k, d.g FROM fact f JOIN dim d ON f.k = d.k WHERE d.g > 1000",
            "SELECT f.k, d.g FROM fact f JOIN dim d ON f.k = d.k WHERE d.k >= 1000",
            "SELECT f.k, e.g FROM fact f JOIN none_of e ON f.k = e.k",
            // a narrow key range
            "SELECT f.k, f.g, d.g FROM fact f JOIN dim d ON f.k = d.k WHERE d.k BETWEEN 100 AND 180",
            // two keys, strings (the probe side's codes mapped to the build's dictionary), repeated build keys
            "SELECT f.k, f.k2, d.g FROM fact f JOIN dim d ON f.k = d.k AND f.k2 = d.k2 WHERE d.g < 50",
            "SELECT f.s, f.g, d.g FROM fact f JOIN dim d ON f.s = d.s WHERE d.g < 3",
            "SELECT f.k2, count(*), sum(d.g) FROM fact f JOIN dim d ON f.k2 = d.k2 WHERE d.g < 2 GROUP BY f.k2",
            // two probes in one pipeline, the second filtered before the first
            "SELECT f.k, d.g, d2.g FROM fact f JOIN dim d ON f.k = d.k JOIN dim d2 ON f.k2 = d2.k2 AND d2.g = 7",
            // semi joins, with and without a residual condition
            "SELECT k, g FROM fact WHERE k IN (SELECT k FROM dim WHERE g < 10)",
            "SELECT k, g FROM fact f WHERE EXISTS (SELECT 1 FROM dim d WHERE d.k = f.k AND d.g > f.g)",
            "SELECT count(*) FROM fact WHERE s IN (SELECT s FROM dim WHERE g < 20)",
            // an inner join beside anti and mark joins: those keep the rows without a match
            "SELECT f.k, d.g FROM fact f JOIN dim d ON f.k = d.k WHERE d.g < 30"
                    + " AND NOT EXISTS (SELECT 1 FROM dim x WHERE x.k = f.k AND x.g > 90)",
            "SELECT f.k, d.g, f.k2 IN (SELECT k2 FROM dim WHERE g = 3) FROM fact f JOIN dim d ON f.k = d.k WHERE d.g < 10",
            "SELECT f.g, d.g, d2.k FROM fact f JOIN dim d ON f.k = d.k LEFT JOIN dim d2 ON f.k2 = d2.k AND d2.g < 40"
                    + " WHERE d.g < 20");

    /** Joins that keep rows without a match, on their own: the dimension may or may not apply. */
    static final List<String> KEPT = List.of(
            "SELECT f.k, f.g, d.g FROM fact f LEFT JOIN dim d ON f.k = d.k AND d.g < 5",
            "SELECT f.k, d.k, d.g FROM dim d LEFT JOIN fact f ON f.k = d.k AND f.g < 3",
            "SELECT f.k, d.k FROM fact f FULL JOIN dim d ON f.k = d.k AND d.g < 10 AND f.g < 10",
            "SELECT f.k, d.k FROM (SELECT * FROM fact WHERE g < 5) f RIGHT JOIN dim d ON f.k = d.k",
            "SELECT k, g FROM fact WHERE k NOT IN (SELECT k FROM dim WHERE k IS NOT NULL AND g < 50)",
            "SELECT k, g FROM fact f WHERE NOT EXISTS (SELECT 1 FROM dim d WHERE d.k = f.k)",
            "SELECT k, k IN (SELECT k FROM dim WHERE g < 10) FROM fact",
            "SELECT d.k, count(f.k) FROM dim d LEFT JOIN fact f ON f.k = d.k GROUP BY d.k");

    @ParameterizedTest
    @ValueSource(strings = {"build", "probe"})
    void everyStrategyAgreesWithDuckDb(String preserved) {
        String before = System.getProperty(PRESERVED);
        System.setProperty(PRESERVED, preserved);
        System.setProperty(RuntimeFilters.EVERY_PROBE, "true");
        try {
            presenceBits = false;
            for (String sql : FILTERED) {
                assertTrue(check(sql), "no pipeline of " + sql + " has a runtime join filter");
            }
            assertTrue(presenceBits, "no perfect table's probe tested its presence bits under bloom");
            for (String sql : KEPT) {
                check(sql);
            }
        } finally {
            restoreProperties(before);
        }
    }

    /** Runs the query under each joinfilter value and compares with DuckDB; whether some pipeline has the dimension. */
    private boolean check(String sql) {
        QueryEngine engine = tessera.engine();
        JvmVariantSpace space = new JvmVariantSpace(4, false);
        QueryPlan plan = engine.plan(sql);
        QueryResult expected = duck.query(sql);
        boolean filtered = false;
        for (String value : List.of("none", "range", "bloom")) {
            Map<Integer, Genome> genomes = Genomes.forPlan(space, plan, p -> forced(space, plan, p, value));
            filtered |= genomes.values().stream().anyMatch(g -> g.has(JvmDimensions.JOIN_FILTER));
            QueryResult actual = engine.run(engine.prepareJvm(plan, genomes, (name, source) -> {
                // a perfect table's filter under bloom is its presence bits (JoinFilterEmitter)
                presenceBits |= value.equals("bloom") && source.contains("presence bits on");
                return JavaCompiler.compile(name, source);
            }));
            assertNull(new ResultComparator().compare(sql, expected, actual),
                    sql + " under joinfilter=" + value + "\n" + plan.explain());
        }
        return filtered;
    }

    private static Genome forced(JvmVariantSpace space, QueryPlan plan, Pipeline p, String value) {
        Genome g = space.defaultGenome(plan, p);
        return g.has(JvmDimensions.JOIN_FILTER) ? g.with(JvmDimensions.JOIN_FILTER, value) : g;
    }

    /**
     * Probes filtered after another probe of their pipeline: inner, semi and mark probes, keys with NULLs, two keys.
     * {@code preserved}: which side of the mark probe's join is built.
     */
    static final List<String[]> AFTER_ANOTHER_PROBE = List.of(
            // inner after inner: the second probe's two keys (one with NULLs) tested after the first probe's lookup
            new String[] {"probe", "SELECT f.k, f.k2, d.g, d2.g FROM fact f JOIN dim d ON f.k2 = d.k2 AND d.g = 7"
                    + " JOIN dim d2 ON f.k = d2.k AND f.k2 = d2.k2 WHERE d2.g < 60"},
            // semi after inner: NULL keys on both sides
            new String[] {"probe", "SELECT f.k, f.g, d.g FROM fact f JOIN dim d ON f.k2 = d.k2 AND d.g = 3"
                    + " WHERE f.k IN (SELECT k FROM dim WHERE g < 30)"},
            // a mark probe after an inner one (fact's rows mark dim's rows they match)
            new String[] {"build", "SELECT d.k, d.g FROM dim d WHERE d.g < 40 AND EXISTS (SELECT 1 FROM fact f"
                    + " JOIN dim e ON f.k2 = e.k2 AND e.g = 5 WHERE f.k = d.k)"});

    /**
     * A probe's filter is tested just before its own lookup, after the probes ahead of it: a row the first probe drops
     * never reaches the second probe's test. Every filterable probe gets its tests ({@link RuntimeFilters#EVERY_PROBE}),
     * and each query's answer under range and bloom equals its answer without filters and DuckDB's.
     */
    @Test
    void aFilterAfterAnotherProbeIsTestedJustBeforeItsOwnLookup() {
        String before = System.getProperty(PRESERVED);
        System.setProperty(RuntimeFilters.EVERY_PROBE, "true");
        java.util.Set<io.tessera.plan.JoinKind> kinds = java.util.EnumSet.noneOf(io.tessera.plan.JoinKind.class);
        try {
            for (String[] q : AFTER_ANOTHER_PROBE) {
                System.setProperty(PRESERVED, q[0]);
                String sql = q[1];
                QueryEngine engine = tessera.engine();
                JvmVariantSpace space = new JvmVariantSpace(4, false);
                QueryPlan plan = engine.plan(sql);
                QueryResult unfiltered = null;
                for (String value : List.of("none", "range", "bloom")) {
                    Map<Integer, Genome> genomes = Genomes.forPlan(space, plan, p -> forced(space, plan, p, value));
                    List<String> sources = new java.util.ArrayList<>();
                    QueryResult actual = engine.run(engine.prepareJvm(plan, genomes, (name, source) -> {
                        sources.add(source);
                        return JavaCompiler.compile(name, source);
                    }));
                    if (unfiltered == null) {
                        unfiltered = actual;
                        assertNull(new ResultComparator().compare(sql, duck.query(sql), actual), sql + "\n" + plan.explain());
                        continue;
                    }
                    assertNull(new ResultComparator().compare(sql, unfiltered, actual),
                            sql + " under joinfilter=" + value + " against none\n" + plan.explain());
                    for (Pipeline p : plan.pipelines()) {
                        List<io.tessera.plan.Operation.Probe> probes = RuntimeFilters.filterable(p.operations());
                        for (int i = 1; i < probes.size() && genomes.get(p.id()).has(JvmDimensions.JOIN_FILTER); i++) {
                            String code = sources.stream().filter(c -> c.contains("class Pipeline" + p.id() + " "))
                                    .findFirst().orElseThrow();
                            assertAfterProbe(code, probes.get(i - 1).joinId(), probes.get(i).joinId(), sql);
                            kinds.add(probes.get(i).kind());
                        }
                    }
                }
            }
        } finally {
            restoreProperties(before);
        }
        assertEquals(java.util.EnumSet.of(io.tessera.plan.JoinKind.INNER, io.tessera.plan.JoinKind.SEMI,
                io.tessera.plan.JoinKind.MARK), kinds, "the kinds of probe filtered after another probe");
    }

    /**
     * In a pipeline's code, join {@code second}'s filter comes after join {@code first}'s lookup and its drop of rows
     * without a match, and nothing but the test lies between the filter and {@code second}'s own lookup.
     */
    private static void assertAfterProbe(String code, int first, int second, String sql) {
        int firstDrop = code.indexOf("if (r" + first + " < 0) continue;");
        int filter = code.indexOf("// JOIN FILTER of j" + second + " ");
        int lookup = code.indexOf("int r" + second + " ");
        assertTrue(firstDrop > 0 && filter > firstDrop, "j" + second + "'s filter after j" + first + "'s lookup: " + sql
                + "\n" + code);
        assertTrue(lookup > filter, "j" + second + "'s filter before its lookup: " + sql + "\n" + code);
        String between = code.substring(filter, lookup);
        assertTrue(!between.contains("// PROBE") && !between.contains("// FILTER"),
                "only the test between j" + second + "'s filter and its lookup: " + between);
        assertEquals(-1, code.indexOf("// JOIN FILTER of j" + second + " ", filter + 1), "one test of j" + second);
    }

    /** The default genome takes the estimates' choice: none for 3,000 probing rows whose keys lie in the table's range. */
    @Test
    void theDefaultIsTheEstimatesChoice() {
        JvmVariantSpace space = new JvmVariantSpace(4, false);
        QueryPlan small = tessera.engine().plan(FILTERED.get(0));
        int filterable = 0;
        for (Pipeline p : small.pipelines()) {
            Genome g = space.defaultGenome(small, p);
            if (g.has(JvmDimensions.JOIN_FILTER)) {
                filterable++;
                assertEquals(RuntimeFilters.estimatedStrategy(p), g.get(JvmDimensions.JOIN_FILTER), "the default: " + g);
                assertEquals("none", g.get(JvmDimensions.JOIN_FILTER), "3,000 probing rows, keys inside dim's range");
            }
        }
        assertTrue(filterable > 0, "a pipeline with a filterable probe");
    }
}
