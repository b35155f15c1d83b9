package io.tessera.cli;

import io.tessera.bench.Queries;
import io.tessera.profile.ProfileStore;
import io.tessera.storage.Database;
import io.tessera.tune.CrossDevice;
import io.tessera.tune.Strategies;
import io.tessera.tune.TuneReport;
import io.tessera.tune.TuningDevice;
import io.tessera.tune.TuningReports;
import io.tessera.tune.TuningResult;
import io.tessera.tune.WorkloadTuner;
import io.tessera.variant.Genome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code tessera tune --db DIR --workload ssb|tpch|FILE --strategy NAME [--device cpu|cpu:N|gpu,...]}: learns
 * the genomes of a workload on each device and stores them in the profile of the device, which queries then use.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = "Learn the fastest genomes for a workload on this machine's devices and store them in the "
                + "device profiles that queries use.")
public final class TuneCommand implements Callable<Integer> {

    @Mixin
    DbOption db;

    @Option(names = "--workload", paramLabel = "ssb|tpch|FILE", defaultValue = "ssb",
            description = "a benchmark suite's queries, or a file of SQL queries separated by ';' (default: ${DEFAULT-VALUE})")
    String workload;

    @Option(names = "--strategy", paramLabel = "NAME", defaultValue = "feature-wise",
            description = "exhaustive, feature-wise, plateau or online-pool (default: ${DEFAULT-VALUE})")
    String strategy;

    @Option(names = "--device", paramLabel = "LIST", defaultValue = "cpu",
            description = "devices to tune for, comma-separated: cpu, cpu:N (N cores), gpu, gpu:K (default: ${DEFAULT-VALUE}); "
                    + "with several, their genomes are also run on each other")
    String device;

    @Option(names = "--query", paramLabel = "NAME", split = ",", description = "only these queries of a suite (e.g. q1.1,q2.1)")
    List<String> only;

    @Option(names = "--profiles", paramLabel = "DIR",
            description = "profile directory (default: profiles in the cache directory: " + "$TESSERA_CACHE_DIR, "
                    + "$XDG_CACHE_HOME/tessera or ~/.cache/tessera)")
    Path profiles;

