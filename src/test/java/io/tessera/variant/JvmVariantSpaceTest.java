package io.tessera.variant;

import io.tessera.bench.Queries;
import io.tessera.bench.TinySsb;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.storage.Database;
import io.tessera.tune.DefaultGenomes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmVariantSpaceTest {

    @TempDir
    static Path dir;
    static Database db;

    @BeforeAll
    static void data() {
        TinySsb.build(dir, 3, 2_000);
        db = Database.open(dir);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    static QueryPlan plan(String q) {
        return new QueryEngine(db, 2).prepare(Queries.sql("ssb", q)).plan();
    }

    @Test
    void defaultsCompletedAreTheDefaultGenomes() {
        for (int cores : new int[] {1, 2, 6}) {
            JvmVariantSpace space = new JvmVariantSpace(cores);
            for (String q : Queries.names("ssb")) {
                QueryPlan plan = plan(q);
                Map<Integer, Genome> free = new HashMap<>();
                for (Pipeline p : plan.pipelines()) {
                    Genome d = space.defaultGenome(plan, p);
                    assertTrue(space.valid(plan, p, d), q + " " + d);
                    free.put(p.id(), d);
                }
                Map<Integer, Genome> expected = DefaultGenomes.forPlan(plan, cores);
                for (Pipeline p : plan.pipelines()) {
                    assertEquals(expected.get(p.id()).toString(), space.complete(plan, p, free.get(p.id()), free).toString(),
                            q + " pipeline " + p.id());
                }
            }
        }
    }

    @Test
    void dimensionsFollowThePipeline() {
        assertEquals(List.of("1", "2"), new JvmVariantSpace(2).workerValues());
        assertEquals(List.of("1", "2", "4", "6"), new JvmVariantSpace(6).workerValues());
        assertEquals(List.of("1"), new JvmVariantSpace(1).workerValues());
        JvmVariantSpace space = new JvmVariantSpace(2);
        for (String q : Queries.names("ssb")) {
            QueryPlan plan = plan(q);
            for (Pipeline p : plan.pipelines()) {
                List<String> names = space.dimensions(plan, p).stream().map(Dimension::name).toList();
                assertEquals(List.of("workers", "morsel"), names.subList(0, 2));
                assertEquals(p.operations().stream().anyMatch(o -> o instanceof Operation.Filter), names.contains("pred"));
                assertEquals(p.sink() instanceof Sink.Build || p.sink() instanceof Sink.GroupAggregate, names.contains("hash"));
                assertEquals(p.sink() instanceof Sink.Build, names.contains("ht"));
                assertEquals(p.sink() instanceof Sink.GroupAggregate, names.contains("agg"));
                assertFalse(names.stream().anyMatch(n -> n.contains(".j")), "derived dimensions are not free");
            }
        }
    }

    @Test
    void constraintsExcludeDuplicateAndImpossibleVariants() {
        JvmVariantSpace space = new JvmVariantSpace(2);
        QueryPlan plan = plan("q2.1");
        Pipeline build = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Build).findFirst().orElseThrow();
        Pipeline agg = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.GroupAggregate).findFirst().orElseThrow();
        Genome b = space.defaultGenome(plan, build);
        assertEquals("perfect", b.get("ht"));
        assertTrue(space.valid(plan, build, b.with("ht", "linear").with("hash", "murmur")));
        assertFalse(space.valid(plan, build, b.with("hash", "murmur")), "a perfect table does not hash");
        assertFalse(space.valid(plan, build, b.with("ht", "cuckoo")));
        assertFalse(space.valid(plan, build, b.with("workers", "3")));
        assertFalse(space.valid(plan, build, Genome.of("cuda", b.values())));
        Genome a = space.defaultGenome(plan, agg);
        assertEquals("dense", a.get("agg"));
        assertFalse(space.valid(plan, agg, a.with("hash", "murmur")), "a dense array does not hash");
        assertTrue(space.valid(plan, agg, a.with("agg", "hash").with("hash", "murmur")));
        // a probe mirrors its build
        Pipeline fact = plan.pipelines().stream().filter(p -> p.operations().stream().anyMatch(o -> o instanceof Operation.Probe))
                .findFirst().orElseThrow();
        Map<Integer, Genome> free = new HashMap<>();
        for (Pipeline p : plan.pipelines()) {
            free.put(p.id(), space.defaultGenome(plan, p));
        }
        int join = ((Sink.Build) build.sink()).joinId();
        free.put(build.id(), b.with("ht", "linear").with("hash", "murmur"));
        Genome completed = space.complete(plan, fact, free.get(fact.id()), free);
        assertEquals("linear", completed.get(JvmDimensions.probeTable(join)));
        assertEquals("murmur", completed.get(JvmDimensions.probeHash(join)));
    }

    @Test
    void theRegistryGivesEachBackendItsSpace() {
        VariantSpace s = VariantSpaces.forBackend("jvm", 4);
        assertInstanceOf(JvmVariantSpace.class, s);
        assertEquals(4, ((JvmVariantSpace) s).cores());
        assertEquals("jvm", VariantSpaces.forBackend("jvm").backend());
        assertEquals(List.of("workers", "morsel"), VariantSpaces.threadDimensions("jvm"));
        assertTrue(VariantSpaces.has("jvm"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VariantSpaces.forBackend("opencl"));
        assertTrue(e.getMessage().contains("no variant space for backend 'opencl'") && e.getMessage().contains("jvm"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new JvmVariantSpace(0));
    }
}
