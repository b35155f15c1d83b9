package io.tessera.backend.jvm;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.plan.DictionaryKeys;
import io.tessera.plan.Sink;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;

/**
 * What a pipeline's workers left, turned into its output in the query's state: a BUILD's join table, a writer's
 * part of a relation (the relation completed once its last writer ran), an aggregation's groups as rows.
 */
final class SinkFinisher {

    private SinkFinisher() {
    }

    static void finish(QueryState state, EmittedPipeline e, PipelineCode code, List<Object> states) {
        switch (e.pipeline().sink()) {
            case Sink.Build b -> {
                RowBuffer all = RowBuffer.concat(e.bufferKinds(), buffers(states));
                for (int c = 0; c < b.payload().size(); c++) {
                    String key = DictionaryKeys.payload(b.joinId(), c);
                    if (e.bufferKinds()[c] == JKind.STRING) {
                        state.register(key, JvmRelations.encodeStrings(all, c));
                    } else if (e.bufferKinds()[c] == JKind.CODE) {
                        state.register(key, state.dictionary(e.bufferDicts()[c]));
                    }
                }
                JoinTable.Layout layout = JoinTable.Layout.of(e.genome().get(JvmDimensions.HASH_TABLE));
                boolean perfect = layout == JoinTable.Layout.PERFECT;
                JoinTable table = JoinTable.build(all, b.payload().size(), b.keys().size(), layout,
                        perfect ? b.range().min() : 0, perfect ? b.range().max() : 0, SinkStates.murmur(e.genome()),
                        b.uniqueKeys());
                state.putJoin(b.joinId(), new Intermediate(Intermediate.Kind.JOIN_TABLE, Intermediate.HOST, table));
            }
            case Sink.Materialize m -> addPart(state, m, m.relationId(), e, states);
            case Sink.Sort s -> addPart(state, s, s.relationId(), e, states);
            case Sink.Window w -> addPart(state, w, w.relationId(), e, states);
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
        JvmRelations.Part rows = JvmGroups.toRows(e, t, groups, state.relationColumns(rel));
        JvmRelations.publish(state, rel, rows.rows(), rows.dictionaries());
    }

    /** One writer's rows into relation {@code rel}; the relation is completed after its last writer. */
    private static void addPart(QueryState state, Sink sink, int rel, EmittedPipeline e, List<Object> states) {
        JvmRelations.Part part = new JvmRelations.Part(RowBuffer.concat(e.bufferKinds(), buffers(states)), e.bufferDicts());
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
