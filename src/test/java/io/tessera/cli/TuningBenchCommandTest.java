package io.tessera.cli;

import io.tessera.bench.TinySsb;
import io.tessera.tune.HeadlessChromium;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.tessera.cli.TuneCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tessera bench tuning} end to end on a tiny SSB database, and {@code bench ssb} beside it. */
class TuningBenchCommandTest {

    @TempDir
    static Path dir;

    @Test
    void benchTuningComparesStrategiesWithExhaustiveSearch() throws Exception {
        Path db = dir.resolve("db");
        TinySsb.build(db, 13, 20_000);
        Path report = dir.resolve("bench.html");
        TuneCommandTest.Run r = run("bench", "tuning", "--db", db.toString(), "--query", "q1.2", "--device", "cpu,cpu:1", "--rounds", "1",
                "--sf", "0.003", "--report", report.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        String out = r.out();
        assertTrue(out.contains("workload ssb at SF 0.003, 1 queries"), out);
        assertTrue(out.contains("Exhaustive search") && out.contains("optimum genome"), out);
        assertTrue(out.contains("feature-wise ratio") && out.contains("plateau ratio") && out.contains("online-pool ratio"), out);
        assertTrue(out.contains("Summary over 1 queries"), out);
        // the optimum compiled twice: how far apart equal genomes measure, per query and in the summary
        assertTrue(out.lines().anyMatch(l -> l.matches("query +optimum again +feature-wise ratio .*")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("q1\\.2 +\\d+\\.\\d{3} +\\d+\\.\\d{3} .*")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("\\(optimum again\\) +[01] of 1 +[01] of 1 .*")), out);
        assertTrue(out.contains("best-to-worst spread"), out);
        assertTrue(out.contains("Cross-device matrix"), out);
        // exhaustive search ran every valid variant of q1.2's lineorder pipeline: the space says how many
        long combinations;
        int valid;
        long heldCombinations;
        try (io.tessera.storage.Database d = io.tessera.storage.Database.open(db);
             io.tessera.tune.TuningDevice cpu = io.tessera.tune.TuningDevice.parse("cpu")) {
            io.tessera.tune.Target t = cpu.target(d, io.tessera.bench.Queries.sql("ssb", "q1.2"));
            io.tessera.tune.TuningSpace space = io.tessera.tune.Strategies.space("exhaustive", t, t.defaults());
            combinations = space.size();
            valid = space.all().size();
            // with simd and pred held at their defaults (each only where the pipeline has the dimension)
            heldCombinations = space.withoutDimensions(java.util.Set.of("simd", "pred")).size();
        }
        assertTrue(out.lines().anyMatch(l -> l.matches("q1\\.2 +LOOP:lineorder\\S* +" + combinations + " +" + valid + " .*")),
                combinations + " " + valid + "\n" + out);
        assertTrue(Files.readString(report).contains("Tessera tuning benchmark"));
        String dom = HeadlessChromium.dumpDom(report, dir);
        assertTrue(dom.contains("data-drawn=\"4\""), "runtimes, two convergence charts, the matrix");
        assertEquals("2", HeadlessChromium.attr(dom, "convergence-q1.2", "data-lines"), "exhaustive and feature-wise");
        assertEquals("2", HeadlessChromium.attr(dom, "blocks-q1.2", "data-lines"), "plateau and online pool");
        assertEquals("4", HeadlessChromium.attr(dom, "matrix", "data-cells"));
        // with a dimension held, exhaustive search runs the rest
        Path trace = dir.resolve("trace.csv");
        TuneCommandTest.Run held = run("bench", "tuning", "--db", db.toString(), "--query", "q1.2", "--device", "cpu",
                "--strategies", "feature-wise", "--rounds", "1", "--hold", "simd,pred", "--trace", trace.toString());
        assertEquals(0, held.code(), held.out() + held.err());
        assertTrue(held.out().contains("held at their defaults: simd, pred"), held.out());
        assertTrue(held.out().contains("trace: " + trace), held.out());
        assertTraceOfBothSearches(Files.readAllLines(trace));
        assertTrue(held.out().lines().anyMatch(l -> l.matches("q1\\.2 +LOOP:lineorder\\S* +" + heldCombinations + " .*")),
                heldCombinations + "\n" + held.out());
        TuneCommandTest.Run old = run("bench", "ssb", "--db", db.toString(), "--runs", "1", "--peer", "none", "--query", "q1.1");
        assertEquals(0, old.code(), old.out() + old.err());
    }

    /** One line per measurement: exhaustive search's many variants, feature-wise search's fewer, none held. */
    static void assertTraceOfBothSearches(java.util.List<String> lines) {
        assertEquals("query,strategy,step,variant,seconds,pruned,cost_seconds,best_seconds", lines.get(0));
        java.util.Map<String, java.util.Set<String>> variants = new java.util.HashMap<>();
        java.util.Map<String, Double> best = new java.util.HashMap<>();
        for (String l : lines.subList(1, lines.size())) {
            // the variant is quoted: it lists knob=value pairs separated by commas
            java.util.regex.Matcher m = java.util.regex.Pattern
                    .compile("q1\\.2,(exhaustive|feature-wise),\\d+,\"([^\"]+)\",([0-9.]+),(true|false),([0-9.]+),([0-9.]+)")
                    .matcher(l);
            assertTrue(m.matches(), l);
            assertTrue(!m.group(2).contains("simd=") && m.group(2).contains("morsel="), l);
            variants.computeIfAbsent(m.group(1), k -> new java.util.HashSet<>()).add(m.group(2));
            double bestSoFar = Double.parseDouble(m.group(6));
            assertTrue(bestSoFar <= best.getOrDefault(m.group(1), Double.POSITIVE_INFINITY), "the best only falls: " + l);
            best.put(m.group(1), bestSoFar);
        }
        assertTrue(variants.get("exhaustive").size() > variants.get("feature-wise").size(), variants.toString());
        assertTrue(variants.get("feature-wise").size() > 1, variants.toString());
    }

    @Test
    void benchWithoutASuiteSaysWhatIsMissing() {
        TuneCommandTest.Run r = run("bench", "--db", dir.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("missing required parameter: 'SUITE'"), r.err());
        TuneCommandTest.Run d = run("bench", "ssb");
        assertEquals(2, d.code(), d.err());
        assertTrue(d.err().contains("missing required option: '--db=DIR'"), d.err());
    }
}
