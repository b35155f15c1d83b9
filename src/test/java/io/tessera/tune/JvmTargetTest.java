package io.tessera.tune;

import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.bench.Queries;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.Device;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Operation;
import io.tessera.plan.Source;
import io.tessera.profile.DeviceInfo;
import io.tessera.storage.Database;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The strategies on real queries over a tiny SSB database, on the JVM devices of this machine. */
class JvmTargetTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(11, 30_000);
    static Database db;
    static TuningDevice cpu;
    static TuningDevice oneCore;

    @BeforeAll
    static void devices() {
        db = SSB.db();
        cpu = TuningDevice.parse("cpu");
        oneCore = TuningDevice.parse("cpu:1");
    }

    @AfterAll
    static void close() {
        oneCore.close();
    }

    static Target target(TuningDevice d, String q) {
        return d.target(db, Queries.sql("ssb", q));
    }

    @Test
    void newCodeIsWarmWhenARunIsNoLongerFasterAndTheJitWasQuiet() {
        JvmTarget.WarmUpRule query = JvmTarget.QUERY_WARM_UP;
        assertFalse(query.warm(Double.POSITIVE_INFINITY, 0.010, 0), "the first run is never warm");
        assertTrue(query.warm(0.011, 0.010, 0), "9% faster than the run before, no compiling");
        assertFalse(query.warm(0.012, 0.010, 0), "17% faster: still getting faster");
        assertTrue(query.warm(0.030, 0.030, 2), "2 ms of compiling in a 30 ms run is quiet");
        assertFalse(query.warm(0.030, 0.030, 3), "3 ms is not");
        assertFalse(query.warm(0.010, 0.010, 2), "2 ms is more than a tenth of a 10 ms run");
        assertFalse(JvmTarget.BLOCK_WARM_UP.warm(0.030, 0.030, 1), "block code waits for no compiling at all");
        assertTrue(JvmTarget.BLOCK_WARM_UP.warm(0.030, 0.030, 0));
    }

    @Test
    void newCodesFirstRunLeavesACoreToTheJitWithTheSameClasses() {
        // a device of four cores: the first run of a genome with four workers runs on three, the code unchanged
        TuningDevice four = TuningDevice.of("cpu", "jvm", cpu.info(), 4);
        JvmTarget t = (JvmTarget) four.target(db, Queries.sql("ssb", "q2.1"));
        Map<Integer, Genome> all = new java.util.TreeMap<>();
        for (Map.Entry<Integer, Genome> e : t.complete(t.defaults()).entrySet()) {
            Genome g = e.getValue();
            all.put(e.getKey(), g.has(JvmDimensions.WORKERS) ? g.with(JvmDimensions.WORKERS, "4") : g);
        }
        QueryEngine engine = new QueryEngine(db, 4, Device.CPU, null);
        QueryEngine.Prepared q = engine.prepareJvm(t.plan(), all, JavaCompiler::compile);
        QueryEngine.Prepared first = t.leavingACore(q);
        assertEquals(JvmExecutor.compiled(q.jvm()).classes(), JvmExecutor.compiled(first.jvm()).classes());
        for (int i = 0; i < JvmExecutor.compiled(q.jvm()).pipelines().size(); i++) {
            Genome g = JvmExecutor.compiled(q.jvm()).pipelines().get(i).genome();
            Genome f = JvmExecutor.compiled(first.jvm()).pipelines().get(i).genome();
            assertEquals(g.has(JvmDimensions.WORKERS) ? g.with(JvmDimensions.WORKERS, "3") : g, f);
        }
        assertTrue(JvmExecutor.compiled(first.jvm()).pipelines().stream().anyMatch(e -> e.genome().has(JvmDimensions.WORKERS)));
        // the same answer on three workers as on four
        assertEquals(JvmExecutor.run(JvmExecutor.compiled(q.jvm()), db, new JvmExecutor.Options(null, null, 0)).rowCount(),
                JvmExecutor.run(JvmExecutor.compiled(first.jvm()), db, new JvmExecutor.Options(null, null, 0)).rowCount());
        // one worker already leaves the rest: the query itself
        JvmTarget one = (JvmTarget) oneCore.target(db, Queries.sql("ssb", "q2.1"));
        QueryEngine.Prepared single = engine.prepareJvm(one.plan(), one.complete(one.defaults()), JavaCompiler::compile);
        assertSame(single, one.leavingACore(single));
    }

    @Test
    void devicesParseAndCarryTheirFingerprint() {
        int all = Runtime.getRuntime().availableProcessors();
        assertEquals("cpu", cpu.name());
        assertEquals(all, cpu.units());
        assertNull(cpu.pool());
        assertTrue(cpu.fingerprint().startsWith("cpu|") && cpu.fingerprint().contains("|cores" + all + "|"),
                cpu.fingerprint());
        assertEquals(1, oneCore.units());
        assertTrue(oneCore.fingerprint().contains("|cores1|"), oneCore.fingerprint());
        if (all > 1) {
            assertNotNull(oneCore.pool());
            assertEquals("cpu:1", oneCore.name());
        }
        assertEquals(List.of("cpu", oneCore.name()), TuningDevice.parseList("cpu, cpu:1").stream().map(TuningDevice::name).toList());
        for (String bad : List.of("cpu:0", "cpu:" + (all + 1), "cpu:x", "tpu", "")) {
            assertThrows(IllegalArgumentException.class, () -> TuningDevice.parseList(bad), bad);
        }
        TuningDevice gpu = TuningDevice.of("gpu", "cuda", new DeviceInfo(DeviceInfo.Kind.GPU, 0, "Some GPU", 132,
                1L << 30, 9, 0, 1800, 13000, "CUDA 13.0"), 132);
        // the CUDA target measures on the GPU; without one it says why at once (CI has none)
        String sql = Queries.sql("ssb", "q2.1");
        String noGpu = io.tessera.backend.cuda.runtime.GpuRuntime.unavailableReason();
        if (noGpu != null) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> gpu.target(db, sql));
            assertEquals("device gpu: the GPU cannot be used: " + noGpu, e.getMessage());
        } else {
            Target t = gpu.target(db, sql);
            assertEquals("cuda", t.space().backend());
            // the lineorder pipeline aggregates: its blocks may change code and launch configuration
            assertEquals(io.tessera.tune.CudaTuningTarget.BLOCK_SWITCHABLE, t.blockSwitchable());
            assertEquals(Set.of("tpb", "ipt", "grid"), Strategies.descentDimensions(t));
        }
        TuningDevice tpu = TuningDevice.of("tpu", "xla", gpu.info(), 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tpu.target(db, sql));
        assertTrue(e.getMessage().contains("xla backend, which cannot run tuning measurements yet (backends that can: "
                + "cuda, jvm)"), e.getMessage());
    }

    @Test
    void theTargetTunesTheLineorderPipeline() {
        Target t = target(cpu, "q2.1");
        assertInstanceOf(JvmVariantSpace.class, t.space());
        assertEquals("lineorder", ((Source.TableScan) t.pipeline(t.focus()).source()).table().name());
        List<String> free = t.space().dimensions(t.plan(), t.pipeline(t.focus())).stream().map(d -> d.name()).toList();
        TuningSpace whole = Strategies.space("feature-wise", t, t.defaults());
        assertEquals(t.focus(), whole.focus());
        List<String> focusKnobs = whole.knobs().stream().filter(k -> k.pipeline() == t.focus()).map(TuningSpace.Knob::name).toList();
        assertEquals(free, focusKnobs, "the focus pipeline's free dimensions, in the space's importance order");
        // the builds it probes, each with its table kind and hash (their other dimensions leave it alone)
        long probes = t.pipeline(t.focus()).operations().stream().filter(o -> o instanceof Operation.Probe).count();
        assertTrue(probes >= 1, "the lineorder pipeline probes the dimensions' tables");
        assertEquals(probes * 2, whole.knobs().size() - focusKnobs.size());
        assertTrue(whole.knobs().stream().filter(k -> k.pipeline() != t.focus())
                .allMatch(k -> k.name().equals("ht") || k.name().equals("hash")));
        TuningSpace exhaustive = Strategies.space("exhaustive", t, t.defaults());
        assertEquals(free, exhaustive.knobs().stream().map(TuningSpace.Knob::name).toList(), "no build dimensions");
        assertEquals(free, Strategies.space("feature-wise", t, t.defaults(), Strategies.Settings.DEFAULT.sameSpaceAsExhaustive())
                .knobs().stream().map(TuningSpace.Knob::name).toList());
        // plateau descent: what a block may change (it descends along workers, morsel and access among them)
        TuningSpace plateau = Strategies.space("plateau", t, t.defaults());
        List<String> plateauKnobs = plateau.knobs().stream().map(TuningSpace.Knob::name).toList();
        assertTrue(plateauKnobs.containsAll(List.of("morsel", "agg")), plateauKnobs.toString());
        assertFalse(plateauKnobs.contains("hash"), "the hash function shapes the group tables: no block changes it");
        assertDoesNotThrow(() -> t.requireBlockKnobs(plateau));
        IllegalArgumentException notPerBlock = assertThrows(IllegalArgumentException.class, () -> t.blocks(exhaustive, 1 << 20));
        assertTrue(notPerBlock.getMessage().contains("cannot change between blocks on cpu (only ["), notPerBlock.getMessage());
        assertEquals(Set.of("workers", "morsel", "access"), Strategies.descentDimensions(t));
        Target q11 = target(cpu, "q1.1");
        TuningSpace pool = Strategies.space("online-pool", q11, q11.defaults());
        Set<String> switchable = new java.util.HashSet<>(q11.space().dimensions(q11.plan(), q11.pipeline(q11.focus()))
                .stream().map(d -> d.name()).toList());
        switchable.retainAll(q11.blockSwitchable());
        assertTrue(switchable.containsAll(Set.of("morsel", "pred")), switchable.toString());
        assertEquals(switchable, Set.copyOf(pool.knobs().stream().map(TuningSpace.Knob::name).toList()));
        // a block may change the aggregation, but not to or from a partitioned one (the ordered one: a block's
        // groups are runs appended without a lookup, indexed before a later block's lookups)
        assertEquals(List.of("dense", "hash", "shared", "ordered"), Strategies.space("online-pool", t, t.defaults()).knobs().stream()
                .filter(k -> k.name().equals("agg")).findFirst().orElseThrow().values());
        // held dimensions leave every strategy's space, kept at their start values
        Strategies.Settings holding = Strategies.Settings.DEFAULT.holding(Set.of("agg", "ht"));
        TuningSpace held = Strategies.space("exhaustive", t, t.defaults(), holding);
        assertEquals(free.stream().filter(n -> !n.equals("agg")).toList(),
                held.knobs().stream().map(TuningSpace.Knob::name).toList());
        assertEquals(exhaustive.size() / exhaustive.knobs().stream().filter(k -> k.name().equals("agg")).findFirst()
                .orElseThrow().values().size(), held.size());
        assertTrue(Strategies.space("feature-wise", t, t.defaults(), holding).knobs().stream()
                .noneMatch(k -> k.name().equals("agg") || k.name().equals("ht")), "nor the builds' table kinds");
        assertEquals(holding.held(), holding.sameSpaceAsExhaustive().held());
        IllegalArgumentException nothing = assertThrows(IllegalArgumentException.class, () -> Strategies.space(
                "exhaustive", t, t.defaults(), Strategies.Settings.DEFAULT.holding(Set.copyOf(free))));
        assertTrue(nothing.getMessage().contains("leaves nothing to tune"), nothing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Strategies.canonical("annealing"));
        assertEquals("feature-wise", Strategies.canonical("Featurewise"));
    }

    @Test
    void exhaustiveRunsEveryVariantAndEachGivesTheRightAnswer() {
        Target t = target(cpu, "q1.1");
        TuningSpace space = Strategies.space("exhaustive", t, t.defaults());
        TuningResult r = Strategies.run("exhaustive", t, t.defaults(), Strategies.Settings.DEFAULT);
        assertEquals(space.all().size(), r.variants());
        assertEquals(r.variants(), r.trace().size());
        assertTrue(space.valid(r.best()));
        assertTrue(r.bestSeconds() > 0 && r.costSeconds() >= r.bestSeconds() * r.variants() / 10);
        // the winner is one of the five fastest of the first pass, confirmed by re-measuring them
        List<Map<Integer, Genome>> top5 = r.trace().stream().filter(e -> !e.pruned())
                .sorted(java.util.Comparator.comparingDouble(TuningResult.Evaluation::seconds)).limit(5)
                .map(TuningResult.Evaluation::assignment).toList();
        assertTrue(top5.contains(r.best()), r.note());
        assertTrue(r.note().contains("the 5 fastest confirmed in 5 interleaved rounds"), r.note());
    }

    @Test
    void featureWiseFindsAValidVariantForEveryPipelineItTouches() {
        // q1.1: a build of the dates and the probing scan, so the build's mirrored dimensions are tuned beside the
        // probe's (the passes' logic is FeatureWiseTest's; q2.1's four pipelines took three minutes on two cores)
        Target t = target(cpu, "q1.1");
        TuningResult r = Strategies.run("feature-wise", t, t.defaults(), Strategies.Settings.DEFAULT);
        TuningSpace space = Strategies.space("feature-wise", t, t.defaults());
        assertTrue(space.valid(r.best()));
        assertTrue(r.variants() < space.all().size() / 4, r.variants() + " of " + space.all().size());
        assertTrue(r.note().contains("pass"), r.note());
        Map<Integer, Set<Genome>> tried = new java.util.HashMap<>();
        for (TuningResult.Evaluation e : r.trace()) {
            e.assignment().forEach((pipeline, g) -> tried.computeIfAbsent(pipeline, k -> new java.util.HashSet<>()).add(g));
        }
        assertTrue(tried.values().stream().filter(gs -> gs.size() > 1).count() >= 2,
                "feature-wise varied fewer than two pipelines' genomes: " + tried);
    }

    @Test
    void inQueryStrategiesTuneOnBlocksOfARunningQuery() {
        // lineorder probes the filtered dates and groups: its pipeline aggregates whatever the join order
        Target t = cpu.target(db, "select d_year, sum(lo_revenue) from lineorder, ddate where lo_orderdate = d_datekey "
                + "and d_year = 1993 group by d_year");
        Strategies.Settings small = new Strategies.Settings(3, 10, 2_048, 60, 1_024, 4, 8, 1, true);
        TuningResult p = Strategies.run("plateau", t, t.defaults(), small);
        assertTrue(p.variants() >= 1);
        Genome g = p.best().get(t.focus());
        assertTrue(t.space().valid(t.plan(), t.pipeline(t.focus()), g));
        // it started once from every aggregation a block may switch to
        Set<String> aggs = new java.util.HashSet<>();
        for (TuningResult.Evaluation e : p.trace()) {
            aggs.add(e.assignment().get(t.focus()).get(JvmDimensions.AGGREGATION));
        }
        assertEquals(Set.of("dense", "hash", "shared", "ordered"), aggs);
        assertTrue(p.note().contains("starting points"), p.note());
        assertTrue(p.costSeconds() > 0);
        TuningResult o = Strategies.run("online-pool", t, t.defaults(), small);
        assertTrue(o.note().contains("3 generations") && o.note().contains("4 queries"), o.note());
        assertTrue(o.variants() >= 2);
        assertFalse(o.trace().isEmpty());
    }

    /**
     * A target whose tuned pipeline cannot run in blocks, as a GPU pipeline that materializes rows cannot: its
     * in-query strategies must take whole runs of the query, changing what a block would have.
     */
    record NoBlocks(Target inner, Set<String> perRun) implements Target {
        @Override
        public TuningDevice device() {
            return inner.device();
        }

        @Override
        public io.tessera.plan.QueryPlan plan() {
            return inner.plan();
        }

        @Override
        public io.tessera.variant.VariantSpace space() {
            return inner.space();
        }

        @Override
        public Map<Integer, Genome> defaults() {
            return inner.defaults();
        }

        @Override
        public Objective objective() {
            return inner.objective();
        }

        @Override
        public Set<String> blockSwitchable() {
            return Set.of();
        }

        @Override
        public Set<String> runSwitchable() {
            return perRun;
        }

        @Override
        public InQueryTuning.BlockSource blocks(TuningSpace space, long blockRows) {
            throw new AssertionError("the tuned pipeline cannot run in blocks");
        }
    }

    @Test
    void inQueryStrategiesTakeWholeRunsWhereThePipelineCannotRunInBlocks() {
        String sql = "select lo_orderkey, lo_revenue from lineorder where lo_quantity < 3";
        Target jvm = cpu.target(db, sql);
        Target t = new NoBlocks(jvm, jvm.blockSwitchable());
        assertTrue(t.pipeline(t.focus()).sink() instanceof io.tessera.plan.Sink.Materialize);
        Strategies.Settings small = new Strategies.Settings(3, 10, 2_048, 12, 1_024, 2, 4, 1, true);
        TuningSpace space = Strategies.space("plateau", t, t.defaults(), small);
        assertEquals(Set.of("workers", "morsel", "access"), Strategies.descentDimensions(t));
        TuningResult p = Strategies.run("plateau", t, t.defaults(), small);
        assertTrue(space.valid(p.best()));
        assertTrue(p.note().contains("measured on whole runs") && p.note().contains("starting points"), p.note());
        // every code variant (simd x pred) is a starting point, each measured once before the descent
        long starts = space.combinations(k -> !Strategies.descentDimensions(t).contains(k.name())).size();
        assertTrue(starts >= 2, starts + " starting points");
        assertTrue(p.variants() > starts && p.variants() <= starts + 12, p.variants() + " variants");
        assertTrue(p.costSeconds() > 0);
        TuningResult o = Strategies.run("online-pool", t, t.defaults(), small);
        assertTrue(o.note().contains("2 queries of 8 whole runs each"), o.note());
        assertEquals(2 * 8, o.trace().size());
        assertTrue(o.variants() >= 2);
        // nothing a run may change: no in-query strategy
        Target none = new NoBlocks(jvm, Set.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Strategies.run("plateau", none, none.defaults(), small));
        assertTrue(e.getMessage().contains("between blocks or runs"), e.getMessage());
    }

    @Test
    void aOneCoreDeviceRunsOnOneThread() {
        Target t = target(oneCore, "q4.1");
        assertTrue(t.space().dimensions(t.plan(), t.pipeline(t.focus())).stream().noneMatch(d -> d.name().equals("workers")),
                "one core: one worker, no workers dimension");
        Objective o = t.objective();
        Map<Integer, Genome> completed = Strategies.space("exhaustive", t, t.defaults()).complete(t.defaults());
        Objective.Measurement m = o.measure(completed, Double.POSITIVE_INFINITY);
        assertFalse(m.pruned());
        assertTrue(m.seconds() > 0 && m.costSeconds() >= m.seconds());
        // a genome tuned elsewhere (two workers) still runs here: the cross-device matrix needs that
        Map<Integer, Genome> two = Strategies.space("exhaustive", t, t.defaults()).complete(
                Map.copyOf(withWorkers(t.defaults(), t.focus(), "2")));
        assertFalse(o.measure(two, Double.POSITIVE_INFINITY).pruned());
        Objective.Measurement cut = o.measure(completed, 1e-9);
        assertTrue(cut.pruned());
    }

    static Map<Integer, Genome> withWorkers(Map<Integer, Genome> a, int id, String w) {
        java.util.TreeMap<Integer, Genome> m = new java.util.TreeMap<>(a);
        m.put(id, a.get(id).with(JvmDimensions.WORKERS, w));
        return m;
    }
}
