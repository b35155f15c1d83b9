package io.tessera.variant;

import io.tessera.Tessera;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default workers and build of a pipeline from its estimated rows: on two cores a pipeline whose every estimate
 * is small runs on one worker (and so ends serially), a small perfect join table is indexed by one thread; at or above the
 * limits, and on more cores, the defaults are all cores and the parallel builds. The pipelines are the test
 * database's, with their estimates replaced.
 */
class SmallPipelineDefaultsTest {

    static final JvmVariantSpace TWO = new JvmVariantSpace(2, false);
    static final JvmVariantSpace FOUR = new JvmVariantSpace(4, false);
    static final double SMALL = JvmVariantSpace.PARALLEL_PIPELINE_ROWS - 1;
    static final double LARGE = JvmVariantSpace.PARALLEL_PIPELINE_ROWS;

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

    /** {@code p} with every estimate {@code rows}, but the one at {@code at} (-1: none) {@code peak}. */
    static Pipeline estimated(Pipeline p, double rows, int at, double peak) {
        List<Double> est = new ArrayList<>(Collections.nCopies(p.estimatedRows().size(), rows));
        if (at >= 0) {
            est.set(at, peak);
        }
        Source src = p.source() instanceof Source.RelationScan rs
                ? new Source.RelationScan(rs.relationId(), rs.columns(), est.get(0)) : p.source();
        return new Pipeline(p.id(), src, p.operations(), p.sink(), est);
    }

    static String workers(JvmVariantSpace space, QueryPlan plan, Pipeline p) {
        Genome g = space.defaultGenome(plan, p);
        assertTrue(space.valid(plan, p, g), g + " of " + p);
        return g.get(JvmDimensions.WORKERS);
    }

    @Test
    void aPipelineRunsOnOneWorkerOnTwoCoresWhileEveryEstimateIsSmall() {
        QueryPlan plan = plan("select f_a, count(*) from fact where f_b < 40 group by f_a");
        Pipeline p = plan.pipelines().get(0);
        int steps = p.estimatedRows().size();
        assertEquals("1", workers(TWO, plan, estimated(p, SMALL, -1, 0)));
        for (int at = 0; at < steps; at++) {
            assertEquals("2", workers(TWO, plan, estimated(p, 10, at, LARGE)), "a large estimate at step " + at);
        }
        assertEquals("4", workers(FOUR, plan, estimated(p, SMALL, -1, 0)), "more cores: all of them, as before");
        // no estimate at all: as before
        assertEquals("2", workers(TWO, plan, estimated(p, Double.NaN, -1, 0)));
    }

    @Test
    void aTopKOnOneWorkerEndsSerially() {
        QueryPlan plan = plan("select f_a, count(*) from fact group by f_a order by 2 desc limit 3");
        Pipeline topK = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Sort).findFirst().orElseThrow();
        // a source above the parallel end's rows but below the pipeline's: one worker, so a serial top-k
        Pipeline p = estimated(topK, JvmVariantSpace.PARALLEL_END_ROWS, -1, 0);
        Genome g = TWO.defaultGenome(plan, p);
        assertEquals("1", g.get(JvmDimensions.WORKERS));
        assertEquals("serial", g.get(JvmDimensions.TOP_K));
        assertTrue(TWO.valid(plan, p, g));
        Genome large = TWO.defaultGenome(plan, estimated(topK, LARGE, -1, 0));
        assertEquals("2", large.get(JvmDimensions.WORKERS));
        assertEquals("worker", large.get(JvmDimensions.TOP_K));
    }

    /** {@code p}, a BUILD pipeline, with a table estimated at {@code rows} rows and a large scan before it. */
    static Pipeline build(Pipeline p, double rows) {
        Sink.Build b = (Sink.Build) p.sink();
        Sink.Build sized = new Sink.Build(b.joinId(), b.keys(), b.payload(), b.payloadNames(), b.uniqueKeys(),
                b.range(), rows, b.commonKeyTypes(), b.keepsNullKeys());
        List<Double> est = new ArrayList<>(Collections.nCopies(p.estimatedRows().size(), 4 * LARGE));
        est.set(est.size() - 1, rows);
        return new Pipeline(p.id(), p.source(), p.operations(), sized, est);
    }

    @Test
    void aSmallPerfectTableIsIndexedByOneThreadOnTwoCores() {
        QueryPlan plan = plan(JvmVariantSpaceTest.STAR);
        Pipeline perfect = plan.pipelines().stream().filter(p -> p.sink() instanceof Sink.Build b
                && JvmVariantSpace.perfectAllowed(b)).findFirst().orElseThrow();
        double below = JvmVariantSpace.PARALLEL_BUILD_ROWS - 1;
        double at = JvmVariantSpace.PARALLEL_BUILD_ROWS;
        Genome small = TWO.defaultGenome(plan, build(perfect, below));
        assertEquals("2", small.get(JvmDimensions.WORKERS), "the scan before it is large");
        assertEquals("serial", small.get(JvmDimensions.JOIN_BUILD));
        assertEquals("atomic", TWO.defaultGenome(plan, build(perfect, at)).get(JvmDimensions.JOIN_BUILD));
        assertEquals("atomic", FOUR.defaultGenome(plan, build(perfect, below)).get(JvmDimensions.JOIN_BUILD));

        QueryPlan wide = plan(JvmVariantSpaceTest.WIDE_KEY);
        Pipeline hashed = wide.pipelines().stream()
                .filter(p -> p.sink() instanceof Sink.Build b && !JvmVariantSpace.perfectAllowed(b))
                .findFirst().orElseThrow();
        // a hashed table's partitioned build shares its hashing and probing: kept at every size
        assertEquals("partitioned", TWO.defaultGenome(wide, build(hashed, below)).get(JvmDimensions.JOIN_BUILD));
        assertEquals("partitioned", TWO.defaultGenome(wide, build(hashed, at)).get(JvmDimensions.JOIN_BUILD));
    }
}
