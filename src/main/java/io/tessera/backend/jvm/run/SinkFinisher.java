package io.tessera.backend.jvm.run;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.aggregate.Groups;
import io.tessera.backend.jvm.aggregate.JvmGroups;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.join.JoinBuild;
import io.tessera.backend.host.HostRelations;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.RowCopies;
import io.tessera.backend.host.sort.Sorter;
import io.tessera.backend.host.sort.TopK;
import io.tessera.plan.Sink;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;

/**
 * What a pipeline's workers left, turned into its output in the query's state: a BUILD's join table, a writer's
 * part of a relation (the relation completed once its last writer ran), an aggregation's groups as rows; a
 * pipeline that only marks leaves its marks in the join table. Each end runs on the pipeline's workers where its
 * family can spread it, and is noted with its time in the run's steps.
 */
final class SinkFinisher {

    private SinkFinisher() {
    }

    static void finish(QueryState state, EmittedPipeline e, PipelineCode code, List<Object> states) {
        long t0 = System.nanoTime();
        String what = switch (e.pipeline().sink()) {
            case Sink.Build b -> {
                String built = JoinBuild.finish(state, e, b, buffers(states), MorselRunner.pool(state), workers(e));
                if (state.join(b.joinId()).value() instanceof io.tessera.backend.jvm.join.JoinTable t) {
                    sinkRows(state, e, t.rows);
                }
                yield built;
            }
            case Sink.Materialize m -> addPart(state, m, m.relationId(), e, states);
            case Sink.Sort s -> addPart(state, s, s.relationId(), e, states);
            case Sink.Window w -> addPart(state, w, w.relationId(), e, states);
            // the marks are in the join table's rows already, for the scan that reads them
            case Sink.Marks m -> "MARKS j" + m.joinId();
            case Sink.Aggregate a -> {
                Groups g = JvmGroups.merged(e, code, states, null, MorselRunner.pool(state));
                groupsToRelation(state, e, g, a.relationId());
                yield "AGGREGATE " + JvmGroups.describe(e, g);
            }
            case Sink.GroupAggregate ga -> {
                Groups g = JvmGroups.merged(e, code, states, JvmGroups.stringKeys(e), MorselRunner.pool(state));
                groupsToRelation(state, e, g, ga.relationId());
                yield "GROUP_AGGREGATE " + JvmGroups.describe(e, g);
            }
        };
        state.step("pipeline " + e.pipeline().id() + " end, " + what, System.nanoTime() - t0);
    }

    /** Publishes the groups as the rows of relation {@code rel}. */
    static void groupsToRelation(QueryState state, EmittedPipeline e, Groups groups, int rel) {
        RelationPart rows = JvmGroups.toRows(e, groups, state.relationColumns(rel), MorselRunner.pool(state));
        sinkRows(state, e, rows.rows().size);
        HostRelations.publish(state, rel, rows.rows(), rows.dictionaries());
    }

    /**
     * One writer's rows into relation {@code rel}; the relation is completed after its last writer. A top-k sink
     * under {@code topk=worker} first cuts each worker's rows to their top rows, on the workers.
     */
    private static String addPart(QueryState state, Sink sink, int rel, EmittedPipeline e, List<Object> states) {
        List<RowBuffer> buffers = buffers(states);
        if (sink instanceof Sink.Sort s && s.isTopK() && buffers.size() > 1) {
            long rows = 0;
            for (RowBuffer b : buffers) {
                rows += b.size;
            }
            long k = s.offset() + s.fetch();
            HostWorkers w = SinkEndWorkers.of(state, e.genome(), JvmDimensions.TOP_K, "worker", rows);
            if (w.threads() > 1 && k < Integer.MAX_VALUE) {
                buffers = TopK.perWorker(buffers, Sorter.keys(s), (int) k, w);
            }
        }
        RowBuffer rows = RowCopies.concat(e.bufferKinds(), buffers, MorselRunner.pool(state), workers(e));
        RelationPart part = new RelationPart(rows, e.bufferDicts());
        if (state.addPart(rel, new Intermediate(Intermediate.Kind.PART, Intermediate.HOST, part))) {
            boolean onlyWriter = state.partCount(rel) == 1;
            JvmRelations.complete(state, sink, state.takeParts(rel), e.genome());
            // the only writer's relation: its rows after its LIMIT
            sinkRows(state, e, onlyWriter ? HostRelations.onHost(state, rel).rowCount() : rows.size);
        } else {
            sinkRows(state, e, rows.size);
        }
        return "rows of r" + rel + ": " + rows.size;
    }

    /** Notes the rows the pipeline's sink made (EXPLAIN ANALYZE): a table's rows, groups, a relation's rows. */
    private static void sinkRows(QueryState state, EmittedPipeline e, long rows) {
        state.actuals().rows(e.pipeline(), e.pipeline().operations().size() + 1, rows);
    }

    /** The genome's workers, which also end the pipeline. */
    private static int workers(EmittedPipeline e) {
        return e.genome().has(JvmDimensions.WORKERS) ? Math.max(1, e.genome().getInt(JvmDimensions.WORKERS)) : 1;
    }

    private static List<RowBuffer> buffers(List<Object> states) {
        List<RowBuffer> out = new ArrayList<>();
        for (Object s : states) {
            out.add((RowBuffer) s);
        }
        return out;
    }
}
