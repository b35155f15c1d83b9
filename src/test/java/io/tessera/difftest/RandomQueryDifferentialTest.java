package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/**
 * 500 random queries over the seeded star schema, each answered by Tessera and by DuckDB and compared. The
 * seeds are fixed by default; {@code -Dtessera.difftest.seed=N} (queries) and {@code -Dtessera.difftest.dataSeed=N}
 * (data) explore others, and a failure names the seed of the query that failed.
 */
class RandomQueryDifferentialTest {

    @Test
    void tesseraAgreesWithDuckDbOnRandomQueries(@TempDir Path dir) {
        long dataSeed = DifferentialTestSupport.dataSeed();
        long seed = DifferentialTestSupport.querySeed();
        StarSchema schema = StarSchemaBuilder.build(dir, dataSeed);
        List<RandomQueryGenerator.Generated> qs = new RandomQueryGenerator(schema)
                .generate(seed, DifferentialTestSupport.queries());
        try (Tessera t = Tessera.open(dir); DuckDbPeer duck = DuckDbPeer.inMemory(t.database())) {
            DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(duck),
                    DifferentialHarness.tessera(t));
            try {
                h.checkAll(qs.stream().map(RandomQueryGenerator.Generated::sql).toList(),
                        qs.stream().map(RandomQueryGenerator.Generated::seed).toList());
            } catch (AssertionError e) {
                throw new AssertionError("data seed " + dataSeed + ", query run seed " + seed + ": "
                        + e.getMessage());
            }
        }
    }
}
