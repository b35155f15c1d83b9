package io.tessera.cli;

import io.tessera.bench.GpuSelfTest;
import io.tessera.bench.Queries;
import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.tpch.TpchGenerator;
import io.tessera.exec.Device;
import io.tessera.storage.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code tessera selftest --device gpu [--sf X]}: generates SSB and TPC-H data, runs every benchmark query and a few
 * queries whose scans materialize rows ({@link GpuSelfTest#SSB_ROWS}, {@link GpuSelfTest#TPCH_ROWS}) on the GPU, under
 * the default genomes and a covering set of genome variants, and compares each result with the JVM backend's.
 */
@Command(name = "selftest", mixinStandardHelpOptions = true,
        description = "Check the GPU backend against the JVM backend on generated SSB and TPC-H data.")
public final class SelftestCommand implements Callable<Integer> {

    @Option(names = "--device", defaultValue = "gpu", paramLabel = "DEVICE", description = "the device to check (gpu)")
    String device;

    @Option(names = "--sf", defaultValue = "1", paramLabel = "X",
            description = "SSB scale factor, 0 for none (default: ${DEFAULT-VALUE})")
    double sf;

    @Option(names = "--tpch-sf", defaultValue = "0.1", paramLabel = "X",
            description = "TPC-H scale factor, 0 for none (default: ${DEFAULT-VALUE})")
    double tpchSf;

    @Option(names = {"--data-dir", "--dir"}, paramLabel = "DIR",
            description = "where the generated data goes (default: tessera-data/selftest in the current directory)")
    Path dir;

    @Option(names = "--no-variants", description = "only the default genomes")
    boolean noVariants;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "run each prepared GPU query N times, comparing every answer (default: ${DEFAULT-VALUE})")
    int repeat;

    @Option(names = "--query", paramLabel = "NAME", split = ",",
            description = "only these queries, by name (q3, rows-sort) or suite and name (tpch/q3, ssb/q1.1): a covering "
                    + "run split over several calls")
    List<String> only = new ArrayList<>();

    /** Why there is no usable GPU, or null when there is one; a field so that a test can stand in for a machine. */
    java.util.function.Supplier<String> gpuUnavailable =
            io.tessera.backend.cuda.runtime.GpuRuntime::unavailableReason;

    @Override
    public Integer call() {
        if (Device.parse(device) != Device.GPU) {
            throw new IllegalArgumentException("selftest checks the GPU backend against the JVM backend: use --device gpu");
        }
        // before anything is generated or run: without a GPU every check would only run on the JVM
        String noGpu = gpuUnavailable.get();
        if (noGpu != null) {
            System.err.println("tessera selftest: no usable GPU on this machine (" + noGpu.strip().replace('\n', ' ') + ")");
            return 2;
        }
        PrintStream out = System.out;
        Path root = dir != null ? dir : Path.of(UserFiles.DEFAULT_DATA_DIR, "selftest");
        List<Suite> suites = new ArrayList<>();
        if (sf > 0) {
            suites.add(new Suite("ssb", root.resolve("ssb-sf" + sf), concat(Queries.ssb(), GpuSelfTest.SSB_ROWS),
                    d -> new SsbGenerator(sf, SsbGenerator.DEFAULT_SEED).generate(d, Progress.silent())));
        }
        if (tpchSf > 0) {
            suites.add(new Suite("tpch", root.resolve("tpch-sf" + tpchSf), concat(Queries.tpch(), GpuSelfTest.TPCH_ROWS),
                    d -> new TpchGenerator(tpchSf).generate(d, Progress.silent())));
            // tables whose columns hold NULLs, made from TPC-H's at SF 1 at most (a copy of lineitem's rows)
            double nullsSf = Math.min(tpchSf, 1);
            suites.add(new Suite("nulls", root.resolve("nulls-sf" + nullsSf), GpuSelfTest.NULLS, d -> {
                new TpchGenerator(nullsSf).generate(d, Progress.silent());
                try (io.tessera.exec.QueryEngine e = new io.tessera.exec.QueryEngine(d,
                        java.lang.Runtime.getRuntime().availableProcessors(), Device.CPU)) {
                    GpuSelfTest.NULLS_TABLES.forEach(e::execute);
                }
            }));
        }
        // a name that matches nothing is an error, not a green run that checked nothing
        for (String name : only) {
            if (suites.stream().noneMatch(s -> s.queries().stream().anyMatch(q -> s.names(q, name)))) {
                System.err.println("tessera selftest: no query named '" + name + "' in "
                        + String.join(" or ", suites.stream().map(Suite::name).toList()));
                return 2;
            }
        }
        List<GpuSelfTest.Check> checks = new ArrayList<>();
        long leaks = 0;
        for (Suite s : suites) {
            List<Queries.Query> queries = s.queries().stream().filter(q -> s.selects(q, only)).toList();
            if (queries.isEmpty()) {
                continue;
            }
            generate(s.dir(), s.generator(), out);
            try (Database db = Database.open(s.dir()); GpuSelfTest t = new GpuSelfTest(db, out, repeat)) {
                for (Queries.Query q : queries) {
                    checks.addAll(t.run(s.name() + "/" + q.name(), q.sql(), !noVariants));
                }
                leaks += otherBuffers(t, out);
            }
        }
        long failed = checks.stream().filter(c -> !c.passed()).count();
        long onGpu = checks.stream().filter(c -> c.passed() && c.notOnGpu() == null).count();
        java.util.Map<String, String> jvmOnly = new java.util.TreeMap<>();
        checks.stream().filter(c -> c.notOnGpu() != null).forEach(c -> jvmOnly.putIfAbsent(c.query(), c.notOnGpu()));
        io.tessera.backend.cuda.driver.CudaMemoryStats.Snapshot mem = io.tessera.backend.cuda.driver.CudaMemoryStats.snapshot();
        if (!mem.nothingLive()) {
            leaks++;
        }
        out.printf(Locale.ROOT, "selftest: %d checks, %d matched the JVM backend on the GPU, %d ran on the JVM only, "
                + "%d differed%n", checks.size(), onGpu, checks.size() - failed - onGpu, failed);
        jvmOnly.forEach((q, why) -> out.println("  on the JVM only: " + q + ": " + why));
        String graphs = io.tessera.backend.cuda.exec.CudaBackend.graphSummary();
        if (graphs != null) {
            out.println(graphs);
        }
        for (GpuSelfTest.Check c : checks) {
            if (!c.passed()) {
                out.println("  DIFFERED " + c.query() + " " + c.variant() + ": " + c.difference());
            }
        }
        out.println("device memory after closing the runtime: " + mem + (mem.nothingLive() ? " (nothing left)" : " (LEAKED)"));
        return failed == 0 && leaks == 0 ? 0 : 1;
    }

    /** One suite's data and queries (its benchmark queries, then the row and group shapes the selftest adds). */
    private record Suite(String name, Path dir, List<Queries.Query> queries, GeneratedData.Generator generator) {
        boolean selects(Queries.Query q, List<String> only) {
            return only.isEmpty() || only.stream().anyMatch(n -> names(q, n));
        }

        boolean names(Queries.Query q, String name) {
            return name.equals(q.name()) || name.equals(this.name + "/" + q.name());
        }
    }

    private static List<Queries.Query> concat(List<Queries.Query> a, List<Queries.Query> b) {
        List<Queries.Query> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Generates {@code dir} whole unless it is there (see {@link GeneratedData}). */
    static void generate(Path dir, GeneratedData.Generator g, PrintStream out) {
        GeneratedData.generateOnce(dir, g, out);
    }

    /**
     * The device buffers left after a database's checks that are neither its GPU runtime's cached columns nor its
     * pooled buffers (every other buffer is freed after each query), printed; the database's runtime is closed
     * after this, with its engines.
     */
    private static long otherBuffers(GpuSelfTest t, PrintStream out) {
        io.tessera.backend.cuda.runtime.GpuRuntime rt = t.runtime();
        long live = io.tessera.backend.cuda.driver.CudaMemoryStats.liveDeviceBuffers();
        long other = live - rt.columns().size() - rt.pool().freeBuffers();
        out.printf(Locale.ROOT, "device buffers between queries: %d (%d cached columns, %d pooled, %d other)%n", live,
                rt.columns().size(), rt.pool().freeBuffers(), other);
        return other;
    }
}
