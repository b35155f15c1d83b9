package io.tessera.cli;

import io.tessera.Tessera;
import io.tessera.bench.Queries;
import io.tessera.bench.TinySsb;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Dimension;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;
import io.tessera.variant.VariantSpace;
import io.tessera.variant.VariantSpaces;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tessera variants}: one row per pipeline with its dimensions and genome count, as the space says. */
class VariantsCommandTest {

    @TempDir
    static Path dir;

    @BeforeAll
    static void data() {
        TinySsb.build(dir, 3, 2_000);
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = Main.run(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The rows the command should print for a query: computed from the plan and the space directly. */
    private static List<String> expectedCsvRows(String sql) {
        JvmVariantSpace space = new JvmVariantSpace();
        List<String> rows = new ArrayList<>();
        try (Tessera t = Tessera.open(dir)) {
            QueryPlan plan = t.engine().plan(sql);
            for (Pipeline p : plan.pipelines()) {
                List<String> dims = new ArrayList<>();
                for (Dimension d : space.dimensions(plan, p)) {
                    dims.add(d.name() + "=" + String.join("|", d.values()));
                }
                rows.add(p.id() + ",cpu," + p.shape() + "," + String.join(" ", dims) + "," + Genomes.count(space, plan, p));
            }
        }
        return rows;
    }

    @Test
    void csvHasOneRowPerPipelineWithItsDimensionsAndCount() {
        for (String q : List.of("q1.1", "q2.1", "q3.1", "q4.1")) {
            String sql = Queries.sql(Queries.SSB, q);
            Run r = run("variants", "--db", dir.toString(), "--device", "cpu", "--format", "csv", "-c", sql);
            assertEquals(0, r.code(), r.err());
            List<String> lines = r.out().lines().toList();
            assertEquals("pipeline,device,shape,dimensions,genomes", lines.get(0));
            assertEquals(expectedCsvRows(sql), lines.subList(1, lines.size()), q);
        }
    }

    @Test
    void tableFormatShowsTheRowsAndTheWholeQuerysCombinations() {
        String sql = Queries.sql(Queries.SSB, "q2.1");
        Run r = run("variants", "--db", dir.toString(), "-c", sql + ";");
        assertEquals(0, r.code(), r.err());
        List<String> rows = expectedCsvRows(sql);
        BigInteger total = BigInteger.ONE;
        for (String row : rows) {
            total = total.multiply(new BigInteger(row.substring(row.lastIndexOf(',') + 1)));
        }
        assertTrue(r.out().contains("| pipeline | device | shape"), r.out());
        assertTrue(r.out().contains("(" + rows.size() + " rows)"), r.out());
        assertTrue(r.out().contains(total + " genome combinations for the whole query"), r.out());
    }

    @Test
    void aDeviceWithoutAVariantSpaceIsNamed() {
        Function<String, Optional<VariantSpace>> saved = VariantsCommand.spaces;
        try {
            VariantsCommand.spaces = device -> device.equals("cpu") ? saved.apply(device) : Optional.empty();
            Run gpu = run("variants", "--db", dir.toString(), "--device", "gpu", "-c", "select count(*) from lineorder");
            assertEquals(1, gpu.code());
            assertTrue(gpu.err().contains("no variant space for device gpu yet"), gpu.err());
            assertEquals("", gpu.out());
        } finally {
            VariantsCommand.spaces = saved;
        }
        Run tpu = run("variants", "--db", dir.toString(), "--device", "tpu", "-c", "select count(*) from lineorder");
        assertEquals(2, tpu.code());
        assertTrue(tpu.err().contains("unknown device 'tpu' (cpu, gpu)"), tpu.err());
    }

    @Test
    void everyRegisteredSpaceCountsItsGenomes() {
        String sql = Queries.sql(Queries.SSB, "q2.1");
        for (String device : VariantSpaces.withSpace()) {
            VariantSpace space = VariantSpaces.forDevice(device).orElseThrow();
            Run r = run("variants", "--db", dir.toString(), "--device", device, "--format", "csv", "-c", sql);
            assertEquals(0, r.code(), r.err());
            try (Tessera t = Tessera.open(dir)) {
                QueryPlan plan = t.engine().plan(sql);
                List<String> lines = r.out().lines().toList();
                assertEquals(plan.pipelines().size() + 1, lines.size(), r.out());
                for (int i = 0; i < plan.pipelines().size(); i++) {
                    Pipeline p = plan.pipelines().get(i);
                    assertTrue(lines.get(i + 1).startsWith(p.id() + "," + device + ","), lines.get(i + 1));
                    assertTrue(lines.get(i + 1).endsWith("," + Genomes.count(space, plan, p)), lines.get(i + 1));
                }
            }
        }
    }

    @Test
    void aQueryIsRequiredAndBadSqlIsReported() {
        assertEquals(2, run("variants", "--db", dir.toString()).code());
        Run bad = run("variants", "--db", dir.toString(), "-c", "select nope from lineorder");
        assertEquals(1, bad.code());
        assertTrue(bad.err().startsWith("tessera: "), bad.err());
    }
}
