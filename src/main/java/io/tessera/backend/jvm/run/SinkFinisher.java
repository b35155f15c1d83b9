package io.tessera.backend.jvm.run;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.aggregate.GroupTable;
import io.tessera.backend.jvm.aggregate.JvmGroups;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.join.JoinBuild;
import io.tessera.backend.jvm.relation.RelationPart;
import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.Sink;

import java.util.ArrayList;
import java.util.List;

/**
 * What a pipeline's workers left, turned into its output in the query's state: a BUILD's join table, a writer's
 * part of a relation (the relation completed once its last writer ran), an aggregation's groups as rows; a
 * pipeline that only marks leaves its marks in the join table.
 */
final class SinkFinisher {

    private SinkFinisher() {
    }

    static void finish(QueryState state, EmittedPipeline e, PipelineCode code, List<Object> states) {
        switch (e.pipeline().sink()) {
            case Sink.Build b -> JoinBuild.finish(state, e, b, buffers(states));
            case Sink.Materialize m -> addPart(state, m, m.relationId(), e, states);
            case Sink.Sort s -> addPart(state, s, s.relationId(), e, states);
            case Sink.Window w -> addPart(state, w, w.relationId(), e, states);
            case Sink.Marks m -> {
                // the marks are in join table j's rows already, for the scan that reads them
            }
            case Sink.Aggregate a -> {
                GroupTable t = JvmGroups.merged(e, code, states, null, MorselRunner.pool(state));
                groupsToRelation(state, e, t, new int[] {0}, a.relationId());
            }
            case Sink.GroupAggregate ga -> {
                GroupTable t = JvmGroups.merged(e, code, states, JvmGroups.stringKeys(e), MorselRunner.pool(state));
                groupsToRelation(state, e, t, JvmGroups.usedGroups(t), ga.relationId());
            }
        }
    }

    /** Publishes groups {@code groups} of {@code t} as the rows of relation {@code rel}. */
    static void groupsToRelation(QueryState state, EmittedPipeline e, GroupTable t, int[] groups, int rel) {
        RelationPart rows = JvmGroups.toRows(e, t, groups, state.relationColumns(rel));
        JvmRelations.publish(state, rel, rows.rows(), rows.dictionaries());
    }

    /** One writer's rows into relation {@code rel}; the relation is completed after its last writer. */
    private static void addPart(QueryState state, Sink sink, int rel, EmittedPipeline e, List<Object> states) {
        RelationPart part = new RelationPart(RowBuffer.concat(e.bufferKinds(), buffers(states)), e.bufferDicts());
        if (state.addPart(rel, new Intermediate(Intermediate.Kind.PART, Intermediate.HOST, part))) {
            JvmRelations.complete(state, sink, state.takeParts(rel));
        }
    }

    private static List<RowBuffer> buffers(List<Object> states) {
        List<RowBuffer> out = new ArrayList<>();
        for (Object s : states) {
            out.add((RowBuffer) s);
        }
        return out;
    }
}
