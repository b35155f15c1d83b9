package io.tessera.difftest;

import io.tessera.api.QueryResult;
import io.tessera.bench.Queries;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each of the 13 SSB queries at scale factor 0.01 ({@code -Dtessera.difftest.variantsSf}) under a covering sample of JVM genomes (every value of every
 * dimension of every pipeline used at least once, {@link Genomes#coveringPlans}), each run compared with DuckDB.
 */
class SsbVariantsDifferentialTest extends BenchmarkDifferentialTest {

    /** {@code -Dtessera.difftest.variantsSf}, default 0.01. */
    @Override
    double scaleFactor() {
        return Double.parseDouble(System.getProperty("tessera.difftest.variantsSf", "0.01"));
    }

    @Override
    void build(Path dir, double sf) {
        BenchmarkData.buildSsb(dir, sf);
    }

    static List<Queries.Query> queries() {
        return Queries.ssb();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void everyVariantValueAgreesWithDuckDb(Queries.Query q) {
        JvmVariantSpace space = new JvmVariantSpace();
        QueryPlan plan = tessera.engine().plan(q.sql());
        List<Map<Integer, Genome>> plans = Genomes.coveringPlans(space, plan);

        // the sample covers every value of every free dimension of every pipeline
        Set<String> used = new HashSet<>();
        for (Map<Integer, Genome> m : plans) {
            for (Pipeline p : plan.pipelines()) {
                Genome g = m.get(p.id());
                assertTrue(space.valid(plan, p, g), "invalid genome " + g + " for pipeline " + p.id());
                g.values().forEach((k, v) -> used.add(p.id() + ":" + k + "=" + v));
            }
        }
        for (Pipeline p : plan.pipelines()) {
            for (Dimension d : space.dimensions(plan, p)) {
                for (String v : d.values()) {
                    assertTrue(used.contains(p.id() + ":" + d.name() + "=" + v),
                            q.name() + ": pipeline " + p.id() + " never runs with " + d.name() + "=" + v);
                }
            }
        }

        QueryResult expected = duck.query(q.sql());
        DifferentialHarness.Engine reference = new DifferentialHarness.Engine() {
            public String name() {
                return "DuckDB";
            }

            public QueryResult query(String sql) {
                return expected;
            }
        };
        for (Map<Integer, Genome> m : plans) {
            DifferentialHarness.Failure f = new DifferentialHarness(reference,
                    DifferentialHarness.tessera(tessera, "Tessera", pl -> m)).run(q.sql(), null);
            if (f != null) {
                throw new AssertionError(q.name() + " with genomes " + new TreeMap<>(m) + "\n" + f.message());
            }
        }
    }
}
