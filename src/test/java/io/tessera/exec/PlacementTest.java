package io.tessera.exec;

import io.tessera.backend.Backend;
import io.tessera.backend.Intermediate;
import io.tessera.backend.PlacementRound;
import io.tessera.backend.QueryState;
import io.tessera.backend.cuda.exec.CudaBackend;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Collection;
import java.util.Set;
import java.util.function.IntPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the executor places pipelines, with a stand-in for a GPU backend that can run some of them: a table is
 * built on the device of its probes, a probe runs where its table is, and each pipeline says why it runs where.
 */
class PlacementTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(3, 20_000);

    private static final String Q = "SELECT d_year, s_nation, SUM(lo_revenue) FROM lineorder, ddate, supplier "
            + "WHERE lo_orderdate = d_datekey AND lo_suppkey = s_suppkey GROUP BY d_year, s_nation "
            + "ORDER BY d_year, s_nation";

    /** A GPU that can run the pipelines {@code can} accepts, and nothing else. */
    private static Backend.Query gpu(IntPredicate can) {
        return new Backend.Query() {
            @Override
            public PlacementRound placementRound() {
                return (p, placed) -> can.test(p.id()) ? null : "no GPU code (test)";
            }

            @Override
            public void prepare(Collection<Pipeline> pipelines) {
            }

            @Override
            public void run(Pipeline pipeline, QueryState state) {
                throw new UnsupportedOperationException("a stand-in GPU for placement runs nothing");
            }
        };
    }

    private static boolean scans(QueryPlan plan, int id) {
        return plan.pipelines().stream().anyMatch(pl -> pl.id() == id && pl.source() instanceof Source.TableScan);
    }

    private static QueryPlan plan() {
        return new QueryEngine(SSB.db(), 1).plan(Q);
    }

    @Test
    void everythingTheGpuCanRunRunsThereAndTheRestOnTheJvm() {
        QueryPlan plan = plan();
        Placement p = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu(id -> scans(plan, id)));
        for (Pipeline pl : plan.pipelines()) {
            boolean scan = pl.source() instanceof Source.TableScan;
            assertEquals(scan ? CudaBackend.DEVICE : Intermediate.HOST, p.device(pl.id()), pl.toString());
            assertEquals(scan ? "it has GPU code" : "no GPU code (test)", p.reasons().get(pl.id()));
        }
    }

    @Test
    void aTableIsBuiltWhereItIsProbedAndAProbeRunsWhereItsTableIs() {
        QueryPlan plan = plan();
        Pipeline probe = plan.pipelines().stream().filter(pl -> pl.sink() instanceof Sink.GroupAggregate).findFirst().orElseThrow();
        Set<Integer> builds = new java.util.HashSet<>();
        for (Operation op : probe.operations()) {
            if (op instanceof Operation.Probe pr) {
                plan.pipelines().stream().filter(pl -> pl.sink() instanceof Sink.Build b && b.joinId() == pr.joinId())
                        .forEach(pl -> builds.add(pl.id()));
            }
        }
        assertEquals(2, builds.size());
        // the probe cannot run on the GPU: both tables are built on the JVM
        Placement noProbe = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu(id -> id != probe.id()
                && scans(plan, id)));
        for (int b : builds) {
            assertTrue(noProbe.onHost(b));
            assertTrue(noProbe.reasons().get(b).contains("is probed by pipeline " + probe.id()), noProbe.reasons().get(b));
        }
        // one build cannot run on the GPU: the probe follows it to the JVM, and so does the other build
        int first = builds.iterator().next();
        Placement noBuild = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu(id -> id != first
                && scans(plan, id)));
        assertTrue(noBuild.onHost(probe.id()));
        assertTrue(noBuild.reasons().get(probe.id()).contains("built on the JVM"), noBuild.reasons().get(probe.id()));
        for (int b : builds) {
            assertTrue(noBuild.onHost(b), "build " + b);
        }
        assertEquals(0, noBuild.count(CudaBackend.DEVICE));
    }

    @Test
    void aCpuEngineSaysWhyEachPipelineRunsOnTheJvm() {
        String explain = new QueryEngine(SSB.db(), 1).explain(Q);
        long pipelines = plan().pipelines().size();
        assertEquals(pipelines, explain.lines().filter(l -> l.equals("  device: jvm (the CPU was asked for)")).count(), explain);
    }

    @Test
    void aPipelineReadingARelationMadeOnTheJvmRunsOnTheJvm() {
        QueryPlan plan = plan();
        Pipeline aggregation = plan.pipelines().stream().filter(pl -> pl.sink() instanceof Sink.GroupAggregate)
                .findFirst().orElseThrow();
        Pipeline sort = plan.pipelines().stream().filter(pl -> pl.source() instanceof Source.RelationScan)
                .findFirst().orElseThrow();
        // a GPU that could sort, but not aggregate: the sort follows its input to the JVM
        Placement p = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu(id -> id != aggregation.id()));
        assertTrue(p.onHost(sort.id()));
        assertEquals("it reads r" + ((Source.RelationScan) sort.source()).relationId() + ", made by pipeline "
                + aggregation.id() + " on the JVM", p.reasons().get(sort.id()));
        // a GPU that can run both keeps both
        Placement both = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu(id -> true));
        assertEquals(CudaBackend.DEVICE, both.device(sort.id()));
    }

    @Test
    void aScanOfATablesMarksRunsWhereTheTableIsBuilt() {
        QueryPlan plan = new QueryEngine(SSB.db(), 1).plan("SELECT count(*) FROM supplier WHERE EXISTS "
                + "(SELECT * FROM lineorder WHERE lo_suppkey = s_suppkey)");
        Pipeline build = plan.pipelines().stream().filter(pl -> pl.sink() instanceof Sink.Build).findFirst().orElseThrow();
        Pipeline scan = plan.pipelines().stream().filter(pl -> pl.source() instanceof Source.JoinTableScan)
                .findFirst().orElseThrow();
        Pipeline marks = plan.pipelines().stream().filter(pl -> pl.sink() instanceof Sink.Marks).findFirst().orElseThrow();
        // a GPU that could run all but the build: the marks and the scan of them follow the table to the JVM
        Placement p = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu(id -> id != build.id()));
        assertTrue(p.onHost(marks.id()));
        assertTrue(p.onHost(scan.id()));
        int table = ((Source.JoinTableScan) scan.source()).joinId();
        assertEquals("it scans table j" + table + ", built on the JVM", p.reasons().get(scan.id()));
        // a GPU that can run all of them keeps all of them
        Placement all = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu(id -> true));
        assertEquals(CudaBackend.DEVICE, all.device(scan.id()));
        assertEquals(CudaBackend.DEVICE, all.device(build.id()));
    }

    @Test
    void aTableARefusedPipelineProbesIsBuiltOnTheHostAndTheDeviceIsAskedAgain() {
        QueryPlan plan = plan();
        Pipeline probe = plan.pipelines().stream().filter(pl -> pl.sink() instanceof Sink.GroupAggregate).findFirst().orElseThrow();
        java.util.List<java.util.List<Integer>> asked = new java.util.ArrayList<>();
        // a device that cannot aggregate, and probes only tables a pipeline it accepted in the round builds
        Backend.Query gpu = new Backend.Query() {
            @Override
            public PlacementRound placementRound() {
                java.util.List<Integer> round = new java.util.ArrayList<>();
                asked.add(round);
                return (p, placed) -> {
                    round.add(p.id());
                    if (p.id() == probe.id()) {
                        return "no GPU code (test)";
                    }
                    for (Operation op : p.operations()) {
                        if (op instanceof Operation.Probe pr && !CudaBackend.DEVICE.equals(placed.apply(builder(plan, pr.joinId()).id()))) {
                            return "its table is elsewhere (test)";
                        }
                    }
                    return null;
                };
            }

            @Override
            public void prepare(Collection<Pipeline> pipelines) {
            }

            @Override
            public void run(Pipeline pipeline, QueryState state) {
                throw new UnsupportedOperationException("a stand-in GPU for placement runs nothing");
            }
        };
        Placement p = Placement.onGpuWherePossible(plan, CudaBackend.DEVICE, gpu);
        assertEquals(2, asked.size(), asked.toString());
        assertEquals("no GPU code (test)", p.reasons().get(probe.id()));
        for (Operation op : probe.operations()) {
            if (op instanceof Operation.Probe pr) {
                int build = builder(plan, pr.joinId()).id();
                assertTrue(p.onHost(build));
                assertEquals("its table j" + pr.joinId() + " is probed by pipeline " + probe.id() + ", which runs on the JVM",
                        p.reasons().get(build));
                assertTrue(asked.get(0).contains(build) && !asked.get(1).contains(build), asked.toString());
            }
        }
    }

    private static Pipeline builder(QueryPlan plan, int joinId) {
        return plan.pipelines().stream().filter(pl -> pl.sink() instanceof Sink.Build b && b.joinId() == joinId)
                .findFirst().orElseThrow();
    }
}
