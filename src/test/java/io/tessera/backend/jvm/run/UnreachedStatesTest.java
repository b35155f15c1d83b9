package io.tessera.backend.jvm.run;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.host.MatRelation;
import io.tessera.backend.host.PipelineLoop;
import io.tessera.backend.jvm.JvmBackend;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.QueryEngine;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmDimensions;
import io.tessera.variant.JvmVariantSpace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A worker that took no morsel leaves no sink state behind: its empty state is not handed to the sink's end, which
 * then has one worker's rows to build from or groups to merge, not two.
 */
class UnreachedStatesTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(7, 40_000);

    @Test
    void onlyTheStatesOfWorkersThatTookAMorselStay() {
        List<Object> states = new ArrayList<>(List.of("kept from an earlier block", "a", "b", "c"));
        MorselRunner.dropUnreached(states, 1, new int[] {0, 3, 0, 2});
        // index 0 was there before the run: kept although its worker took nothing now
        assertEquals(List.of("kept from an earlier block", "a", "c"), states);

        List<Object> none = new ArrayList<>(List.of("a", "b"));
        MorselRunner.dropUnreached(none, 0, new int[] {0, 0});
        assertEquals(List.of("a"), none, "one state always stays");
    }

    /**
     * Two workers on a pool of one thread: the first worker's job takes every morsel before the second's starts, so
     * the second's states are left out, and the results are those of one worker.
     */
    @Test
    void aWorkerThatFoundNoMorselLeftAddsNoTableToMerge() {
        // more groups than two tables are merged serially (GroupMerge): two would be split into partitions
        String sql = "SELECT lo_orderkey AS k, COUNT(*), SUM(lo_revenue) FROM lineorder, ddate"
                + " WHERE lo_orderdate = d_datekey AND d_year > 1993 GROUP BY 1 ORDER BY 1";
        QueryEngine engine = new QueryEngine(SSB.db(), 2);
        JvmVariantSpace space = new JvmVariantSpace(2, false);
        QueryEngine.Prepared two = engine.prepareJvm(sql, plan -> Genomes.forPlan(space, plan, p -> {
            Genome g = space.defaultGenome(plan, p).with(JvmDimensions.WORKERS, "2").with(JvmDimensions.MORSEL, "1024");
            g = g.has(JvmDimensions.AGGREGATION) ? g.with(JvmDimensions.AGGREGATION, "hash") : g;
            return g.has(JvmDimensions.JOIN_BUILD) ? g.with(JvmDimensions.JOIN_BUILD, "atomic") : g;
        }));
        QueryEngine.Prepared one = engine.prepareJvm(sql, plan -> Genomes.defaults(new JvmVariantSpace(1, false), plan));
        ExecutorService oneThread = Executors.newSingleThreadExecutor();
        try {
            List<String> steps = new ArrayList<>();
            List<String> rows = run(two, new JvmExecutor.Options(oneThread, null, 0), steps);
            assertEquals(run(one, JvmExecutor.Options.DEFAULT, new ArrayList<>()), rows);
            assertTrue(rows.size() > 4096, "groups: " + rows.size());
            assertTrue(steps.stream().anyMatch(s -> s.contains("GROUP_AGGREGATE (hash") && s.contains("in 1 table")),
                    String.join("\n", steps));
        } finally {
            oneThread.shutdownNow();
        }
    }

    /** The rows of a run of {@code p} with {@code options}, its steps added to {@code steps}. */
    private static List<String> run(QueryEngine.Prepared p, JvmExecutor.Options options, List<String> steps) {
        PipelineLoop.Placed onHost = new PipelineLoop.Placed(Intermediate.HOST, p.jvm());
        try (QueryState state = new QueryState(SSB.db(), p.plan(), null)) {
            state.setOption(JvmExecutor.Options.class, options);
            MatRelation rel = (MatRelation) PipelineLoop.run(state, JvmBackend.INSTANCE, id -> onHost);
            steps.addAll(state.steps());
            List<String> out = new ArrayList<>();
            for (int r = 0; r < rel.rowCount(); r++) {
                StringBuilder sb = new StringBuilder();
                for (int c = 0; c < rel.columns.size(); c++) {
                    sb.append(JvmExecutor.value(rel, c, r)).append('|');
                }
                out.add(sb.toString());
            }
            return out;
        }
    }
}
