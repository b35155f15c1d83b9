package io.tessera.variant;

import io.tessera.Tessera;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Sink;
import io.tessera.profile.DefaultGenomes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JVM variant space: which dimensions apply where, what the constraints exclude, and the counts. */
class JvmVariantSpaceTest {

    /** Four cores and the Vector API, whatever the machine running the test has. */
    static final JvmVariantSpace SPACE = new JvmVariantSpace(4, true);

    static final String STAR = "select a_name, b_name, sum(f_x) from fact, da, db"
            + " where f_a = a_id and f_b = b_id and a_grp = 1 group by a_name, b_name order by a_name";
    static final String WIDE_KEY = "select g_v, count(*) from fact, dg where f_g = g_id group by g_v";
    static final String CAN_FAIL = "select f_x, count(*) from fact where f_a < 5 and f_b > 3 and f_v / f_a > 1 group by f_x";
    static final String ALL_VECTOR = "select f_s, f_a * 1000 + f_b, max(f_id) from fact where f_a < 5 and f_s <> 's3'"
            + " group by f_s, f_a * 1000 + f_b";
    static final String SCALAR_LEFT = "select count(*) from fact where f_a < 5 and f_x * 2 > 3 and f_s like 's1%'";
    static final String LEFT_JOIN = "select count(*) from fact left join da on f_a = a_id, db where f_b = b_id";
    static final String TOP_K = "select f_id, f_x from fact order by f_x desc, f_id limit 7";
    static final String WINDOW = "select f_id, rank() over (partition by f_a order by f_x) from fact";
    static final List<String> QUERIES = List.of(STAR, WIDE_KEY, CAN_FAIL, ALL_VECTOR, SCALAR_LEFT, LEFT_JOIN, TOP_K, WINDOW);

    @TempDir
    static Path dir;
    static Tessera tessera;

    @BeforeAll
    static void data() {
        VariantTestData.build(dir);
        tessera = Tessera.open(dir);
    }

    @AfterAll
    static void close() {
        tessera.close();
    }

    static QueryPlan plan(String sql) {
        return tessera.engine().plan(sql);
    }

