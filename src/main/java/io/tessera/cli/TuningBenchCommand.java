package io.tessera.cli;

import io.tessera.storage.Database;
import io.tessera.tune.Strategies;
import io.tessera.tune.TuneReport;
import io.tessera.tune.TuningBench;
import io.tessera.tune.TuningDevice;
import io.tessera.tune.WorkloadTuner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code tessera bench tuning --db DIR [--device cpu,cpu:1]}: the strategies against exhaustive search on each
 * query of a workload, and the cross-device matrix.
 */
@Command(name = "tuning", mixinStandardHelpOptions = true,
        description = "Compare the tuning strategies with exhaustive search per query (ratio to the optimum, cost), "
                + "and run each device's genomes on the other devices.")
public final class TuningBenchCommand implements Callable<Integer> {

    @Mixin
    DbOption db;

    @Option(names = "--workload", paramLabel = "ssb|tpch|FILE", defaultValue = "ssb",
            description = "a benchmark suite's queries, or a file of SQL queries (default: ${DEFAULT-VALUE})")
    String workload;

    @Option(names = "--device", paramLabel = "LIST", defaultValue = "cpu,cpu:1",
            description = "devices, comma-separated; the first is tuned exhaustively, all form the cross-device matrix "
                    + "(default: ${DEFAULT-VALUE})")
    String device;

    @Option(names = "--query", paramLabel = "NAME", split = ",", description = "only these queries of a suite")
    List<String> only;

    @Option(names = "--strategies", paramLabel = "LIST", split = ",", defaultValue = "feature-wise,plateau,online-pool",
            description = "strategies compared with exhaustive search (default: ${DEFAULT-VALUE})")
    List<String> strategies;

    @Option(names = "--prune", paramLabel = "P", defaultValue = "3.0",
            description = "exhaustive and feature-wise cut a run at P times the best so far (default: ${DEFAULT-VALUE})")
    double prune;

    @Option(names = "--limit", paramLabel = "SECONDS", defaultValue = "10",
            description = "no run lasts longer (default: ${DEFAULT-VALUE})")
    double limit;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "9",
            description = "interleaved rounds when re-measuring the found genomes (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--hold", paramLabel = "DIM", split = ",",
            description = "dimensions every strategy leaves at their defaults, e.g. occ,bm,gather,ppred: a space "
                    + "small enough for exhaustive search")
    List<String> hold = List.of();

    @Option(names = "--sf", paramLabel = "X", description = "scale factor of the data (shown in the output)")
    Double sf;

    @Option(names = "--report", paramLabel = "FILE", description = "also write an HTML page of charts")
    Path report;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "also write every measurement of every search as CSV (query, strategy, variant, seconds)")
    Path trace;

    @Override
    public Integer call() {
        List<String> compared = strategies.stream().map(Strategies::canonical).toList();
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
        }
        List<WorkloadTuner.Query> queries = TuneCommand.workload(workload, only);
        Strategies.Settings d = Strategies.Settings.DEFAULT;
        Strategies.Settings settings = new Strategies.Settings(prune, limit, d.plateauBlock(), d.plateauRuns(),
                d.poolBlock(), d.poolQueries(), d.poolSize(), d.seed(), false).holding(java.util.Set.copyOf(hold));
        List<TuningDevice> devices = TuningDevice.parseList(device);
        long t0 = System.nanoTime();
        try (Database database = Database.open(db.db)) {
            TuningBench bench = new TuningBench(database, devices, compared, settings, rounds, System.err);
            List<TuningBench.QueryRow> rows = new ArrayList<>();
            for (WorkloadTuner.Query q : queries) {
                rows.add(bench.run(q));
            }
            List<String> facts = new ArrayList<>();
            facts.add(String.format(Locale.ROOT, "workload %s%s, %d queries; %.0f s in all", workload,
                    sf == null ? "" : " at SF " + sf, queries.size(), (System.nanoTime() - t0) / 1e9));
            for (TuningDevice dev : devices) {
                facts.add(dev.describe() + " (" + dev.fingerprint() + ")");
            }
            facts.add(String.format(Locale.ROOT, "exhaustive and feature-wise: runs cut at %.2f x the best so far or "
                    + "%.0f s; plateau descent on blocks of %d rows; online pool of %d on blocks of %d rows over %d "
                    + "queries; found genomes re-measured in %d interleaved rounds", prune, limit, d.plateauBlock(),
                    d.poolSize(), d.poolBlock(), d.poolQueries(), rounds)
                    + (hold.isEmpty() ? "" : "; held at their defaults: " + String.join(", ", hold)));
            for (String f : facts) {
                System.out.println(f);
            }
            System.out.println();
            System.out.print(TuningBench.format(rows, compared));
            if (report != null) {
                TuneReport.write(report, TuningBench.report(rows, facts));
                System.out.println("report: " + report);
            }
            if (trace != null) {
                TuningTraceCsv.write(trace, rows);
                System.out.println("trace: " + trace);
            }
        } finally {
            devices.forEach(TuningDevice::close);
        }
        return 0;
    }
}
