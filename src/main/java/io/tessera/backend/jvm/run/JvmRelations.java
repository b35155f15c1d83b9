package io.tessera.backend.jvm.run;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.host.HostRelations;
import io.tessera.backend.host.HostWorkers;
import io.tessera.backend.host.MatRelation;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.host.sort.Sorter;
import io.tessera.backend.jvm.window.WindowEvaluator;
import io.tessera.plan.Sink;
import io.tessera.variant.Genome;
import io.tessera.variant.JvmDimensions;

import java.util.List;

/**
 * A relation completed on the host from its writers' parts, where the end needs a JVM family: a SORT (sorted, or
 * cut to its top k, by {@code sort.Sorter}) or a WINDOW ({@code window.WindowEvaluator}) over the parts
 * concatenated by {@link HostRelations#union}; a MATERIALIZE's parts are the host's alone
 * ({@link HostRelations#complete}).
 */
public final class JvmRelations {

    private JvmRelations() {
    }

    /**
     * Completes relation {@code rel} from its writers' parts: concatenated (UNION ALL), then sorted or cut to the
     * sink's LIMIT and OFFSET, or its window functions evaluated; a sort or window on the workers where {@code g},
     * the genome of the last writer, says so (null: parts a device made, where size decides).
     */
    public static MatRelation complete(QueryState state, Sink sink, List<Intermediate> handles, Genome g) {
        return switch (sink) {
            case Sink.Materialize m -> HostRelations.complete(state, m, handles, MorselRunner.pool(state));
            case Sink.Sort s -> {
                RelationPart all = HostRelations.union(state, s.relationId(), handles, MorselRunner.pool(state));
                RowBuffer rows = all.rows();
                // a top-k's final heap is one thread's; a LIMIT of a quarter of the rows or more sorts them all
                String dim = s.isTopK() ? JvmDimensions.TOP_K : JvmDimensions.SORT;
                HostWorkers w = SinkEndWorkers.of(state, g, dim, s.isTopK() ? "worker" : "runs", rows.size);
                int runs = g == null ? Sorter.runsBySize(rows.size, w.threads()) : w.threads();
                yield HostRelations.publish(state, s.relationId(), Sorter.sorted(rows, s, runs, w), all.dictionaries());
            }
            case Sink.Window win -> {
                RelationPart in = HostRelations.union(state, win.relationId(), handles, MorselRunner.pool(state));
                HostWorkers w = SinkEndWorkers.of(state, g, JvmDimensions.WINDOW, "partitions", in.rows().size);
                RelationPart all = WindowEvaluator.evaluate(in, win, state::dictionary, w);
                yield HostRelations.publish(state, win.relationId(), all.rows(), all.dictionaries());
            }
            default -> throw new IllegalStateException("a " + sink + " has no parts");
        };
    }
}
