package io.tessera.cli;

import io.tessera.api.QueryResult;
import io.tessera.api.ResultColumn;
import io.tessera.Tessera;
import io.tessera.cli.format.OutputFormat;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.storage.DataType;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genomes;
import io.tessera.variant.VariantSpace;
import io.tessera.variant.VariantSpaces;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * {@code tessera variants}: the code variants of a query's pipelines on a device: per pipeline its shape, the
 * dimensions that apply with their values, and how many valid genomes there are.
 */
@Command(name = "variants", mixinStandardHelpOptions = true,
        description = {"List the code variants of a query on a device: for each pipeline, the variant dimensions "
                + "that apply to it with their values, and the number of valid genomes.",
                "Dimensions a probe mirrors from the build it probes are not listed (they follow the build)."})
public final class VariantsCommand implements Callable<Integer> {

    /** The variant space of a device kind, if its backend declares one; tests put a stand-in here. */
    static volatile Function<String, Optional<VariantSpace>> spaces = VariantSpaces::forDevice;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    DbOption db;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = VariantSpaces.CPU,
            description = "device kind: cpu or gpu (default: ${DEFAULT-VALUE})")
    String device;

    @Option(names = {"-c", "--command"}, paramLabel = "SQL", required = true, description = "the query")
    String sql;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            converter = OutputFormat.Converter.class, completionCandidates = OutputFormat.Candidates.class,
            description = "output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    OutputFormat format;

    @Override
    public Integer call() {
        String d = device.toLowerCase(Locale.ROOT).strip();
        PrintWriter err = spec.commandLine().getErr();
        if (!VariantSpaces.DEVICES.contains(d)) {
            err.println("tessera: unknown device '" + device + "' (" + String.join(", ", VariantSpaces.DEVICES) + ")");
            err.flush();
            return 2;
        }
        VariantSpace space = spaces.apply(d).orElse(null);
        if (space == null) {
            err.println("tessera: no variant space for device " + d + " yet: its backend does not declare its variants");
            err.flush();
            return 1;
        }
        String text = sql.strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        try (Tessera t = Tessera.open(db.db)) {
            QueryPlan plan = t.engine().plan(text);
            List<Object[]> rows = new ArrayList<>();
            BigInteger total = BigInteger.ONE;
            for (Pipeline p : plan.pipelines()) {
                List<String> dims = new ArrayList<>();
                for (Dimension dim : space.dimensions(plan, p)) {
                    dims.add(dim.name() + "=" + String.join("|", dim.values()));
                }
                long count = Genomes.count(space, plan, p);
                total = total.multiply(BigInteger.valueOf(count));
                rows.add(new Object[] {p.id(), d, p.shape(), String.join(" ", dims), count});
            }
            QueryResult result = new QueryResult(List.of(
                    new ResultColumn("pipeline", DataType.INTEGER, false),
                    new ResultColumn("device", DataType.VARCHAR, false),
                    new ResultColumn("shape", DataType.VARCHAR, false),
                    new ResultColumn("dimensions", DataType.VARCHAR, false),
                    new ResultColumn("genomes", DataType.BIGINT, false)), rows, 0, 0);
            PrintWriter out = spec.commandLine().getOut();
            format.formatter().write(result, out);
            if (format == OutputFormat.TABLE) {
                out.println(total + " genome combinations for the whole query (the product over its pipelines; probes follow their builds)");
            }
            out.flush();
        }
        return 0;
    }
}
