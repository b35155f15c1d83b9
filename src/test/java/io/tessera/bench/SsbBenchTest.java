package io.tessera.bench;

import io.tessera.storage.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SsbBenchTest {

    @Test
    void measuresEveryQueryOnBothSides(@TempDir Path dir) {
        TinySsb.build(dir, 5, 5_000);
        try (Database db = Database.open(dir); DuckDbPeer a = DuckDbPeer.inMemory(db);
             DuckDbPeer b = DuckDbPeer.inMemory(db)) {
            List<SsbBench.Row> rows = SsbBench.run(a::query, b::query, Queries.ssb(), 2, null);
            assertEquals(13, rows.size());
            for (SsbBench.Row r : rows) {
                assertTrue(r.tesseraMs() >= 0 && r.peerMs() >= 0, r.toString());
                assertTrue(r.rows() >= 0 && !r.rowCountsDiffer(), r.toString());
            }
            String table = SsbBench.format(rows, "DuckDB");
            assertTrue(table.contains("q4.3"), table);
            assertTrue(table.contains("geomean"), table);
        }
    }

    @Test
    void reportsAFailingSideWithoutStopping() {
        List<SsbBench.Row> rows = SsbBench.run(sql -> {
            throw new UnsupportedOperationException("the SQL engine is being built");
        }, null, Queries.ssb().subList(0, 2), 1, null);
        String table = SsbBench.format(rows, "DuckDB");
        assertTrue(table.contains("q1.1: Tessera failed: the SQL engine is being built"), table);
    }

    @Test
    void warmsUpUntilARunIsNoLongerMuchFaster() {
        // the run times (ms) a side reports as it warms up: the third is not much faster than the second, so three warm-ups
        double[] times = {900, 300, 280, 270, 260};
        int[] at = {0};
        int runs = SsbBench.warmUp(() -> times[at[0]++]);
        assertEquals(3, runs);
        // a side that is warm at once still runs twice; one that keeps getting faster stops at the limit
        at[0] = 0;
        double[] flat = {50, 50, 50, 50};
        assertEquals(2, SsbBench.warmUp(() -> flat[at[0]++]));
        at[0] = 0;
        double[] falling = {400, 200, 100, 50, 25};
        assertEquals(SsbBench.MAX_WARM_UPS, SsbBench.warmUp(() -> falling[at[0]++]));
    }

    @Test
    void medianAndGeomean() {
        assertEquals(2.0, SsbBench.median(new double[]{3, 1, 2}));
        assertEquals(2.5, SsbBench.median(new double[]{4, 1, 2, 3}));
        assertEquals(4.0, SsbBench.geomean(List.of(2.0, 8.0)), 1e-12);
    }
}