    static Map<String, List<String>> dims(QueryPlan plan, Pipeline p) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (Dimension d : SPACE.dimensions(plan, p)) {
            m.put(d.name(), d.values());
        }
        return m;
    }

    static Pipeline pipeline(QueryPlan plan, Class<? extends Sink> sink, int nth) {
        int seen = 0;
        for (Pipeline p : plan.pipelines()) {
            if (sink.isInstance(p.sink()) && seen++ == nth) {
                return p;
            }
        }
        throw new AssertionError("no " + sink.getSimpleName() + " pipeline " + nth + " in\n" + plan.explain());
    }

    static Genome genome(Map<String, String> values) {
        return Genome.of("jvm", values);
    }

    @Test
    void workersArePowersOfTwoUpToTheCoresAndTheCoreCount() {
        QueryPlan plan = plan(STAR);
        Pipeline p = plan.pipelines().get(0);
        for (int cores : new int[] {2, 4, 6, 8, 12}) {
            List<String> expected = new ArrayList<>();
            for (int w = 1; w < cores; w *= 2) {
                expected.add(Integer.toString(w));
            }
            expected.add(Integer.toString(cores));
            JvmVariantSpace s = new JvmVariantSpace(cores, false);
            assertEquals(expected, s.dimensions(plan, p).get(0).values(), cores + " cores");
            // the test's pipelines are small: on few cores one worker (SmallPipelineDefaultsTest), else all cores
            assertEquals(cores <= JvmVariantSpace.FEW_CORES ? "1" : Integer.toString(cores),
                    s.defaultGenome(plan, p).get(JvmDimensions.WORKERS));
        }
        JvmVariantSpace one = new JvmVariantSpace(1, false);
        assertTrue(one.dimensions(plan, p).stream().noneMatch(d -> d.name().equals(JvmDimensions.WORKERS)),
                "one core: one worker, no dimension");
        assertFalse(one.defaultGenome(plan, p).has(JvmDimensions.WORKERS));
        assertTrue(one.dimensions(plan, p).stream().noneMatch(d -> d.name().equals(JvmDimensions.ACCESS)),
                "one worker: nothing to assign");
    }

    @Test
    void dimensionsFollowThePipelineShape() {
        QueryPlan plan = plan(STAR);
        for (Pipeline p : plan.pipelines()) {
            Set<String> names = dims(plan, p).keySet();
            assertTrue(names.containsAll(List.of(JvmDimensions.WORKERS, JvmDimensions.MORSEL, JvmDimensions.ACCESS)), p.toString());
            assertEquals(p.sink() instanceof Sink.Build, names.contains(JvmDimensions.HASH_TABLE), p.toString());
            assertEquals(p.sink() instanceof Sink.GroupAggregate, names.contains(JvmDimensions.AGGREGATION), p.toString());
            assertEquals(p.sink() instanceof Sink.Build || p.sink() instanceof Sink.GroupAggregate,
                    names.contains(JvmDimensions.HASH), p.toString());
            boolean leadingComparison = !p.operations().isEmpty() && p.operations().get(0) instanceof Operation.Filter;
            assertEquals(leadingComparison, names.contains(JvmDimensions.SIMD), p.toString());
            assertFalse(names.contains(JvmDimensions.PREDICATION), "no run of two conjuncts in " + p);
            assertFalse(names.contains(JvmDimensions.PROBE_ORDER), "the filtered dimension is probed first already: " + p);
        }
        JvmVariantSpace noVectorApi = new JvmVariantSpace(4, false);
        for (Pipeline p : plan.pipelines()) {
            assertTrue(noVectorApi.dimensions(plan, p).stream().noneMatch(d -> d.name().equals(JvmDimensions.SIMD)));
        }
    }

    @Test
    void perfectTablesNeedASmallKnownKeyRange() {
        QueryPlan star = plan(STAR);
        Pipeline small = pipeline(star, Sink.Build.class, 0);
        assertEquals("perfect", dims(star, small).get(JvmDimensions.HASH_TABLE).get(0));
        assertEquals("perfect", SPACE.defaultGenome(star, small).get(JvmDimensions.HASH_TABLE));

        QueryPlan wide = plan(WIDE_KEY);
        Pipeline dg = pipeline(wide, Sink.Build.class, 0);
        assertFalse(JvmVariantSpace.perfectAllowed((Sink.Build) dg.sink()));
        assertEquals(List.of("linear", "cuckoo2", "cuckoo3", "cuckoo4"), dims(wide, dg).get(JvmDimensions.HASH_TABLE));
        assertEquals("linear", SPACE.defaultGenome(wide, dg).get(JvmDimensions.HASH_TABLE));
        Map<String, String> perfect = new LinkedHashMap<>(SPACE.defaultGenome(wide, dg).values());
        perfect.put(JvmDimensions.HASH_TABLE, "perfect");
        assertFalse(SPACE.valid(wide, dg, genome(perfect)));
    }

    @Test
    void denseAggregationNeedsKnownSmallKeyRanges() {
        QueryPlan wide = plan(WIDE_KEY);
        Pipeline byRange = pipeline(wide, Sink.GroupAggregate.class, 0);
        assertEquals(List.of("dense", "hash", "shared", "partitioned", "ordered"), dims(wide, byRange).get(JvmDimensions.AGGREGATION));
        assertEquals("dense", SPACE.defaultGenome(wide, byRange).get(JvmDimensions.AGGREGATION));
        // the same keys with a range far wider than the groups estimated: a dense array per worker would be mostly
        // empty, so hash tables are the default (dense stays allowed for the tuner)
        Sink.GroupAggregate ga = (Sink.GroupAggregate) byRange.sink();
        KeyRange wideRange = new KeyRange(0, 1_000_000);
        Sink.GroupAggregate sparse = new Sink.GroupAggregate(ga.keys(), ga.keyNames(), ga.aggs(),
                List.of(wideRange), ga.relationId(), 1_000);
        assertTrue(JvmVariantSpace.denseAllowed(sparse));
        assertEquals("hash", JvmVariantSpace.defaultAggregation(sparse));
        Sink.GroupAggregate filled = new Sink.GroupAggregate(ga.keys(), ga.keyNames(), ga.aggs(),
                List.of(wideRange), ga.relationId(), 600_000);
        assertEquals("dense", JvmVariantSpace.defaultAggregation(filled));
        for (String sql : List.of(CAN_FAIL, ALL_VECTOR)) { // a DOUBLE key; a computed key without a range
            QueryPlan plan = plan(sql);
            Pipeline p = pipeline(plan, Sink.GroupAggregate.class, 0);
            assertEquals(List.of("hash", "shared", "partitioned", "ordered"), dims(plan, p).get(JvmDimensions.AGGREGATION), sql);
            assertEquals("hash", SPACE.defaultGenome(plan, p).get(JvmDimensions.AGGREGATION));
        }
    }

    @Test
    void buildsMergesAndDistinctUnionsUseTheWorkersByDefault() {
        QueryPlan star = plan(STAR);
        Pipeline perfect = pipeline(star, Sink.Build.class, 0);
        assertEquals(List.of("serial", "partitioned", "atomic"), dims(star, perfect).get(JvmDimensions.JOIN_BUILD));
        assertEquals("atomic", SPACE.defaultGenome(star, perfect).get(JvmDimensions.JOIN_BUILD));
        QueryPlan wide = plan(WIDE_KEY);
        Pipeline linear = pipeline(wide, Sink.Build.class, 0);
        assertEquals("partitioned", SPACE.defaultGenome(wide, linear).get(JvmDimensions.JOIN_BUILD));
        Genome cuckoo = SPACE.defaultGenome(wide, linear).with(JvmDimensions.HASH_TABLE, "cuckoo2");
        assertTrue(SPACE.valid(wide, linear, cuckoo));
        assertFalse(SPACE.valid(wide, linear, cuckoo.with(JvmDimensions.JOIN_BUILD, "atomic")), "cuckoo by atomic inserts");

        Pipeline grouped = pipeline(wide, Sink.GroupAggregate.class, 0);
        assertEquals(List.of("serial", "partitioned"), dims(wide, grouped).get(JvmDimensions.GROUP_MERGE));
        Genome g = SPACE.defaultGenome(wide, grouped);
        assertEquals("partitioned", g.get(JvmDimensions.GROUP_MERGE));
        assertTrue(SPACE.valid(wide, grouped, g.with(JvmDimensions.GROUP_MERGE, "serial")));
        Genome striped = g.with(JvmDimensions.AGGREGATION, "shared").with(JvmDimensions.HASH, "murmur");
        assertTrue(SPACE.valid(wide, grouped, striped));
        assertFalse(SPACE.valid(wide, grouped, striped.with(JvmDimensions.GROUP_MERGE, "serial")),
                "shared stripes hold disjoint keys: nothing to merge serially");
        assertFalse(dims(wide, grouped).containsKey(JvmDimensions.DISTINCT), "no DISTINCT aggregate");

        QueryPlan distinct = plan("select f_a, count(distinct f_b), sum(f_x) from fact group by f_a");
        Pipeline d = pipeline(distinct, Sink.GroupAggregate.class, 0);
        assertEquals(List.of("serial", "partitioned"), dims(distinct, d).get(JvmDimensions.DISTINCT));
        assertEquals("partitioned", SPACE.defaultGenome(distinct, d).get(JvmDimensions.DISTINCT));
        QueryPlan total = plan("select count(distinct f_b) from fact");
        Pipeline t = pipeline(total, Sink.Aggregate.class, 0);
        assertEquals(List.of("serial", "partitioned"), dims(total, t).get(JvmDimensions.DISTINCT));

        JvmVariantSpace one = new JvmVariantSpace(1, false);
        for (Pipeline p : List.of(perfect, grouped)) {
            Set<String> names = new HashSet<>();
            one.dimensions(star, p).forEach(x -> names.add(x.name()));
            one.dimensions(wide, p).forEach(x -> names.add(x.name()));
            assertFalse(names.contains(JvmDimensions.JOIN_BUILD) || names.contains(JvmDimensions.GROUP_MERGE),
                    "one core: nobody to share a build or a merge with");
        }
    }

    @Test
    void theDefaultAggregationFollowsTheEstimatedGroups() {
        QueryPlan plan = plan(CAN_FAIL); // a DOUBLE key: no dense array
        Pipeline p = pipeline(plan, Sink.GroupAggregate.class, 0);
        Sink.GroupAggregate ga = (Sink.GroupAggregate) p.sink();
        for (double groups : new double[] {1, 1000, JvmVariantSpace.CACHED_GROUPS, JvmVariantSpace.CACHED_GROUPS + 1, 1e9}) {
            Sink.GroupAggregate estimated = new Sink.GroupAggregate(ga.keys(), ga.keyNames(), ga.aggs(), ga.ranges(),
                    ga.relationId(), groups);
            Pipeline q = new Pipeline(p.id(), p.source(), p.operations(), estimated);
            assertEquals(groups > JvmVariantSpace.CACHED_GROUPS ? "partitioned" : "hash",
                    SPACE.defaultGenome(plan, q).get(JvmDimensions.AGGREGATION), groups + " groups");
        }
    }

    @Test
    void predicationNeedsARunOfConjunctsThatCannotFail() {
        QueryPlan canFail = plan(CAN_FAIL);
        assertFalse(dims(canFail, canFail.pipelines().get(0)).containsKey(JvmDimensions.PREDICATION),
                "f_v / f_a may divide by zero for a row f_a < 5 rejects");
        QueryPlan star = plan(STAR);
        assertFalse(dims(star, star.pipelines().get(0)).containsKey(JvmDimensions.PREDICATION), "one conjunct");
        QueryPlan safe = plan(ALL_VECTOR);
        assertEquals(List.of("branch", "predicated"), dims(safe, safe.pipelines().get(0)).get(JvmDimensions.PREDICATION));
    }

    @Test
    void predicationAfterVectorizingNeedsTwoScalarConjunctsLeft() {
        // both conjuncts vectorize: nothing is left to predicate under simd=vector
        QueryPlan all = plan(ALL_VECTOR);
        Pipeline p = all.pipelines().get(0);
        Genome d = SPACE.defaultGenome(all, p);
        assertTrue(SPACE.valid(all, p, d.with(JvmDimensions.PREDICATION, "predicated")));
        assertTrue(SPACE.valid(all, p, d.with(JvmDimensions.SIMD, "vector")));
        assertFalse(SPACE.valid(all, p, d.with(JvmDimensions.SIMD, "vector").with(JvmDimensions.PREDICATION, "predicated")));
        // f_a < 5 vectorizes; f_x * 2 > 3 (DOUBLE arithmetic cannot fail) and the LIKE stay scalar and can be predicated
        QueryPlan left = plan(SCALAR_LEFT);
        Pipeline q = left.pipelines().get(0);
        Genome e = SPACE.defaultGenome(left, q);
        assertTrue(SPACE.valid(left, q, e.with(JvmDimensions.SIMD, "vector").with(JvmDimensions.PREDICATION, "predicated")),
                left.explain());
    }

    @Test
    void constraintsFixUnusedChoices() {
        QueryPlan star = plan(STAR);
        Pipeline build = pipeline(star, Sink.Build.class, 0);
        Pipeline agg = pipeline(plan(WIDE_KEY), Sink.GroupAggregate.class, 0);
        QueryPlan wide = plan(WIDE_KEY);
        Genome b = SPACE.defaultGenome(star, build);
        assertFalse(SPACE.valid(star, build, b.with(JvmDimensions.HASH, "murmur")), "perfect with murmur");
        assertTrue(SPACE.valid(star, build, b.with(JvmDimensions.HASH, "murmur").with(JvmDimensions.HASH_TABLE, "cuckoo2")
                .with(JvmDimensions.JOIN_BUILD, "partitioned")));
        Genome a = SPACE.defaultGenome(wide, agg);
        assertFalse(SPACE.valid(wide, agg, a.with(JvmDimensions.HASH, "murmur")), "dense with murmur");
        assertTrue(SPACE.valid(wide, agg, a.with(JvmDimensions.HASH, "murmur").with(JvmDimensions.AGGREGATION, "partitioned")));
        assertFalse(SPACE.valid(star, build, b.with(JvmDimensions.WORKERS, "1").with(JvmDimensions.ACCESS, "strided")));
        assertTrue(SPACE.valid(star, build, b.with(JvmDimensions.WORKERS, "2").with(JvmDimensions.ACCESS, "strided")));
        for (Genome g : Genomes.all(SPACE, star, build)) {
            assertFalse("perfect".equals(g.get(JvmDimensions.HASH_TABLE)) && "murmur".equals(g.get(JvmDimensions.HASH)));
        }
    }

    @Test
    void probeOrderOnlyWhereInnerAndSemiProbesMayMove() {
        // written: join 0 matches every row, join 1 a tenth, join 2 half: by selectivity 1, 2, 0
        QueryPlan moves = ConstructedPlans.star(new double[] {100, 10, 50},
                ConstructedPlans.kinds(JoinKind.INNER, JoinKind.SEMI, JoinKind.INNER), null);
        Pipeline fact = moves.pipelines().get(3);
        assertEquals(List.of("written", "selectivity"), dims(moves, fact).get(JvmDimensions.PROBE_ORDER));
        assertEquals(List.of(1, 2, 0), PipelineAnalysis.probesBySelectivity(fact.operations()).stream()
                .map(op -> ((Operation.Probe) op).joinId()).toList());

        // an anti and a left probe stay; the inner probes around them have no neighbour to swap with
        QueryPlan fixed = ConstructedPlans.star(new double[] {100, 10, 50, 1},
                ConstructedPlans.kinds(JoinKind.INNER, JoinKind.ANTI, JoinKind.INNER, JoinKind.LEFT), null);
        assertFalse(dims(fixed, fixed.pipelines().get(4)).containsKey(JvmDimensions.PROBE_ORDER));

        // join 1's key is join 0's payload: join 1 cannot run first, though it is more selective
        QueryPlan dependent = ConstructedPlans.star(new double[] {100, 10},
                ConstructedPlans.kinds(JoinKind.INNER, JoinKind.INNER),
                new io.tessera.plan.Expr[] {null, ConstructedPlans.payload(0, 1)});
        assertFalse(dims(dependent, dependent.pipelines().get(2)).containsKey(JvmDimensions.PROBE_ORDER));

        // already in selectivity order: both values would be the same code
        QueryPlan sorted = ConstructedPlans.star(new double[] {10, 50, 100},
                ConstructedPlans.kinds(JoinKind.INNER, JoinKind.INNER, JoinKind.INNER), null);
        assertFalse(dims(sorted, sorted.pipelines().get(3)).containsKey(JvmDimensions.PROBE_ORDER));
        assertFalse(dims(plan(LEFT_JOIN), plan(LEFT_JOIN).pipelines().get(2)).containsKey(JvmDimensions.PROBE_ORDER));
    }

    /** The constraints of the space written out again, to count valid genomes independently. */
    static boolean holds(QueryPlan plan, Pipeline p, Map<String, String> g) {
        if ("perfect".equals(g.get("ht")) && !"mulshift".equals(g.get("hash"))) {
            return false;
        }
        if ("dense".equals(g.get("agg")) && !"mulshift".equals(g.get("hash"))) {
            return false;
        }
        if ("1".equals(g.get("workers")) && !"dynamic".equals(g.get("access"))) {
            return false;
        }
        if (g.containsKey("ht") && g.get("ht").startsWith("cuckoo") && "atomic".equals(g.get("build"))) {
            return false;
        }
        if (g.containsKey("agg") && Set.of("shared", "partitioned").contains(g.get("agg")) && g.containsKey("merge")
                && !"partitioned".equals(g.get("merge"))) {
            return false;
        }
        for (String end : List.of("sort", "topk", "window")) {
            if ("1".equals(g.get("workers")) && g.containsKey(end) && !"serial".equals(g.get(end))) {
                return false;
            }
        }
        if ("vector".equals(g.get("simd")) && "predicated".equals(g.get("pred"))) {
            return PipelineAnalysis.filterRuns(PipelineAnalysis.withoutLeadingColumnComparisons(p.operations()))
                    .stream().anyMatch(r -> PipelineAnalysis.predicable(r.conjuncts()));
        }
        return true;
    }

    @Test
    void countsAreTheProductLessWhatTheConstraintsExclude() {
        for (String sql : QUERIES) {
            QueryPlan plan = plan(sql);
            for (Pipeline p : plan.pipelines()) {
                List<Dimension> ds = SPACE.dimensions(plan, p);
                long independent = 0;
                int[] at = new int[ds.size()];
                while (true) {
                    Map<String, String> g = new HashMap<>();
                    for (int i = 0; i < at.length; i++) {
                        g.put(ds.get(i).name(), ds.get(i).values().get(at[i]));
                    }
                    independent += holds(plan, p, g) ? 1 : 0;
                    int i = at.length - 1;
                    while (i >= 0 && ++at[i] == ds.get(i).values().size()) {
                        at[i--] = 0;
                    }
                    if (i < 0) {
                        break;
                    }
                }
                assertEquals(independent, Genomes.count(SPACE, plan, p), sql + "\n" + p);
                assertEquals(independent, Genomes.all(SPACE, plan, p).size());
            }
        }
        // closed form for the filtered build of STAR: workers and access (dynamic only with one worker), morsel,
        // simd, ht, hash and build (perfect only with mulshift, cuckoo never atomic)
        QueryPlan star = plan(STAR);
        Pipeline build = pipeline(star, Sink.Build.class, 0);
        Map<String, List<String>> d = dims(star, build);
        long w = d.get("workers").size();
        long builds = d.get("build").size();
        long hashes = d.get("hash").size();
        assertEquals(List.of("perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4"), d.get("ht"));
        long tables = builds + hashes * builds + 3 * hashes * (builds - 1);
        long expected = (1 + (w - 1) * d.get("access").size()) * d.get("morsel").size() * d.get("simd").size() * tables;
        assertEquals(expected, Genomes.count(SPACE, star, build));
        assertEquals(d.keySet(), Set.of("workers", "ht", "simd", "hash", "build", "morsel", "access"));
    }

    @Test
    void validRejectsMalformedGenomes() {
        QueryPlan star = plan(STAR);
        Pipeline build = pipeline(star, Sink.Build.class, 0);
        Genome d = SPACE.defaultGenome(star, build);
        assertTrue(SPACE.valid(star, build, d));
        assertFalse(SPACE.valid(star, build, Genome.of("cuda", d.values())), "another backend");
        assertFalse(SPACE.valid(star, build, d.with("agg", "hash")), "a dimension that does not apply");
        Map<String, String> missing = new LinkedHashMap<>(d.values());
        missing.remove(JvmDimensions.MORSEL);
        assertFalse(SPACE.valid(star, build, genome(missing)), "a dimension left out");
        assertFalse(SPACE.valid(star, build, d.with(JvmDimensions.MORSEL, "1000")), "not a declared value");
        assertFalse(SPACE.valid(star, build, d.with(JvmDimensions.WORKERS, "8")), "more workers than cores");
        Pipeline fact = pipeline(star, Sink.GroupAggregate.class, 0);
        Map<Integer, Genome> defaults = Genomes.defaults(SPACE, star);
        assertTrue(SPACE.valid(star, fact, defaults.get(fact.id())), "derived dimensions are accepted");
    }

    @Test
    void completeMirrorsTheTableAndHashOfEveryProbedBuild() {
        QueryPlan star = plan(STAR);
        Map<Integer, Genome> chosen = new HashMap<>();
        List<String> kinds = List.of("cuckoo3", "linear");
        int b = 0;
        for (Pipeline p : star.pipelines()) {
            Genome g = SPACE.defaultGenome(star, p);
            if (p.sink() instanceof Sink.Build) {
                g = g.with(JvmDimensions.HASH_TABLE, kinds.get(b)).with(JvmDimensions.HASH, b == 0 ? "murmur" : "mulshift");
                b++;
            }
            chosen.put(p.id(), SPACE.complete(star, p, g, chosen));
        }
        Pipeline fact = pipeline(star, Sink.GroupAggregate.class, 0);
        Genome g = chosen.get(fact.id());
        for (Operation op : fact.operations()) {
            int j = ((Operation.Probe) op).joinId();
            Pipeline buildOfJ = star.pipelines().stream()
                    .filter(p -> p.sink() instanceof Sink.Build bb && bb.joinId() == j).findFirst().orElseThrow();
            assertEquals(chosen.get(buildOfJ.id()).get(JvmDimensions.HASH_TABLE), g.get(JvmDimensions.probeTable(j)));
            assertEquals(chosen.get(buildOfJ.id()).get(JvmDimensions.HASH), g.get(JvmDimensions.probeHash(j)));
        }
        assertThrows(IllegalArgumentException.class,
                () -> SPACE.complete(star, fact, SPACE.defaultGenome(star, fact), Map.of()));
    }

    @Test
    void defaultsAreValidAndAreWhatTheEngineUses() {
        for (String sql : QUERIES) {
            QueryPlan plan = plan(sql);
            Map<Integer, Genome> defaults = Genomes.defaults(new JvmVariantSpace(3), plan);
            assertEquals(defaults, DefaultGenomes.forPlan(plan, 3));
            for (Pipeline p : plan.pipelines()) {
                assertTrue(SPACE.valid(plan, p, SPACE.defaultGenome(plan, p)), p.toString());
            }
        }
    }

    @Test
    void everyDeclaredValueOccursInSomeValidGenome() {
        for (String sql : QUERIES) {
            QueryPlan plan = plan(sql);
            for (Pipeline p : plan.pipelines()) {
                Set<String> seen = new HashSet<>();
                for (Genome g : Genomes.all(SPACE, plan, p)) {
                    g.values().forEach((k, v) -> seen.add(k + "=" + v));
                }
                for (Dimension d : SPACE.dimensions(plan, p)) {
                    assertTrue(d.values().size() >= 2, "a dimension offers a choice: " + d);
                    for (String v : d.values()) {
                        assertTrue(seen.contains(d.name() + "=" + v), d.name() + "=" + v + " is never valid in " + p);
                    }
                }
            }
        }
    }

    @Test
    void sortTopKAndWindowStrategiesApplyToTheirSinksWithDefaultsBySize() {
        Map<String, String> dimOfQuery = Map.of(STAR, JvmDimensions.SORT, TOP_K, JvmDimensions.TOP_K,
                WINDOW, JvmDimensions.WINDOW);
        Map<String, List<String>> values = Map.of(JvmDimensions.SORT, List.of("serial", "runs"),
                JvmDimensions.TOP_K, List.of("serial", "worker"), JvmDimensions.WINDOW, List.of("serial", "partitions"));
        for (Map.Entry<String, String> q : dimOfQuery.entrySet()) {
            QueryPlan plan = plan(q.getKey());
            String dim = q.getValue();
            int withDim = 0;
            for (Pipeline p : plan.pipelines()) {
                Set<String> names = dims(plan, p).keySet();
                Set<String> ends = new HashSet<>(names);
                ends.retainAll(List.of(JvmDimensions.SORT, JvmDimensions.TOP_K, JvmDimensions.WINDOW));
                if (!names.contains(dim)) {
                    assertTrue(ends.isEmpty(), p.toString());
                    continue;
                }
                withDim++;
                assertEquals(Set.of(dim), ends, p.toString());
                assertEquals(values.get(dim), dims(plan, p).get(dim));
                // 2,000 rows: the serial value; a million estimated rows: the parallel one
                assertEquals("serial", SPACE.defaultGenome(plan, p).get(dim));
                Pipeline large = new Pipeline(p.id(), new io.tessera.plan.Source.RelationScan(0, p.source().columns(),
                        1e6), p.operations(), p.sink());
                assertEquals(values.get(dim).get(1), SPACE.defaultGenome(plan, large).get(dim));
                Genome d = SPACE.defaultGenome(plan, p);
                assertFalse(SPACE.valid(plan, p, d.with(JvmDimensions.WORKERS, "1").with(dim, values.get(dim).get(1))),
                        "one worker runs the serial way");
                assertTrue(SPACE.valid(plan, p, d.with(JvmDimensions.WORKERS, "2").with(dim, values.get(dim).get(1))));
                assertTrue(new JvmVariantSpace(1, false).dimensions(plan, p).stream().noneMatch(x -> x.name().equals(dim)),
                        "one core: nothing to run in parallel");
            }
            assertEquals(1, withDim, q.getKey() + "\n" + plan.explain());
        }
    }

    @Test
    void constraintsAreListedOnlyWhereTheirDimensionsApply() {
        QueryPlan star = plan(STAR);
        Pipeline build = pipeline(star, Sink.Build.class, 0);
        List<String> names = SPACE.constraints(star, build).stream().map(JvmVariantSpace.Constraint::description).toList();
        assertTrue(names.stream().anyMatch(n -> n.contains("perfect")), names.toString());
        assertFalse(names.stream().anyMatch(n -> n.contains("dense")), names.toString());
        assertNotEquals(0, names.size());
    }
}
