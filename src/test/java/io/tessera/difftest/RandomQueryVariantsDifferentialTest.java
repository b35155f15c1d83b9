package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Random queries over the seeded star schema (NULLs, strings, DECIMALs, semi and anti joins, COUNT(DISTINCT),
 * computed keys), each run under a random valid JVM genome per pipeline and compared with DuckDB: the variants
 * must agree on every query shape, not only on SSB's. {@code -Dtessera.difftest.variantSeed=N} explores other
 * genomes; a failure names the query's seed and the genomes.
 */
class RandomQueryVariantsDifferentialTest {

    static final int QUERIES = 150;

    /** A valid genome of the pipeline drawn at random: each dimension's value uniformly, redrawn until valid. */
    static Genome randomGenome(JvmVariantSpace space, QueryPlan plan, Pipeline p, Random r) {
        List<Dimension> dims = space.dimensions(plan, p);
        for (int attempt = 0; attempt < 1000; attempt++) {
            Map<String, String> m = new LinkedHashMap<>();
            for (Dimension d : dims) {
                m.put(d.name(), d.values().get(r.nextInt(d.values().size())));
            }
            Genome g = Genome.of(space.backend(), m);
            if (space.valid(plan, p, g)) {
                return g;
            }
        }
        throw new AssertionError("no valid genome found for pipeline " + p.id());
    }

    @Test
    void randomQueriesAgreeWithDuckDbUnderRandomVariants(@TempDir Path dir) {
        long dataSeed = DifferentialTestSupport.dataSeed();
        long seed = Long.getLong("tessera.difftest.variantSeed", 7L);
        StarSchema schema = StarSchemaBuilder.build(dir, dataSeed);
        List<RandomQueryGenerator.Generated> qs = new RandomQueryGenerator(schema).generate(seed, QUERIES);
        JvmVariantSpace space = new JvmVariantSpace();
        try (Tessera t = Tessera.open(dir); DuckDbPeer duck = DuckDbPeer.inMemory(t.database())) {
            List<String> failures = new ArrayList<>();
            for (RandomQueryGenerator.Generated q : qs) {
                Random r = new Random(q.seed());
                AtomicReference<Map<Integer, Genome>> chosen = new AtomicReference<>();
                DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(duck),
                        DifferentialHarness.tessera(t, "Tessera", plan -> chosen.updateAndGet(x -> Genomes.forPlan(space, plan,
                                p -> randomGenome(space, plan, p, r)))));
                DifferentialHarness.Failure f = h.run(q.sql(), q.seed());
                if (f != null) {
                    failures.add(f.message() + "\ngenomes: " + chosen.get());
                }
            }
            if (!failures.isEmpty()) {
                throw new AssertionError(failures.size() + " of " + qs.size() + " queries failed (data seed " + dataSeed
                        + ", variant run seed " + seed + ")\n\n" + String.join("\n\n", failures.subList(0, Math.min(5, failures.size()))));
            }
        }
    }
}
