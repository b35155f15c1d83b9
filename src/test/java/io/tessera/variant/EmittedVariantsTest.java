package io.tessera.variant;

import io.tessera.Tessera;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each value of the dimensions that shape the generated code shows in the code (compiled, not run). */
class EmittedVariantsTest {

    static final JvmVariantSpace SPACE = new JvmVariantSpace(2, JvmVariantSpace.vectorApiPresent());

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

    /** The compiled sources of the plan with one pipeline's genome changed from the default. */
    static Map<Integer, String> sources(QueryPlan plan, Function<Pipeline, Genome> choose) {
        Map<Integer, Genome> genomes = Genomes.forPlan(SPACE, plan, choose);
        Map<Integer, String> out = new HashMap<>();
        for (EmittedPipeline e : JvmExecutor.compile(plan, genomes).pipelines()) {
            out.put(e.pipeline().id(), e.source());
        }
        return out;
    }

    /** Default genomes, except pipeline {@code pipeline} with {@code dimValues} (pairs of dimension and value). */
    static Function<Pipeline, Genome> with(QueryPlan plan, int pipeline, String... dimValues) {
        return p -> {
            Genome g = SPACE.defaultGenome(plan, p);
            if (p.id() == pipeline) {
                for (int i = 0; i < dimValues.length; i += 2) {
                    g = g.with(dimValues[i], dimValues[i + 1]);
                }
                assertTrue(SPACE.valid(plan, p, g), g.toString());
            }
            return g;
        };
    }

