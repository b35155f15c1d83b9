package io.tessera.difftest;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The TPC-H queries as the specification writes them (with its validation parameters) beyond the benchmark's
 * subset, in Tessera and in DuckDB on generated data ({@code -Dtessera.difftest.tpchSf}, default 0.01): the ones
 * with outer joins, subqueries of every kind and non-equality join conditions. Q15 (a view) and Q22 (SUBSTRING)
 * join the list when those run.
 */
class TpchSpecDifferentialTest extends BenchmarkDifferentialTest {

    @Override
    double scaleFactor() {
        return Double.parseDouble(System.getProperty("tessera.difftest.tpchSf", "0.01"));
    }

    @Override
    void build(Path dir, double sf) {
        BenchmarkData.buildTpch(dir, sf);
    }

    static List<String> queries() {
        return List.of("q2", "q7", "q8", "q9", "q11", "q13", "q16", "q17", "q18", "q20", "q21");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void agreesWithDuckDb(String name) throws IOException {
        try (InputStream in = TpchSpecDifferentialTest.class.getResourceAsStream("/io/tessera/queries/tpch/" + name + ".sql")) {
            harness.check(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip().replaceAll(";$", ""));
        }
    }
}
