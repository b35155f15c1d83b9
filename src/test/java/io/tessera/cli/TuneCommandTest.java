package io.tessera.cli;

import io.tessera.bench.Queries;
import io.tessera.bench.TinySsb;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.profile.DeviceInfo;
import io.tessera.profile.Profile;
import io.tessera.profile.ProfileStore;
import io.tessera.storage.Database;
import io.tessera.tune.HeadlessChromium;
import io.tessera.tune.TuningDevice;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tessera tune} and {@code tessera bench tuning} end to end on a tiny SSB database. */
class TuneCommandTest {

    @TempDir
    static Path dir;
    static Path db;

    @BeforeAll
    static void data() {
        db = dir.resolve("db");
        TinySsb.build(db, 9, 20_000);
    }

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
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

    @Test
    void tuneStoresAProfilePerDeviceThatQueriesThenUse() throws Exception {
        Path profiles = dir.resolve("profiles");
        Path report = dir.resolve("tune.html");
        Run r = run("tune", "--db", db.toString(), "--workload", "ssb", "--query", "q1.1,q3.1", "--strategy",
                "feature-wise", "--device", "cpu,cpu:1", "--profiles", profiles.toString(), "--report",
                report.toString(), "--rounds", "1");
        assertEquals(0, r.code(), r.out() + r.err());
        int cores = Runtime.getRuntime().availableProcessors();
        assertTrue(r.out().contains("cpu: ") && r.out().contains("tuned with feature-wise"), r.out());
        // q3.1's pipeline that probes its three dimensions and groups (the probes in the order its plan chose)
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "LOOP:lineorder@1e4(\\|PROBE\\[lo_(suppkey|custkey|orderdate)\\]){3}\\|GROUPAGGREGATE\\[c_nation\\+d_year\\+s_nation\\]")
                .matcher(r.out());
        assertTrue(m.find(), r.out());
        String fact = m.group();
        assertTrue(r.out().contains("cross-device matrix"), r.out());
        assertTrue(r.err().contains("q3.1 on cpu: feature-wise measured"), r.err());
        ProfileStore store = new ProfileStore(profiles);
        Profile p = store.load(DeviceInfo.machineCpu(cores).fingerprint());
        Profile one = store.load(DeviceInfo.machineCpu(1).fingerprint());
        // a shape is stored unless its queries measured slower with the tuned genome than with the defaults (beyond
        // the noise), which the output then says; on this tiny database either can happen
        for (Profile prof : java.util.List.of(p, one)) {
            Profile.Entry e = prof.entry(fact);
            if (e == null) {
                assertTrue(r.out().lines().anyMatch(l -> l.startsWith(fact + ": ") && l.endsWith("; not stored")), r.out());
                continue;
            }
            assertEquals("feature-wise", e.strategy());
            assertEquals(java.util.List.of("q3.1"), e.queries());
            assertTrue(e.variants() > 0 && e.seconds() > 0 && e.defaultSeconds() > 0, e.toString());
            assertTrue(e.seconds() <= e.defaultSeconds() * 1.05, e.toString());
        }
        if (one.entry(fact) != null) {
            assertFalse(one.entry(fact).genome().has("workers"), "a one-core device has one worker: no workers dimension");
        }
        try (Database d = Database.open(db)) {
            String explain = new QueryEngine(d, cores, Device.CPU, store).explain(Queries.sql("ssb", "q3.1"));
            // every shape but q1.1's scan of lineorder is one of q3.1's (the date build's is both queries')
            boolean q31Stored = p.entries().keySet().stream().anyMatch(k -> !k.startsWith("LOOP:lineorder@1e4|FILTER"));
            assertEquals(q31Stored, explain.contains("(profile)"), explain);
            assertEquals(new QueryEngine(d, cores, Device.CPU, null).execute(Queries.sql("ssb", "q3.1")).rowCount(),
                    new QueryEngine(d, cores, Device.CPU, store).execute(Queries.sql("ssb", "q3.1")).rowCount());
        }
        String html = Files.readString(report);
        assertTrue(html.contains("Tessera tuning report"));
        // drawn in a browser: per device its sorted runtimes and its convergence, a line per query; the matrix
        // has a cell per query, device tuned for and device run on
        String dom = HeadlessChromium.dumpDom(report, dir);
        assertTrue(dom.contains("data-drawn=\"5\""), "2 x 2 charts and the heat map");
        for (String chart : new String[] {"runtimes-0", "runtimes-1", "convergence-0", "convergence-1"}) {
            assertEquals("2", HeadlessChromium.attr(dom, chart, "data-lines"), chart);
            assertTrue(Integer.parseInt(HeadlessChromium.attr(dom, chart, "data-points")) >= 2, chart);
        }
        assertEquals("8", HeadlessChromium.attr(dom, "matrix", "data-cells"));
        assertTrue(r.out().contains("report: " + report));
    }

    @Test
    void aWorkloadFileAndTheInQueryStrategies() throws Exception {
        Path file = dir.resolve("work.sql");
        Files.writeString(file, "-- two queries\nselect lo_quantity, count(*) from lineorder group by lo_quantity;\n"
                + Queries.sql("ssb", "q2.2") + ";\n");
        for (String strategy : new String[] {"plateau", "online-pool"}) {
            Run r = run("tune", "--db", db.toString(), "--workload", file.toString(), "--strategy", strategy,
                    "--profiles", dir.resolve("p-" + strategy).toString(), "--rounds", "1");
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("work.sql#1") && r.out().contains("work.sql#2"), r.out());
            assertTrue(r.out().contains("tuned with " + strategy), r.out());
        }
    }

    @Test
    void mistakesAreReportedClearly() {
        Run bad = run("tune", "--db", db.toString(), "--strategy", "annealing");
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("unknown strategy 'annealing' (exhaustive, feature-wise, plateau, online-pool)"), bad.err());
        Run dev = run("tune", "--db", db.toString(), "--device", "tpu");
        assertTrue(dev.code() == 1 && dev.err().contains("unknown device 'tpu'"), dev.err());
        Run q = run("tune", "--db", db.toString(), "--query", "q9.9");
        assertTrue(q.code() == 1 && q.err().contains("no query [q9.9] in suite ssb"), q.err());
        Run file = run("tune", "--db", db.toString(), "--workload", dir.resolve("missing.sql").toString());
        assertTrue(file.code() == 1 && file.err().contains("cannot read the workload"), file.err());
    }

    @Test
    void sqlWithTuneSaysTunedNowAndLaterQueriesUseTheProfile() {
        Path profiles = dir.resolve("sql-profiles");
        String old = System.getProperty(ProfileStore.PROPERTY);
        System.setProperty(ProfileStore.PROPERTY, profiles.toString());
        try {
            String explain = "explain " + Queries.sql("ssb", "q2.3");
            Run tuned = run("sql", "--db", db.toString(), "--tune", "feature-wise", "-c", explain);
            assertEquals(0, tuned.code(), tuned.out() + tuned.err());
            assertTrue(tuned.out().contains("(tuned now)"), tuned.out());
            Run later = run("sql", "--db", db.toString(), "-c", explain);
            assertTrue(later.out().contains("(profile)") && !later.out().contains("(tuned now)"), later.out());
            Run bad = run("sql", "--db", db.toString(), "--tune", "guess", "-c", "select 1");
            assertEquals(1, bad.code());
            assertTrue(bad.err().contains("unknown strategy 'guess'"), bad.err());
        } finally {
            if (old == null) {
                System.clearProperty(ProfileStore.PROPERTY);
            } else {
                System.setProperty(ProfileStore.PROPERTY, old);
            }
        }
    }
}
