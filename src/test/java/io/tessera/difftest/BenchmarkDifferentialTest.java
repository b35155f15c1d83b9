package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * Generated benchmark data at a scale factor, opened in Tessera and copied into DuckDB once per class, with a
 * harness that runs each query on both and compares the answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class BenchmarkDifferentialTest {

    Tessera tessera;
    DuckDbPeer duck;
    DifferentialHarness harness;

    /** The scale factor of the data. */
    abstract double scaleFactor();

    /** Writes the benchmark's tables at scale factor {@code sf} into a new database in {@code dir}. */
    abstract void build(Path dir, double sf);

    @BeforeAll
    void data(@TempDir Path dir) {
        build(dir, scaleFactor());
        tessera = Tessera.open(dir);
        duck = DuckDbPeer.inMemory(tessera.database());
        harness = new DifferentialHarness(DifferentialHarness.duckdb(duck), DifferentialHarness.tessera(tessera));
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
}
