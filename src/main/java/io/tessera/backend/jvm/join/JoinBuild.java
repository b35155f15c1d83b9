package io.tessera.backend.jvm.join;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.HashFunction;
import io.tessera.backend.jvm.gen.JKind;
import io.tessera.backend.jvm.relation.RowBuffer;
import io.tessera.plan.DictionaryKeys;
import io.tessera.plan.Sink;
import io.tessera.variant.JvmDimensions;

import java.util.List;

/**
 * The end of a BUILD pipeline on the JVM: its workers' row buffers made into the join table of the genome's layout,
 * with the dictionaries of its string payload registered for the probes' readers.
 */
public final class JoinBuild {

    private JoinBuild() {
    }

    public static void finish(QueryState state, EmittedPipeline e, Sink.Build b, List<RowBuffer> buffers) {
        RowBuffer all = RowBuffer.concat(e.bufferKinds(), buffers);
        for (int c = 0; c < b.payload().size(); c++) {
            String key = DictionaryKeys.payload(b.joinId(), c);
            if (e.bufferKinds()[c] == JKind.STRING) {
                state.register(key, all.encodeStrings(c));
            } else if (e.bufferKinds()[c] == JKind.CODE) {
                state.register(key, state.dictionary(e.bufferDicts()[c]));
            }
        }
        JoinTable.Layout layout = JoinTable.Layout.of(e.genome().get(JvmDimensions.HASH_TABLE));
        boolean perfect = layout == JoinTable.Layout.PERFECT;
        JoinTable table = JoinTable.build(all, b.payload().size(), b.keys().size(), layout,
                perfect ? b.range().min() : 0, perfect ? b.range().max() : 0, HashFunction.murmur(e.genome()),
                b.uniqueKeys());
        state.putJoin(b.joinId(), new Intermediate(Intermediate.Kind.JOIN_TABLE, Intermediate.HOST, table));
    }
}