    @Test
    void aggregationStrategies() {
        QueryPlan plan = tessera.engine().plan(JvmVariantSpaceTest.WIDE_KEY);
        Pipeline agg = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.GroupAggregate).findFirst().orElseThrow();
        Map<String, String> marker = Map.of("dense", "DenseGroupTable t", "hash", "HashGroupTable t = (io.tessera.backend.jvm.aggregate.HashGroupTable) sinkState",
                "shared", "synchronized (t)", "partitioned", "public void aggregatePartition");
        for (String v : SPACE.dimensions(plan, agg).stream().filter(d -> d.name().equals(JvmDimensions.AGGREGATION))
                .findFirst().orElseThrow().values()) {
            String src = sources(plan, with(plan, agg.id(), JvmDimensions.AGGREGATION, v)).get(agg.id());
            marker.forEach((value, m) -> assertEquals(value.equals(v), src.contains(m), v + " / " + value + ":\n" + src));
        }
        String murmur = sources(plan, with(plan, agg.id(), JvmDimensions.AGGREGATION, "shared", JvmDimensions.HASH, "murmur"))
                .get(agg.id());
        assertTrue(murmur.contains(", murmur)"), murmur);
    }

    @Test
    void joinTablesAndTheirHashInTheProbe() {
        QueryPlan plan = tessera.engine().plan(JvmVariantSpaceTest.STAR);
        Pipeline build = plan.pipelines().get(0);
        int j = ((Sink.Build) build.sink()).joinId();
        Pipeline probe = plan.pipelines().stream().filter(p -> p.operations().stream()
                .anyMatch(op -> op instanceof Operation.Probe pr && pr.joinId() == j)).findFirst().orElseThrow();
        for (String ht : List.of("perfect", "linear", "cuckoo2", "cuckoo3", "cuckoo4")) {
            // a cuckoo table is not built by atomic inserts: its build is partitioned
            String src = sources(plan, ht.startsWith("cuckoo")
                    ? with(plan, build.id(), JvmDimensions.HASH_TABLE, ht, JvmDimensions.JOIN_BUILD, "partitioned")
                    : with(plan, build.id(), JvmDimensions.HASH_TABLE, ht)).get(probe.id());
            assertTrue(src.contains("PROBE j" + j + " (INNER, " + ht + ")"), src);
            assertEquals(ht.equals("perfect"), src.contains("j" + j + "_first"), ht);
            assertEquals(ht.equals("linear"), src.contains("for (int slot"), ht);
            int ways = ht.startsWith("cuckoo") ? ht.charAt(6) - '0' : 0;
            for (int fn = 0; fn < 4; fn++) {
                assertEquals(fn < ways, src.contains("Hashing.cuckoo(key") && src.matches("(?s).*Hashing\\.cuckoo\\(key\\d+, " + fn + ",.*"),
                        ht + " function " + fn);
            }
        }
        Function<Pipeline, Genome> murmur = p -> {
            Genome g = SPACE.defaultGenome(plan, p);
            return p.id() == build.id() ? g.with(JvmDimensions.HASH_TABLE, "cuckoo2").with(JvmDimensions.HASH, "murmur") : g;
        };
        assertTrue(sources(plan, murmur).get(probe.id()).contains(", true);"), "murmur's cuckoo functions");
    }

    @Test
    void vectorizedFiltersAndPredication() {
        QueryPlan plan = tessera.engine().plan(JvmVariantSpaceTest.SCALAR_LEFT);
        Pipeline p = plan.pipelines().get(0);
        String scalar = sources(plan, q -> SPACE.defaultGenome(plan, q)).get(p.id());
        assertFalse(scalar.contains("VectorFilter"));
        assertFalse(scalar.contains("(predicated)"));
        String predicated = sources(plan, with(plan, p.id(), JvmDimensions.PREDICATION, "predicated")).get(p.id());
        assertTrue(predicated.contains("FILTER (predicated)") && predicated.contains(") & ("), predicated);
        if (SPACE.dimensions(plan, p).stream().anyMatch(d -> d.name().equals(JvmDimensions.SIMD))) {
            String vector = sources(plan, with(plan, p.id(), JvmDimensions.SIMD, "vector")).get(p.id());
            // the bound is a constant of the query, a field read from the array bound at run time
            assertTrue(java.util.regex.Pattern.compile("\\.ints\\(ctx\\.column\\(1\\)\\.data\\(\\), io\\.tessera\\.backend\\.jvm\\.lib\\.VectorFilter\\.LT, k\\d+\\)")
                    .matcher(vector).find(), vector);
            // native columns are compared in the query's own class, heap ones through the shared filter
            assertTrue(vector.contains("final long[] sel = vectorSelect(from, to);"), vector);
            assertTrue(java.util.regex.Pattern.compile("\\.compare\\(jdk\\.incubator\\.vector\\.VectorOperators\\.LT, k\\d+\\)\\.toLong\\(\\) << j;")
                    .matcher(vector).find(), vector);
            assertTrue(vector.contains(".isNative())) {"), vector);
            assertTrue(vector.contains("Long.numberOfTrailingZeros(word)"), vector);
            assertFalse(vector.contains("// FILTER lt(c1, lit"), "the vectorized comparison is not evaluated again");
        } else {
            assertFalse(JvmVariantSpace.vectorApiPresent(), "simd applies when the Vector API is there");
        }
    }

    @Test
    void probesRunInTheOrderTheGenomeSays() {
        QueryPlan plan = ConstructedPlans.star(new double[] {100, 10, 50},
                ConstructedPlans.kinds(io.tessera.plan.JoinKind.INNER, io.tessera.plan.JoinKind.INNER,
                        io.tessera.plan.JoinKind.INNER), null);
        Pipeline fact = plan.pipelines().get(3);
        for (String order : List.of("written", "selectivity")) {
            Map<Integer, Genome> g = Genomes.forPlan(SPACE, plan, p -> p.id() == fact.id()
                    ? SPACE.defaultGenome(plan, p).with(JvmDimensions.PROBE_ORDER, order) : SPACE.defaultGenome(plan, p));
            String src = io.tessera.backend.jvm.gen.PipelineEmitter.emit(fact, g.get(fact.id())).source();
            List<Operation> expected = order.equals("written") ? fact.operations()
                    : PipelineAnalysis.probesBySelectivity(fact.operations());
            int at = -1;
            for (Operation op : expected) {
                int next = src.indexOf("// PROBE j" + ((Operation.Probe) op).joinId() + " ");
                assertTrue(next > at, order + ": probe j" + ((Operation.Probe) op).joinId() + " out of place\n" + src);
                at = next;
            }
        }
    }
}
