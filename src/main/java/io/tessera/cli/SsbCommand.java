package io.tessera.cli;

import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import io.tessera.bench.Queries;
import io.tessera.cli.format.OutputFormat;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.data.ssb.SsbSchema;
import io.tessera.storage.TableSchema;
import io.tessera.storage.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The main job: Star Schema Benchmark data at a scale factor (generated once), and its 13 queries with their times. */
@Command(name = "ssb", mixinStandardHelpOptions = true,
        description = "Generate SSB data at the scale factor if it is not there yet, run the 13 SSB queries, "
                + "print each result and its time.")
public final class SsbCommand implements Runnable {

    @Option(names = "--sf", defaultValue = "1", description = "scale factor (default: ${DEFAULT-VALUE})")
    double sf;

    @Option(names = "--db", paramLabel = "DIR", description = "database directory (default: ssb-sfX in the data directory)")
    Path db;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = UserFiles.DEFAULT_DATA_DIR,
            description = "where generated data goes when --db is not given (default: ${DEFAULT-VALUE} in the current "
                    + "directory)")
    Path dataDir;

    /** What generates the data into a new database; tests put a generator that stops part way here. */
    static volatile java.util.function.BiConsumer<Double, Database> generator =
            (sf, d) -> new SsbGenerator(sf, SsbGenerator.DEFAULT_SEED).generate(d, GenerationProgress.forConsole());

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "auto",
            description = "gpu, cpu or auto (the GPU when there is one); default: ${DEFAULT-VALUE}")
    String device;

    @Option(names = "--format", defaultValue = "table", converter = OutputFormat.Converter.class,
            description = "result format: table, csv or json (default: ${DEFAULT-VALUE})")
    OutputFormat format;

    @Override
    public void run() {
        Path dir = db != null ? db : dataDir.resolve("ssb-sf" + trim(sf));
        List<String> missing = missingTables(dir);
        if (!missing.isEmpty()) {
            boolean ours = db == null;
            if (!ours && !GeneratedData.absentOrEmpty(dir)) {
                throw new IllegalArgumentException(dir + " holds no complete SSB data (missing " + String.join(", ",
                        missing) + "): remove it, or choose another --db");
            }
            System.out.println("Generating SSB SF " + trim(sf) + " into " + dir + " ...");
            // into a sibling, renamed when complete: a stopped run leaves nothing a later run takes for data
            GeneratedData.generate(dir, d -> generator.accept(sf, d), ours);
        }
        PrintWriter out = new PrintWriter(System.out, true);
        double total = 0;
        try (Tessera t = Tessera.open(dir, io.tessera.exec.Device.parse(device))) {
            for (Queries.Query q : Queries.ssb()) {
                QueryResult r = t.query(q.sql());
                double compileMs = r.compileNanos() / 1e6;
                double runMs = r.executeNanos() / 1e6;
                total += compileMs + runMs;
                out.printf(Locale.ROOT, "-- SSB %s: %d %s, %.1f ms (compile %.1f ms, run %.1f ms) on %s%n",
                        q.name(), r.rowCount(), r.rowCount() == 1 ? "row" : "rows", compileMs + runMs, compileMs, runMs,
                        r.execution().device());
                if (r.execution().notice() != null) {
                    out.println("-- " + r.execution().notice());
                }
                format.formatter().write(r, out);
                out.println();
            }
        }
        out.printf(Locale.ROOT, "13 queries in %.1f ms (first runs, compile included; `tessera bench ssb` measures warm runs)%n", total);
    }

    /** The SSB tables {@code dir} lacks (all of them when it is no database). */
    static List<String> missingTables(Path dir) {
        List<String> missing = new java.util.ArrayList<>();
        if (!Files.isRegularFile(dir.resolve("manifest.json"))) {
            SsbSchema.ALL.forEach(t -> missing.add(t.name()));
            return missing;
        }
        try (Database d = Database.open(dir)) {
            for (TableSchema t : SsbSchema.ALL) {
                if (!d.hasTable(t.name())) {
                    missing.add(t.name());
                }
            }
        }
        return missing;
    }

    private static String trim(double sf) {
        return sf == Math.rint(sf) ? Long.toString((long) sf) : Double.toString(sf);
    }
}
