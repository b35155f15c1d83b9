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
        try (io.tessera.storage.Database db = io.tessera.storage.Database.openOrCreate(dir)) {
            new io.tessera.data.ssb.SsbGenerator(sf, io.tessera.data.ssb.SsbGenerator.DEFAULT_SEED)
                    .generate(db, io.tessera.data.Progress.silent());
        }
    }

    /** Writes TPC-H at scale factor {@code sf} into a new database in {@code dir}. */
    static void buildTpch(Path dir, double sf) {
        try (io.tessera.storage.Database db = io.tessera.storage.Database.openOrCreate(dir)) {
            new io.tessera.data.tpch.TpchGenerator(sf).generate(db, io.tessera.data.Progress.silent());
        }
    }
}
