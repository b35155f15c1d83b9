package io.tessera.difftest;

import java.nio.file.Path;

/**
 * INTEGRATION POINT: builds the SSB and TPC-H databases the differential tests run on. The generators live in
 * {@code io.tessera.data} (being written on branch {@code data}); until they are merged these methods throw, so
 * {@link SsbDifferentialTest} and {@link TpchDifferentialTest} fail rather than skip. To integrate, replace each
 * body with one call to the generator that writes the tables of that benchmark into a new Tessera database in
 * {@code dir} at scale factor {@code sf} (SSB: lineorder, customer, supplier, part, ddate; TPC-H: lineitem,
 * orders, customer, part, supplier, nation, region, partsupp).
 */
final class BenchmarkData {

    private BenchmarkData() {
    }

    /** Writes SSB at scale factor {@code sf} into a new database in {@code dir}. */
    static void buildSsb(Path dir, double sf) {
        // e.g. io.tessera.data.ssb.SsbGenerator.generate(dir, sf);
        throw new IllegalStateException("the SSB generator (io.tessera.data) is not available yet: "
                + "fill io.tessera.difftest.BenchmarkData.buildSsb(Path, double) when it lands");
    }

    /** Writes TPC-H at scale factor {@code sf} into a new database in {@code dir}. */
    static void buildTpch(Path dir, double sf) {
        // e.g. io.tessera.data.tpch.TpchGenerator.generate(dir, sf);
        throw new IllegalStateException("the TPC-H generator (io.tessera.data) is not available yet: "
                + "fill io.tessera.difftest.BenchmarkData.buildTpch(Path, double) when it lands");
    }
}
