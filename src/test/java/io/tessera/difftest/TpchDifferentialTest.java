package io.tessera.difftest;

import io.tessera.bench.Queries;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;

/**
 * The TPC-H subset (Q1, Q3, Q4, Q5, Q6, Q10, Q12, Q14, Q19 with the validation parameters) in Tessera and in
 * DuckDB on generated TPC-H data ({@code -Dtessera.difftest.tpchSf}, default 0.01). Needs
 * {@link BenchmarkData#buildTpch}.
 */
class TpchDifferentialTest extends BenchmarkDifferentialTest {

    /** {@code -Dtessera.difftest.tpchSf}, default 0.01. */
    @Override
    double scaleFactor() {
        return Double.parseDouble(System.getProperty("tessera.difftest.tpchSf", "0.01"));
    }

    @Override
    void build(Path dir, double sf) {
        BenchmarkData.buildTpch(dir, sf);
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