    @Option(names = "--report", paramLabel = "FILE", description = "also write an HTML page of charts")
    Path report;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "5",
            description = "interleaved rounds of the final default-against-tuned measurement (default: ${DEFAULT-VALUE})")
    int rounds;

    @Override
    public Integer call() {
        String strat = Strategies.canonical(strategy);
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
        }
        List<WorkloadTuner.Query> queries = workload(workload, only);
        ProfileStore store = profiles == null ? ProfileStore.openDefault() : new ProfileStore(profiles);
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        List<TuningDevice> devices = TuningDevice.parseList(device);
        try (Database d = Database.open(db.db)) {
            List<WorkloadTuner.DeviceOutcome> outcomes = new ArrayList<>();
            Throwable failure = null;
            try {
                WorkloadTuner tuner = new WorkloadTuner(d, strat, Strategies.Settings.DEFAULT, store, rounds, System.err);
                for (TuningDevice dev : devices) {
                    WorkloadTuner.DeviceOutcome o = tuner.tune(dev, queries);
                    outcomes.add(o);
                    print(out, o, store);
                }
                List<CrossDevice.Matrix> matrices = new ArrayList<>();
                if (devices.size() > 1) {
                    for (int q = 0; q < queries.size(); q++) {
                        List<io.tessera.tune.Target> targets = new ArrayList<>();
                        List<Map<Integer, Genome>> tuned = new ArrayList<>();
                        for (WorkloadTuner.DeviceOutcome o : outcomes) {
                            targets.add(o.queries().get(q).target());
                            tuned.add(o.queries().get(q).profiled());
                        }
                        matrices.add(CrossDevice.measure(queries.get(q).label(), targets, tuned, rounds));
                    }
                    printMatrices(out, matrices);
                }
                if (report != null) {
                    TuneReport.write(report, report(strat, outcomes, matrices));
                    out.println("report: " + report);
                }
            } catch (RuntimeException | Error e) {
                failure = e;
                throw e;
            } finally {
                // the targets the outcomes hold open (their engines, a GPU's runtime), before the database closes;
                // a failure to close never hides the one that ended the work
                io.tessera.tune.Targets.closeAll(outcomes.stream().flatMap(o -> o.queries().stream())
                        .map(WorkloadTuner.QueryOutcome::target).toList(), failure);
            }
        } finally {
            devices.forEach(TuningDevice::close);
        }
        return 0;
    }

    static List<WorkloadTuner.Query> workload(String workload, List<String> only) {
        String w = workload.toLowerCase(Locale.ROOT);
        List<WorkloadTuner.Query> out = new ArrayList<>();
        if (w.equals(Queries.SSB) || w.equals(Queries.TPCH)) {
            List<String> wanted = only == null ? null : only.stream().map(n -> n.toLowerCase(Locale.ROOT).startsWith("q")
                    ? n.toLowerCase(Locale.ROOT) : "q" + n.toLowerCase(Locale.ROOT)).toList();
            for (Queries.Query q : Queries.all(w)) {
                if (wanted == null || wanted.contains(q.name())) {
                    out.add(new WorkloadTuner.Query(q.name(), q.sql()));
                }
            }
            if (wanted != null && out.size() != wanted.size()) {
                throw new IllegalArgumentException("no query " + wanted + " in suite " + w + " " + Queries.names(w));
            }
        } else {
            if (only != null) {
                throw new IllegalArgumentException("--query selects queries of a suite, not of a file");
            }
            Path f = Path.of(workload);
            String text;
            try {
                text = Files.readString(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the workload " + f + " (not ssb, tpch or a readable file): "
                        + e.getMessage());
            }
            int i = 0;
            for (String sql : StatementSplitter.statements(text)) {
                out.add(new WorkloadTuner.Query(f.getFileName() + "#" + (++i), sql));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("the workload " + workload + " has no queries");
        }
        return out;
    }

    private static void print(PrintWriter out, WorkloadTuner.DeviceOutcome o, ProfileStore store) {
        out.printf(Locale.ROOT, "%s tuned with %s (%s)%n", o.device().describe(), o.strategy(), o.device().fingerprint());
        TextTable t = new TextTable(List.of("query", "tuned pipeline", "default ms", "tuned ms", "speedup", "variants",
                "cost s", "genome"), List.of(false, false, true, true, true, true, true, false));
        for (WorkloadTuner.QueryOutcome q : o.queries()) {
            TuningResult r = q.result();
            t.add(List.of(q.query().label(), q.focusShape(), ms(q.defaultSeconds()), ms(q.tunedSeconds()),
                    String.format(Locale.ROOT, "%.2f", q.defaultSeconds() / q.tunedSeconds()),
                    Integer.toString(r.variants()), String.format(Locale.ROOT, "%.1f", r.costSeconds()),
                    q.focusGenome() + " (" + (o.profile().entry(q.focusShape()) == null ? "not stored"
                            : q.origins().get(q.target().focus())) + ")"));
        }
        t.print(out);
        for (String n : o.notes()) {
            out.println(n);
        }
        out.printf(Locale.ROOT, "profile: %s (%d pipeline shapes)%n%n", store.file(o.device().fingerprint()),
                o.profile().entries().size());
    }

    static String ms(double s) {
        return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.2f", s * 1e3);
    }

    static void printMatrices(PrintWriter out, List<CrossDevice.Matrix> ms) {
        out.println("cross-device matrix: rows tuned for a device, columns run on a device; ms (ratio to the "
                + "column's own genomes)");
        for (CrossDevice.Matrix m : ms) {
            List<String> header = new ArrayList<>();
            header.add(m.query());
            List<Boolean> right = new ArrayList<>();
            right.add(false);
            for (String d : m.devices()) {
                header.add("on " + d);
                right.add(true);
            }
            TextTable t = new TextTable(header, right);
            for (int i = 0; i < m.devices().size(); i++) {
                List<String> row = new ArrayList<>();
                row.add("tuned for " + m.devices().get(i));
                for (int j = 0; j < m.devices().size(); j++) {
                    row.add(Double.isNaN(m.seconds()[i][j]) ? "n/a" : String.format(Locale.ROOT, "%s (%.2fx)",
                            ms(m.seconds()[i][j]), m.ratio(i, j)));
                }
                t.add(row);
            }
            t.print(out);
        }
        out.println();
    }

    static String report(String strategy, List<WorkloadTuner.DeviceOutcome> outcomes, List<CrossDevice.Matrix> ms) {
        List<String> facts = new ArrayList<>();
        facts.add("strategy: " + strategy + "; written " + Instant.now());
        List<TuneReport.Chart> runtimes = new ArrayList<>();
        List<TuneReport.Chart> convergence = new ArrayList<>();
        int k = 0;
        for (WorkloadTuner.DeviceOutcome o : outcomes) {
            facts.add(o.device().describe() + " - " + o.device().fingerprint());
            Map<String, TuningResult> byQuery = new LinkedHashMap<>();
            for (WorkloadTuner.QueryOutcome q : o.queries()) {
                byQuery.put(q.query().label(), q.result());
            }
            runtimes.add(TuningReports.runtimes("runtimes-" + k, o.device().name() + ": variant runtimes, sorted", byQuery));
            convergence.add(TuningReports.convergence("convergence-" + k, o.device().name() + ": " + strategy
                    + " convergence", byQuery, Double.NaN));
            k++;
        }
        List<TuneReport.Section> sections = new ArrayList<>();
        sections.add(new TuneReport.Section("Variant runtimes", "Every variant the strategy measured, per query, "
                + "fastest to slowest, as a multiple of the fastest.", runtimes, List.of()));
        sections.add(new TuneReport.Section("Convergence", "The best time known as tuning went on, as a multiple of "
                + "the final best.", convergence, List.of()));
        if (!ms.isEmpty()) {
            sections.add(new TuneReport.Section("Cross-device matrix", "The genomes tuned for each device, run on "
                    + "every device; ratio to the genomes tuned for the device they ran on.", List.of(),
                    List.of(TuningReports.matrix("matrix", "tuned for (rows), run on (columns)", ms))));
        }
        return TuneReport.html("Tessera tuning report", facts, sections);
    }
}
