package io.tessera.cli;

import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.tpch.TpchGenerator;
import io.tessera.storage.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code tessera gen ssb|tpch}: generates a benchmark's tables into a database. */
@Command(name = "gen", mixinStandardHelpOptions = true,
        description = "Generate benchmark data (SSB, TPC-H) into a database.",
        subcommands = {GenCommand.Ssb.class, GenCommand.Tpch.class})
public final class GenCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(name = "ssb", mixinStandardHelpOptions = true,
            description = "Star Schema Benchmark: lineorder, customer, supplier, part, ddate.")
    static final class Ssb implements Callable<Integer> {
        @Mixin
        DbOption db;

        @Mixin
        NoWaitOption noWait;

        @Option(names = "--sf", required = true, paramLabel = "X", description = "scale factor (0.01, 0.1, 1, 10, ...)")
        double sf;

        @Option(names = "--seed", paramLabel = "N", description = "random seed; the same seed and SF give the same data (default: ${DEFAULT-VALUE})")
        long seed = SsbGenerator.DEFAULT_SEED;

        @Override
        public Integer call() {
            SsbGenerator gen = new SsbGenerator(sf, seed);
            long t0 = System.nanoTime();
            Map<String, Long> rows = into(db.db, noWait.waits(), d -> gen.generate(d, GenerationProgress.forConsole()));
            summary("SSB", sf, rows, t0, db.db.toString());
            return 0;
        }
    }

    @Command(name = "tpch", mixinStandardHelpOptions = true,
            description = "TPC-H: the eight tables with the reference generator's rows.")
    static final class Tpch implements Callable<Integer> {
        @Mixin
        DbOption db;

        @Mixin
        NoWaitOption noWait;

        @Option(names = "--sf", required = true, paramLabel = "X", description = "scale factor (0.01, 0.1, 1, 10, ...)")
        double sf;

        @Override
        public Integer call() {
            TpchGenerator gen = new TpchGenerator(sf);
            long t0 = System.nanoTime();
            Map<String, Long> rows = into(db.db, noWait.waits(), d -> gen.generate(d, GenerationProgress.forConsole()));
            summary("TPC-H", sf, rows, t0, db.db.toString());
            return 0;
        }
    }

    /**
     * Generates into a new database (a directory that is absent or empty) whole or not at all, through a sibling
     * directory renamed when complete ({@link GeneratedData}); into an existing database table by table, each
     * table committed on its own.
     */
    static Map<String, Long> into(java.nio.file.Path dir, boolean waitForWriters,
                                  java.util.function.Function<Database, Map<String, Long>> gen) {
        if (!GeneratedData.absentOrEmpty(dir)) {
            try (Database d = Database.openOrCreate(dir, waitForWriters)) {
                return gen.apply(d);
            }
        }
        java.util.concurrent.atomic.AtomicReference<Map<String, Long>> rows = new java.util.concurrent.atomic.AtomicReference<>();
        GeneratedData.generate(dir, d -> rows.set(gen.apply(d)), false);
        return rows.get();
    }

    private static void summary(String bench, double sf, Map<String, Long> rows, long t0, String dir) {
        long total = rows.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf(Locale.ROOT, "%s SF %s: %,d rows in %d tables, %.2f s, into %s%n", bench,
                stripZeros(sf), total, rows.size(), (System.nanoTime() - t0) / 1e9, dir);
    }

    private static String stripZeros(double sf) {
        return new java.math.BigDecimal(Double.toString(sf)).stripTrailingZeros().toPlainString();
    }
}
