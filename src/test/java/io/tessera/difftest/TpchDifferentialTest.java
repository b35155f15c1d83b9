package io.tessera.difftest;

import io.tessera.bench.Queries;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

/**
 * The 22 TPC-H queries (the specification's text with its validation parameters) in Tessera and in DuckDB on
 * generated TPC-H data ({@code -Dtessera.difftest.tpchSf}, default 0.01).
 */
class TpchDifferentialTest extends TpchDifferentialBase {

    static List<String> queries() {
        return Queries.tpch().stream().map(Queries.Query::name).toList();
    }

    @ParameterizedTest
    @MethodSource("queries")
    void agreesWithDuckDb(String name) {
        harness.check(Queries.sql("tpch", name));
    }
}
