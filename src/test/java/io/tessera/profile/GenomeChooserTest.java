package io.tessera.profile;

import io.tessera.api.QueryResult;
import io.tessera.bench.Queries;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Genome choice from profiles: used where it fits, the default with the reason where it does not, never a wrong answer. */
public class GenomeChooserTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(5, 20_000);
    /** Where the tests' profile stores go. */
    @TempDir
    static Path dir;
    static Database db;
    static final JvmVariantSpace SPACE = new JvmVariantSpace(2);
    static final String FP = DeviceInfo.machineCpu(2).fingerprint();

    /** Revenue has a huge range (hash aggregation); quantity a small one (dense). Same pipeline shape. */
    static final String BY_REVENUE = "select lo_revenue, count(*) from lineorder group by lo_revenue";
    static final String BY_QUANTITY = "select lo_quantity, count(*) from lineorder group by lo_quantity";

    @BeforeAll
    static void data() {
        db = SSB.db();
    }

    static ProfileStore store(String name, Map<String, String> genomeByShape) {
        ProfileStore s = new ProfileStore(dir.resolve(name));
        Profile p = Profile.empty(FP);
        for (Map.Entry<String, String> e : genomeByShape.entrySet()) {
            p = p.with(e.getKey(), new Profile.Entry(Genome.parse(e.getValue()), "test", List.of(), 1, 1, 1, 1, "now"));
        }
        s.save(p);
        return s;
    }

    static QueryPlan plan(String sql) {
        return new QueryEngine(db, 2, Device.CPU, null).prepare(sql).plan();
    }

    static Pipeline pipeline(QueryPlan plan, Class<?> sink) {
        return plan.pipelines().stream().filter(p -> sink.isInstance(p.sink())).findFirst().orElseThrow();
    }

    /** A result's rows as sorted strings, for comparing answers whatever their order. */
    public static List<String> rows(QueryResult r) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < r.rowCount(); i++) {
            Object[] row = new Object[r.columns().size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = r.get(i, c);
            }
            out.add(Arrays.toString(row));
        }
        out.sort(null);
        return out;
    }

    static void sameAnswer(ProfileStore store, String sql) {
        assertEquals(rows(new QueryEngine(db, 2, Device.CPU, null).execute(sql)), rows(new QueryEngine(db, 2, Device.CPU, store).execute(sql)), sql);
    }

    @Test
    void withoutAProfileEveryPipelineGetsItsDefault() {
        QueryPlan plan = plan(Queries.sql("ssb", "q4.2"));
        GenomeChooser.Choice c = new GenomeChooser(SPACE, new ProfileStore(dir.resolve("none")), FP).choose(plan);
        Map<Integer, Genome> expected = DefaultGenomes.forPlan(plan, 2);
        for (Pipeline p : plan.pipelines()) {
            assertEquals(expected.get(p.id()), c.genomes().get(p.id()));
            assertEquals(GenomeChooser.DEFAULT, c.origins().get(p.id()));
        }
    }

    @Test
    void aFittingProfileEntryIsUsedAndProbesFollowTheirBuilds() {
        String sql = Queries.sql("ssb", "q2.1");
        QueryPlan plan = plan(sql);
        // the pipeline that probes and groups, and a table it probes (which ones depends on the join order)
        Pipeline fact = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.GroupAggregate
                && p.operations().stream().anyMatch(o -> o instanceof Operation.Probe)).findFirst().orElseThrow();
        int probed = fact.operations().stream().filter(o -> o instanceof Operation.Probe)
                .mapToInt(o -> ((Operation.Probe) o).joinId()).findFirst().orElseThrow();
        Pipeline date = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Build b && b.joinId() == probed)
                .findFirst().orElseThrow();
        ProfileStore store = store("fits", Map.of(
                fact.shape(), "jvm{workers=1,morsel=4096,agg=hash,hash=murmur}",
                date.shape(), "jvm{ht=linear,hash=murmur}"));
        GenomeChooser.Choice c = new GenomeChooser(SPACE, store, FP).choose(plan);
        Genome g = c.genomes().get(fact.id());
        assertEquals(GenomeChooser.PROFILE, c.origins().get(fact.id()));
        assertEquals(GenomeChooser.PROFILE, c.origins().get(date.id()));
        assertEquals("1", g.get(JvmDimensions.WORKERS));
        assertEquals("4096", g.get(JvmDimensions.MORSEL));
        assertEquals("hash", g.get(JvmDimensions.AGGREGATION));
        int dateJoin = ((Sink.Build) date.sink()).joinId();
        assertEquals("linear", g.get(JvmDimensions.probeTable(dateJoin)));
        assertEquals("murmur", g.get(JvmDimensions.probeHash(dateJoin)));
        assertEquals("16384", c.genomes().get(date.id()).get(JvmDimensions.MORSEL), "dimensions it does not name stay default");
        sameAnswer(store, sql);
        String explain = new QueryEngine(db, 2, Device.CPU, store).explain(sql);
        assertTrue(explain.lines().anyMatch(l -> l.contains("genome: jvm{workers=1,agg=hash,") && l.contains(",hash=murmur,morsel=4096,")
                && l.endsWith("(profile)")), explain);
    }

    @Test
    void aProfileEntryThatDoesNotFitFallsBackToTheDefaultWithTheReason() {
        QueryPlan revenue = plan(BY_REVENUE);
        QueryPlan quantity = plan(BY_QUANTITY);
        Pipeline r = pipeline(revenue, Sink.GroupAggregate.class);
        Pipeline q = pipeline(quantity, Sink.GroupAggregate.class);
        assertTrue(r.shape().matches("LOOP:lineorder@1e\\d+\\|GROUPAGGREGATE\\[lo_revenue\\]"),
                "a shape names the scanned rows' magnitude and the group keys: " + r.shape());
        assertEquals("hash", SPACE.defaultGenome(revenue, r).get(JvmDimensions.AGGREGATION));
        assertEquals("dense", SPACE.defaultGenome(quantity, q).get(JvmDimensions.AGGREGATION));
        String dense = "jvm{workers=1,morsel=65536,agg=dense,hash=mulshift}";
        ProfileStore store = store("dense", Map.of(q.shape(), dense, r.shape(), dense));
        GenomeChooser chooser = new GenomeChooser(SPACE, store, FP);
        assertEquals(GenomeChooser.PROFILE, chooser.choose(quantity).origins().get(q.id()));
        GenomeChooser.Choice c = chooser.choose(revenue);
        assertEquals(SPACE.defaultGenome(revenue, r), c.genomes().get(r.id()));
        String why = c.origins().get(r.id());
        List<String> aggValues = SPACE.dimensions(revenue, r).stream().filter(d -> d.name().equals("agg")).findFirst()
                .orElseThrow().values();
        assertTrue(!aggValues.contains("dense") && aggValues.contains("hash"), aggValues.toString());
        assertEquals("default; profile genome jvm{workers=1,morsel=65536,agg=dense,hash=mulshift} not used: "
                + "agg=dense is not one of " + aggValues + " for pipeline " + r.id(), why);
        sameAnswer(store, BY_REVENUE);
        sameAnswer(store, BY_QUANTITY);
        String explain = new QueryEngine(db, 2, Device.CPU, store).explain(BY_REVENUE);
        assertTrue(explain.contains("(default; profile genome"), explain);
        // each value allowed alone, but not together: a dense array does not hash
        ProfileStore nested = store("nested", Map.of(q.shape(), "jvm{hash=murmur}"));
        String nestedWhy = new GenomeChooser(SPACE, nested, FP).choose(quantity).origins().get(q.id());
        assertTrue(nestedWhy.endsWith("breaks the jvm space's constraints for pipeline " + q.id()), nestedWhy);
        sameAnswer(nested, BY_QUANTITY);

        String[][] misfits = {
                {"jvm{pred=predicated}", "has no free dimension pred"},
                {"jvm{workers=64}", "workers=64 is not one of [1, 2]"},
                {"cuda{tpb=256}", "it is for the cuda backend, not jvm"},
                {"jvm{agg=sorted}", "agg=sorted is not one of [hash, shared, partitioned, ordered]"},
                {"jvm{agg=hash,hash=murmur,workers=1}", null},
        };
        for (String[] m : misfits) {
            ProfileStore s = store("misfit" + m[0].hashCode(), Map.of(r.shape(), m[0]));
            String o = new GenomeChooser(SPACE, s, FP).choose(revenue).origins().get(r.id());
            if (m[1] == null) {
                assertEquals(GenomeChooser.PROFILE, o);
                sameAnswer(s, BY_REVENUE);
                continue;
            }
            assertTrue(o.startsWith("default; profile genome " + m[0] + " not used: ") && o.contains(m[1]), o);
            sameAnswer(s, BY_REVENUE);
        }
    }

    @Test
    void anUnreadableProfileMeansDefaultsAndSaysSo() throws Exception {
        ProfileStore s = new ProfileStore(dir.resolve("broken"));
        Files.createDirectories(s.dir());
        Files.writeString(s.file(FP), "[]");
        String explain = new QueryEngine(db, 2, Device.CPU, s).explain(Queries.sql("ssb", "q1.1"));
        assertTrue(explain.contains("(default; profile not read: cannot read the profile"), explain);
        sameAnswer(s, Queries.sql("ssb", "q1.1"));
    }
}
