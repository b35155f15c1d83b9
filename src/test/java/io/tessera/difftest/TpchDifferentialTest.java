package io.tessera.difftest;

import io.tessera.api.Tessera;
import io.tessera.bench.DuckDbPeer;
import io.tessera.bench.Queries;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;

/**
 * The TPC-H subset (Q1, Q3, Q4, Q5, Q6, Q10, Q12, Q14, Q19 with the validation parameters) in Tessera and in
 * DuckDB on generated TPC-H data ({@code -Dtessera.difftest.tpchSf}, default 0.01). Needs
 * {@link BenchmarkData#buildTpch}; fails until the generator is integrated.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchDifferentialTest {

    Tessera tessera;
    DuckDbPeer duck;
    DifferentialHarness harness;

    /** The scale factor of the data ({@code -Dtessera.difftest.tpchSf}, default 0.01). */
    double scaleFactor() {
        return Double.parseDouble(System.getProperty("tessera.difftest.tpchSf", "0.01"));
    }

    @BeforeAll
    void data(@TempDir Path dir) {
        double sf = scaleFactor();
        BenchmarkData.buildTpch(dir, sf);
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

    static List<String> queries() {
        return Queries.tpch().stream().map(Queries.Query::name).toList();
    }

    @ParameterizedTest
    @MethodSource("queries")
    void agreesWithDuckDb(String name) {
        harness.check(Queries.sql("tpch", name));
    }
}
