package io.tessera.backend.jvm;

import io.tessera.plan.Sink;

/**
 * SORT and TOP_K: the loop collects the rows, as MATERIALIZE does; the executor's finish sorts them
 * ({@link Sorter}) and, for a top-k, keeps the first k.
 */
final class SortEmitter {
    private SortEmitter() {
    }

    static void emit(PipelineWriter w, Sink.Sort so) {
        MaterializeEmitter.rows(w, so.outputs(), 0, -1,
                so.isTopK() ? "TOP_K (rows collected, kept in finish)" : "SORT (rows collected, sorted in finish)");
    }
}
