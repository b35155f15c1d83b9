package io.tessera.backend.jvm;

import io.tessera.plan.Sink;

/**
 * WINDOW: the loop collects the rows, as MATERIALIZE does; the executor's finish partitions and orders them and
 * computes the window functions ({@link WindowEvaluator}).
 */
final class WindowEmitter {
    private WindowEmitter() {
    }

    static void emit(PipelineWriter w, Sink.Window win) {
        MaterializeEmitter.rows(w, win.outputs(), 0, -1, "WINDOW (rows collected, window functions computed in finish)");
    }
}
