package io.tessera.backend.host;

import io.tessera.backend.Backend;
import io.tessera.backend.QueryState;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;

import java.util.function.IntFunction;

/**
 * The one loop that runs a query's pipelines: in plan order (a pipeline reads only what earlier ones made), each
 * on its device, the cancel checked before each, each timed (the run's steps and actuals); a relation all of whose
 * writers ran but that no device completed is completed on the host. The executor runs placed queries with it,
 * the JVM tuners queries whose every pipeline is on the host.
 */
public final class PipelineLoop {

    private PipelineLoop() {
    }

    /** Where one pipeline runs: its device's name and its query there. */
    public record Placed(String device, Backend.Query query) {
    }

    /**
     * Runs every pipeline of {@code state}'s plan where {@code placed} puts it, and returns the result relation on
     * the host.
     */
    public static ResultRelation run(QueryState state, Host host, IntFunction<Placed> placed) {
        QueryPlan plan = state.plan();
        host.startQuery(state);
        for (Pipeline pl : plan.pipelines()) {
            state.checkCancel();
            Placed on = placed.apply(pl.id());
            long t0 = System.nanoTime();
            on.query().run(pl, state);
            completeOnHost(state, host, pl.sink());
            long nanos = System.nanoTime() - t0;
            state.step("pipeline " + pl.id() + " on " + on.device(), nanos);
            state.actuals().time(pl.id(), on.device(), nanos);
            if (pl.source() instanceof Source.TableScan ts) {
                state.actuals().rows(pl, 0, ts.table().rowCount());
            }
        }
        if (state.relation(plan.resultRelation()) == null) {
            throw new IllegalStateException("the plan produced no result relation");
        }
        return host.result(state, plan.resultRelation());
    }

    /** A relation all of whose writers ran but that no device completed: its parts joined, sorted, cut on the host. */
    private static void completeOnHost(QueryState state, Host host, Sink sink) {
        int rel = switch (sink) {
            case Sink.Materialize m -> m.relationId();
            case Sink.Sort s -> s.relationId();
            default -> -1;
        };
        if (rel >= 0 && state.pendingRelation(rel)) {
            host.completeRelation(state, sink);
        }
    }
}
