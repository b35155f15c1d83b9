package io.tessera.backend.jvm.join;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.HashFunction;
import io.tessera.backend.ValueKind;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.RowBuffer;
import io.tessera.plan.DictionaryKeys;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The end of a BUILD pipeline on the JVM: its workers' row buffers made into the join table of the genome's layout
 * ({@code ht}) by the genome's build strategy ({@code build}, {@link JoinBuildStrategy}), with the dictionaries of
 * its string payload registered for the probes' readers.
 */
public final class JoinBuild {

    private JoinBuild() {
    }

    /** Builds the table on up to {@code workers} threads of {@code pool}; returns a line on what was built. */
    public static String finish(QueryState state, EmittedPipeline e, Sink.Build b, List<RowBuffer> buffers,
                                ExecutorService pool, int workers) {
        JoinTable.Layout layout = JoinTable.Layout.of(e.genome().get(JvmDimensions.HASH_TABLE));
        JoinBuildStrategy strategy = strategy(e.genome());
        boolean perfect = layout == JoinTable.Layout.PERFECT;
        JoinTable table = strategy.build(e.bufferKinds(), buffers, b.payload().size(), b.keys().size(), layout,
                perfect ? b.range().min() : 0, perfect ? b.range().max() : 0, HashFunction.murmur(e.genome()),
                b.uniqueKeys(), pool, workers, state::checkCancel);
        // the table's Bloom filter, made later if a probing pipeline asks for it, uses the build's threads
        table.filterWorkers(pool == null || workers <= 1 ? HostWorkers.ONE
                : new HostWorkers(pool, workers, state::checkCancel));
        RowBuffer all = table.payload;
        for (int c = 0; c < b.payload().size(); c++) {
            String key = DictionaryKeys.payload(b.joinId(), c);
            if (all.kinds[c] == ValueKind.STRING) {
                state.register(key, all.encodeStrings(c));
            } else if (all.kinds[c] == ValueKind.CODE) {
                state.register(key, state.dictionary(e.bufferDicts()[c]));
            }
        }
        state.putJoin(b.joinId(), new Intermediate(Intermediate.Kind.JOIN_TABLE, Intermediate.HOST, table));
        return "BUILD j" + b.joinId() + " (" + layout.label() + ", " + strategy.label() + "): " + table.rows
                + (table.rows == 1 ? " row" : " rows");
    }

    /** The genome's build strategy; serial where the dimension is absent (one core). */
    static JoinBuildStrategy strategy(Genome g) {
        return g.has(JvmDimensions.JOIN_BUILD) ? JoinBuildStrategy.of(g.get(JvmDimensions.JOIN_BUILD))
                : JoinBuildStrategy.SERIAL;
    }
}
