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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runtime join filters as the estimates choose them, per probe, on tables large enough for them to pay: 400,000 fact
 * rows (keys in [0, 4,000,000), a twentieth NULL) probe the 200,000-row dim's keys (in [2,000,000, 42,000,000), a
 * tenth NULL: too wide a range for a perfect table), filtered to a tenth. The default genome takes a Bloom filter (a
 * hashed table that most rows miss) and a range test (half the fact keys lie below dim's); each query's answer under
 * the default genomes, under none and under every value equals DuckDB's. Inner, semi and mark probes (the preserved
 * side built), one and two keys, NULL keys on both sides.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JoinFilterEstimatesDifferentialTest {

    private static final String PRESERVED = "tessera.joins.preserved";

    private Tessera tessera;
    private DuckDbPeer duck;

    @BeforeAll
    void data(@TempDir Path dir) throws IOException {
        Path files = Files.createDirectories(dir.resolve("files"));
        tessera = Tessera.openOrCreate(dir.resolve("db"));
        tessera.allowCopyFrom(files);
        Random rnd = new Random(35);
        table(files, "fact", 400_000, 0, 4_000_000, 20, rnd);
        table(files, "dim", 200_000, 2_000_000, 42_000_000, 10, rnd);
        table(files, "near", 40_000, 0, 400_000, 10, rnd);
        duck = DuckDbPeer.inMemory(tessera.database());
    }

    /** A table (k INTEGER, k2 INTEGER NOT NULL, g INTEGER NOT NULL): k in [lo, hi) or NULL, k2 in 0..7, g in 0..99. */
    private void table(Path files, String name, int rows, int lo, int hi, int nullEvery, Random rnd) {
        Path csv = files.resolve(name + ".csv");
        try (Writer out = Files.newBufferedWriter(csv)) {
            for (int i = 0; i < rows; i++) {
                String k = rnd.nextInt(nullEvery) == 0 ? "" : Integer.toString(lo + rnd.nextInt(hi - lo));
                out.write(k + "," + rnd.nextInt(8) + "," + rnd.nextInt(100) + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        tessera.query("CREATE TABLE " + name + " (k INTEGER, k2 INTEGER NOT NULL, g INTEGER NOT NULL)");
        tessera.query("COPY " + name + " FROM '" + csv + "' (FORMAT csv)");
    }

    /**
     * A perfect table that most probing rows miss: near's keys span 400,000 values (1.6 MB of slots, beyond a core's
     * cache), a tenth of its 40,000 rows built, probed by the 400,000 fact rows in no key order. The default genome
     * tests its presence bits before the lookup, on four cores and on sixteen (where a Bloom filter is not the
     * default), and the answer equals DuckDB's.
     */
    @Test
    void aLargePerfectTableMostRowsMissIsTestedByItsPresenceBits() {
        String sql = "SELECT count(*), sum(f.g), sum(n.g), min(f.k), max(f.k) FROM fact f JOIN near n ON f.k = n.k"
                + " WHERE n.g < 10";
        QueryEngine engine = tessera.engine();
        QueryPlan plan = engine.plan(sql);
        QueryResult expected = duck.query(sql);
        for (int cores : new int[] {4, 16}) {
            JvmVariantSpace space = new JvmVariantSpace(cores, false);
            List<String> sources = new ArrayList<>();
            Map<Integer, Genome> defaults = Genomes.forPlan(space, plan, p -> space.defaultGenome(plan, p));
            QueryResult actual = engine.run(engine.prepareJvm(plan, defaults, (name, source) -> {
                sources.add(source);
                return JavaCompiler.compile(name, source);
            }));
            assertNull(new ResultComparator().compare(sql, expected, actual), cores + " cores\n" + plan.explain());
            String code = String.join("\n", sources);
            assertTrue(code.contains("presence bits on"), cores + " cores: presence bits tested\n" + plan.explain());
            assertFalse(code.contains("BloomFilter.mayContain("), cores + " cores: no Bloom filter");
        }
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

    /**
     * {@code tests}: what the default genomes' code must test before the probes, "range" and "bloom" (a key range
     * and a Bloom filter) or "bloom" alone.
     */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        // inner, one key: the probe keys reach below dim's
        "probe; range bloom; SELECT count(*), sum(f.g), sum(d.g), min(f.k), max(f.k) FROM fact f JOIN dim d ON f.k = d.k WHERE d.g < 10",
        // inner, two keys in a hashed table
        "probe; range bloom; SELECT count(*), sum(f.g + d.g), min(f.k2) FROM fact f JOIN dim d ON f.k = d.k AND f.k2 = d.k2 WHERE d.g < 10",
        // semi: the build keys are the subquery's, whose range the statistics do not give
        "probe; bloom; SELECT count(*), sum(g) FROM fact WHERE k IN (SELECT k FROM dim WHERE g < 10)",
        // semi with the preserved side built: fact's probe marks dim's rows
        "build; range bloom; SELECT count(*), sum(g) FROM dim d WHERE g < 10 AND EXISTS (SELECT 1 FROM fact f WHERE f.k = d.k)",
        // inner and left probes in one pipeline: only the inner one is tested
        "probe; range bloom; SELECT count(*), sum(d.g), count(e.g) FROM fact f JOIN dim d ON f.k = d.k"
                + " LEFT JOIN dim e ON f.k = e.k AND e.g = 3 WHERE d.g < 10"
    })
    void theEstimatesChooseFiltersThatDropRowsAndTheAnswerStays(String preserved, String tests, String sql) {
        String before = System.getProperty(PRESERVED);
        System.setProperty(PRESERVED, preserved);
        try {
            QueryEngine engine = tessera.engine();
            JvmVariantSpace space = new JvmVariantSpace(4, false);
            QueryPlan plan = engine.plan(sql);
            QueryResult expected = duck.query(sql);
            List<String> sources = new ArrayList<>();
            Map<Integer, Genome> defaults = Genomes.forPlan(space, plan, p -> space.defaultGenome(plan, p));
            QueryResult actual = engine.run(engine.prepareJvm(plan, defaults, (name, source) -> {
                sources.add(source);
                return JavaCompiler.compile(name, source);
            }));
            assertNull(new ResultComparator().compare(sql, expected, actual), sql + "\n" + plan.explain());
            String filtered = null;
            for (Pipeline p : plan.pipelines()) {
                Genome g = defaults.get(p.id());
                if (g.has(JvmDimensions.JOIN_FILTER) && !g.get(JvmDimensions.JOIN_FILTER).equals("none")) {
                    assertEquals(RuntimeFilters.estimatedStrategy(p), g.get(JvmDimensions.JOIN_FILTER));
                    filtered = g.get(JvmDimensions.JOIN_FILTER);
                }
            }
            assertEquals("bloom", filtered, "the default genome's join filter\n" + plan.explain());
            // on more cores than JvmVariantSpace.FILTERING_CORES the default is none where a test would be a Bloom
            // filter (the tuner still tries each); tessera.joinfilter=estimates sets the estimates' choice there
            JvmVariantSpace many = new JvmVariantSpace(16, false);
            for (Pipeline p : plan.pipelines()) {
                Genome g = many.defaultGenome(plan, p);
                if (g.has(JvmDimensions.JOIN_FILTER)) {
                    assertEquals("none", g.get(JvmDimensions.JOIN_FILTER), "16 cores: " + g);
                    System.setProperty(JvmVariantSpace.JOIN_FILTER_DEFAULT, "estimates");
                    try {
                        assertEquals(RuntimeFilters.estimatedStrategy(p),
                                many.defaultGenome(plan, p).get(JvmDimensions.JOIN_FILTER),
                                "16 cores under " + JvmVariantSpace.JOIN_FILTER_DEFAULT + "=estimates");
                    } finally {
                        System.clearProperty(JvmVariantSpace.JOIN_FILTER_DEFAULT);
                    }
                }
            }
            String code = String.join("\n", sources);
            assertTrue(code.contains("BloomFilter.mayContain("), "a Bloom test in the code");
            assertEquals(tests.contains("range"), code.contains(".keyRanges()"), "a range test in the code: " + tests);
            for (String value : List.of("none", "range", "bloom")) {
                Map<Integer, Genome> forced = Genomes.forPlan(space, plan, p -> {
                    Genome g = space.defaultGenome(plan, p);
                    return g.has(JvmDimensions.JOIN_FILTER) ? g.with(JvmDimensions.JOIN_FILTER, value) : g;
                });
                QueryResult other = engine.run(engine.prepareJvm(plan, forced, JavaCompiler::compile));
                assertNull(new ResultComparator().compare(sql, expected, other), sql + " under joinfilter=" + value);
            }
        } finally {
            if (before == null) {
                System.clearProperty(PRESERVED);
            } else {
                System.setProperty(PRESERVED, before);
            }
        }
    }
}
