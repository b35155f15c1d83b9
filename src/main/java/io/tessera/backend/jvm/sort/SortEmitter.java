package io.tessera.backend.jvm.sort;

import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.backend.jvm.relation.MaterializeEmitter;
import io.tessera.plan.Sink;

/**
 * SORT and TOP_K: the loop collects the rows, as MATERIALIZE does; the executor's finish sorts them
 * ({@link io.tessera.backend.host.sort.Sorter}, on the host) and, for a top-k, keeps the first k.
 */
public final class SortEmitter {
    private SortEmitter() {
    }

    public static void emit(PipelineWriter w, Sink.Sort so) {
        MaterializeEmitter.rows(w, so.outputs(), 0, -1,
                so.isTopK() ? "TOP_K (rows collected, kept in finish)" : "SORT (rows collected, sorted in finish)");
    }
}
