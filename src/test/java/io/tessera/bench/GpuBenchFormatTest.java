package io.tessera.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The GPU benchmark's table: DuckDB's time beside the GPU's, the speed-up geomean and the queries DuckDB won. */
class GpuBenchFormatTest {

    private static GpuBench.Row row(String q, double e2e, double jvm, double peer) {
        return new GpuBench.Row(q, e2e / 2, e2e, 1_000_000, 0.1, 500_000, 0.05, jvm, peer, "cuda, default genomes",
                null);
    }

    @Test
    void peerColumnsAndTheirGeomeanWithTheQueriesSlowerThanThePeer() {
        String out = GpuBench.format(List.of(row("q1", 2.0, 40.0, 80.0), row("q2", 10.0, 50.0, 5.0)), 16);
        assertTrue(out.lines().findFirst().orElseThrow().contains("DuckDB/GPU"), out);
        String q1 = out.lines().filter(l -> l.startsWith("q1 ")).findFirst().orElseThrow();
        assertTrue(q1.contains("80.00") && q1.contains("40.0"), q1); // DuckDB ms and DuckDB/GPU = 80 / 2
        String q2 = out.lines().filter(l -> l.startsWith("q2 ")).findFirst().orElseThrow();
        assertTrue(q2.contains(" 0.5 "), q2);
        // sqrt(40 * 0.5) = 4.47
        assertTrue(out.contains("geomean DuckDB/GPU end to end: 4.5x over 2 queries; 1 slower on the GPU than DuckDB"),
                out);
    }

    @Test
    void withoutAPeerNoPeerGeomean() {
        String out = GpuBench.format(List.of(row("q1", 2.0, 40.0, Double.NaN)), 16);
        assertFalse(out.contains("geomean DuckDB/GPU"), out);
        assertTrue(out.contains("geomean JVM/GPU end to end: 20.0x"), out);
    }

    @Test
    void thePeerSpeedUpIsThePeersTimeOverTheGpusEndToEnd() {
        assertEquals(40.0, row("q1", 2.0, 40.0, 80.0).peerSpeedup(), 1e-12);
    }
}
