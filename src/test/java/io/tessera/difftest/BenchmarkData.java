package io.tessera.difftest;

import java.nio.file.Path;

/**
 * Builds the SSB and TPC-H databases the differential tests run on, with Tessera's own generators
 * ({@code io.tessera.data}): SSB's lineorder, customer, supplier, part and ddate; TPC-H's eight tables.
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
