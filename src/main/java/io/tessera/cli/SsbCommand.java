package io.tessera.cli;

import io.tessera.api.QueryResult;
import io.tessera.api.Tessera;
import io.tessera.bench.Queries;
import io.tessera.cli.format.OutputFormat;
import io.tessera.data.Progress;
import io.tessera.data.ssb.SsbGenerator;
import io.tessera.storage.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The main job: Star Schema Benchmark data at a scale factor (generated once), and its 13 queries with their times. */
@Command(name = "ssb", mixinStandardHelpOptions = true,
        description = "Generate SSB data at the scale factor if it is not there yet, run the 13 SSB queries, "
                + "print each result and its time.")
public final class SsbCommand implements Runnable {

    @Option(names = "--sf", defaultValue = "1", description = "scale factor (default: ${DEFAULT-VALUE})")
    double sf;

    @Option(names = "--db", paramLabel = "DIR", description = "database directory (default: tessera-data/ssb-sfX)")
    Path db;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "auto",
            description = "gpu, cpu or auto (the GPU when there is one); default: ${DEFAULT-VALUE}")
    String device;

    @Option(names = "--format", defaultValue = "table", converter = OutputFormat.Converter.class,
            description = "result format: table, csv or json (default: ${DEFAULT-VALUE})")
    OutputFormat format;

    @Override
    public void run() {
        Path dir = db != null ? db : Path.of("tessera-data", "ssb-sf" + trim(sf));
        if (!Files.isRegularFile(dir.resolve("manifest.json"))) {
            System.out.println("Generating SSB SF " + trim(sf) + " into " + dir + " ...");
            try (Database d = Database.openOrCreate(dir)) {
                new SsbGenerator(sf, SsbGenerator.DEFAULT_SEED).generate(d, Progress.forStandardOutput());
            }
        }
        PrintWriter out = new PrintWriter(System.out, true);
        double total = 0;
        try (Tessera t = Tessera.open(dir, io.tessera.exec.Device.parse(device))) {
            for (Queries.Query q : Queries.ssb()) {
                QueryResult r = t.query(q.sql());
                double compileMs = r.compileNanos() / 1e6;
                double runMs = r.executeNanos() / 1e6;
                total += compileMs + runMs;
                out.printf(Locale.ROOT, "-- SSB %s: %d rows, %.1f ms (compile %.1f ms, run %.1f ms) on %s%n",
                        q.name(), r.rowCount(), compileMs + runMs, compileMs, runMs, r.execution().device());
                if (r.execution().notice() != null) {
                    out.println("-- " + r.execution().notice());
                }
                format.formatter().write(r, out);
                out.println();
            }
        }
        out.printf(Locale.ROOT, "13 queries in %.1f ms (first runs, compile included; `tessera bench ssb` measures warm runs)%n", total);
    }

    private static String trim(double sf) {
        return sf == Math.rint(sf) ? Long.toString((long) sf) : Double.toString(sf);
    }
}
