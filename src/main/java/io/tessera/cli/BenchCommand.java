package io.tessera.cli;

import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;
import io.tessera.bench.Queries;
import io.tessera.bench.SsbBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code tessera bench ssb --db DIR [--sf X] [--runs N] [--peer duckdb|none]}: runs a suite's queries warm in
 * Tessera and in DuckDB on the same data and prints the medians side by side.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Run a benchmark suite (ssb, tpch) warm in Tessera and in a peer on the same database; "
                + "'bench tuning' compares the tuning strategies.",
        subcommands = {TuningBenchCommand.class, ConstantsBenchCommand.class, ImportBenchCommand.class,
                GpuSortBenchCommand.class, GpuSearchBenchCommand.class})
public final class BenchCommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", description = "ssb or tpch")
    String suite;

    // not required here, so that 'bench tuning' can take its own --db; checked in call()
    @Option(names = "--db", paramLabel = "DIR", description = "database directory")
    java.nio.file.Path db;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--sf", paramLabel = "X", description = "scale factor of the data (shown in the report; TPC-H's Q11 "
            + "depends on it: without it, the one the supplier table's rows give)")
    Double sf;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
            description = "timed runs per query after its warm-up (2 to 4 runs, until a run is no longer much faster; default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--peer", paramLabel = "PEER", defaultValue = "duckdb",
            description = "peer engine: duckdb or none (default: ${DEFAULT-VALUE})")
    String peer;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "cpu",
            description = "cpu: Tessera's JVM backend against the peer; gpu: kernel and end-to-end times against the "
                    + "bandwidth model, beside the JVM backend and the peer when its driver is there (default: ${DEFAULT-VALUE})")
    String device;

    @Option(names = "--cuda-genome", paramLabel = "DIM=VALUE", split = ",",
            description = "with --device gpu: these CUDA dimension values in every pipeline that allows them, e.g. tpb=256,ipt=4")
    java.util.Map<String, String> cudaGenome = new java.util.LinkedHashMap<>();

    @Option(names = "--no-jvm", description = "with --device gpu: do not measure the JVM backend beside it")
    boolean noJvm;

    @Option(names = "--query", paramLabel = "NAME", split = ",",
            description = "only these queries (e.g. q1.1,q2.1)")
    List<String> only;

    @Override
    public Integer call() {
        if (suite == null || db == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required "
                    + (suite == null ? "parameter: 'SUITE'" : "option: '--db=DIR'"));
        }
        String s = suite.toLowerCase(Locale.ROOT);
        List<Queries.Query> queries = Queries.all(s);
        if (only != null && !only.isEmpty()) {
            List<String> wanted = only.stream().map(n -> n.toLowerCase(Locale.ROOT).startsWith("q")
                    ? n.toLowerCase(Locale.ROOT) : "q" + n.toLowerCase(Locale.ROOT)).toList();
            queries = queries.stream().filter(q -> wanted.contains(q.name())).toList();
        }
        String p = peer.toLowerCase(Locale.ROOT);
        if (!p.equals("duckdb") && !p.equals("none")) {
            throw new IllegalArgumentException("unknown peer '" + peer + "' (duckdb, none)");
        }
        PrintStream out = System.out;
        if (io.tessera.exec.Device.parse(device) == io.tessera.exec.Device.GPU) {
            // DuckDB beside the GPU where its driver is on the class path (on a GPU machine it travels apart)
            boolean withPeer = p.equals("duckdb") && DuckDbPeer.driverPresent();
            if (p.equals("duckdb") && !withPeer) {
                out.println("peer: none (DuckDB's JDBC driver is not on the class path)");
            }
            try (Tessera t = Tessera.open(db); DuckDbPeer duck = withPeer ? openPeer(t, out) : null) {
                queries = atScale(queries, t);
                List<io.tessera.bench.GpuBench.Row> rows = io.tessera.bench.GpuBench.run(t.database(), queries, runs, out,
                        cudaGenome, !noJvm, duck == null ? null : duck::query);
                out.printf(Locale.ROOT, "%s%s on the GPU%s, %d runs after %.1f s of warm-up runs, medians, every query on the "
                        + "GPU before the JVM backend%s; model = bytes read / measured read bandwidth%n", s.toUpperCase(Locale.ROOT),
                        sf == null ? "" : " SF " + sf, cudaGenome.isEmpty() ? "" : " " + cudaGenome, runs,
                        io.tessera.bench.GpuBench.WARM_UP_SECONDS, duck == null ? "" : " and " + duck.version());
                out.print(io.tessera.bench.GpuBench.format(rows, Runtime.getRuntime().availableProcessors()));
                return rows.stream().allMatch(r -> r.error() == null || !r.device().equals("-")) ? 0 : 1;
            }
        }
        try (Tessera t = Tessera.open(db)) {
            queries = atScale(queries, t);
            DuckDbPeer duck = null;
            try {
                if (p.equals("duckdb")) {
                    duck = openPeer(t, out);
                }
                DuckDbPeer d = duck;
                List<SsbBench.Row> rows = SsbBench.run(t::query, d == null ? null : d::query, queries, runs,
                        System.err);
                out.printf(Locale.ROOT, "%s%s, %d runs after warm-up, medians, %d cores%s%n", s.toUpperCase(Locale.ROOT),
                        sf == null ? "" : " SF " + sf, runs, Runtime.getRuntime().availableProcessors(),
                        d == null ? "" : ", against " + d.version());
                out.print(SsbBench.format(rows, d == null ? "peer" : "DuckDB"));
                return rows.stream().allMatch(r -> r.tesseraError() == null) ? 0 : 1;
            } finally {
                if (duck != null) {
                    duck.close();
                }
            }
        }
    }

    /** The queries as the data's scale factor makes them (TPC-H's Q11), for Tessera and the peer alike. */
    private List<Queries.Query> atScale(List<Queries.Query> queries, Tessera t) {
        double scale = sf != null ? sf : Queries.tpchScale(t.database());
        return queries.stream().map(q -> Queries.atScale(q, scale)).toList();
    }

    /** DuckDB on a copy of the database's tables (made once, reused while the tables are unchanged). */
    private DuckDbPeer openPeer(Tessera t, PrintStream out) {
        out.println("preparing the DuckDB copy of " + db + " ...");
        DuckDbPeer duck = DuckDbPeer.open(t.database());
        out.println("peer: " + duck.version());
        out.println(duck.reused() ? "DuckDB copy is up to date"
                : String.format(Locale.ROOT, "DuckDB copy made in %.1f s", duck.loadNanos() / 1e9));
        return duck;
    }
}
