package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * For each {@link QueryConstruct} switched on ({@code -Dtessera.difftest.constructs}, see there), random queries
 * that use it, answered by Tessera and by DuckDB and compared: {@code tessera.difftest.constructQueries} (default
 * 40) queries per construct, each generated with that construct alone among the extensions.
 */
class RandomQueryConstructsDifferentialTest {

    @Test
    void tesseraAgreesWithDuckDbOnEachConstruct(@TempDir Path dir) {
        long dataSeed = DifferentialTestSupport.dataSeed();
        long seed = DifferentialTestSupport.querySeed();
        int perConstruct = Integer.getInteger("tessera.difftest.constructQueries", 40);
        StarSchema schema = StarSchemaBuilder.build(dir, dataSeed, 5_000);
        List<String> sqls = new ArrayList<>();
        List<Long> seeds = new ArrayList<>();
        for (QueryConstruct c : QueryConstruct.enabled()) {
            RandomQueryGenerator g = new RandomQueryGenerator(schema, EnumSet.of(c));
            int n = 0;
            for (int i = 0; n < perConstruct && i < perConstruct * 20; i++) {
                long s = RandomQueryGenerator.querySeed(seed + 1_000L * (c.ordinal() + 1), i);
                String sql = g.generate(s);
                if (RandomQueryExtensionsTest.MARKERS.get(c).matcher(sql).find()) {
                    sqls.add(sql);
                    seeds.add(s);
                    n++;
                }
            }
            assertTrue(n == perConstruct, c + ": only " + n + " queries use it");
        }
        try (Tessera t = Tessera.open(dir); DuckDbPeer duck = DuckDbPeer.inMemory(t.database())) {
            DifferentialHarness h = new DifferentialHarness(DifferentialHarness.duckdb(duck),
                    DifferentialHarness.tessera(t));
            try {
                h.checkAll(sqls, seeds);
            } catch (AssertionError e) {
                throw new AssertionError("constructs " + QueryConstruct.enabled() + ", data seed " + dataSeed
                        + " (5,000 fact rows), query run seed " + seed + ": " + e.getMessage());
            }
        }
    }
}
