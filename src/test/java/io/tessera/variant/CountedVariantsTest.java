package io.tessera.variant;

import io.tessera.Tessera;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineEmitter;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.PipelineAnalysis;
import io.tessera.plan.QueryPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EXPLAIN ANALYZE's row counters under the genomes that change the order of the emitted operations: an operation is
 * counted only where the rows after it in the emitted code are the rows after it in the plan.
 */
class CountedVariantsTest {

    static final JvmVariantSpace SPACE = EmittedVariantsTest.SPACE;

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

    @Test
    void reorderedProbesAreCountedWhereThePlansPrefixIsComplete() {
        QueryPlan plan = ConstructedPlans.star(new double[] {100, 10, 50},
                ConstructedPlans.kinds(JoinKind.INNER, JoinKind.INNER, JoinKind.INNER), null);
        Pipeline fact = plan.pipelines().get(3);
        Genome g = Genomes.forPlan(SPACE, plan, p -> p.id() == fact.id()
                ? SPACE.defaultGenome(plan, p).with(JvmDimensions.PROBE_ORDER, "selectivity")
                : SPACE.defaultGenome(plan, p)).get(fact.id());
        List<Operation> emitted = PipelineAnalysis.probesBySelectivity(fact.operations());
        assertFalse(emitted.equals(fact.operations()), "the test needs probes that move");
        List<Integer> expected = new ArrayList<>();
        for (int j = 0; j < emitted.size(); j++) {
            if (new HashSet<>(emitted.subList(0, j + 1)).equals(new HashSet<>(fact.operations().subList(0, j + 1)))) {
                expected.add(j);
            }
        }
        EmittedPipeline e = PipelineEmitter.emit(fact, g, true);
        assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), e.countedOperations(), e.source());
        for (int op = 0; op < fact.operations().size(); op++) {
            assertEquals(expected.contains(op), e.source().contains("rowCounts[" + op + "] += rowsOut" + op + ";"),
                    "operation " + op + "\n" + e.source());
        }
        // the plain code has no counter and the same source as before
        EmittedPipeline plain = PipelineEmitter.emit(fact, g);
        assertEquals(0, plain.countedOperations().length);
        assertFalse(plain.source().contains("rowsOut"), plain.source());
        assertEquals(plain.source(), PipelineEmitter.emit(fact, g, false).source());
    }

    @Test
    void aVectorizedFilterIsCountedAfterTheFiltersItTook() {
        QueryPlan plan = tessera.engine().plan(JvmVariantSpaceTest.SCALAR_LEFT);
        Pipeline p = plan.pipelines().get(0);
        if (SPACE.dimensions(plan, p).stream().noneMatch(d -> d.name().equals(JvmDimensions.SIMD))) {
            assertFalse(JvmVariantSpace.vectorApiPresent(), "simd applies when the Vector API is there");
            return;
        }
        Genome g = SPACE.defaultGenome(plan, p).with(JvmDimensions.SIMD, "vector");
        EmittedPipeline e = PipelineEmitter.emit(p, g, true);
        int taken = PipelineAnalysis.leadingFilters(p.operations());
        assertTrue(taken > 0);
        int[] expected = IntStream.range(taken - 1, p.operations().size()).toArray();
        assertArrayEquals(expected, e.countedOperations(), Arrays.toString(e.countedOperations()) + "\n" + e.source());
        assertTrue(e.source().contains("public void run(long from, long to, Object sinkState, long[] rowCounts) {"),
                e.source());
    }
}
