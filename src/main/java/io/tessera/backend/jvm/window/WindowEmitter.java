package io.tessera.backend.jvm.window;

import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.backend.jvm.relation.MaterializeEmitter;
import io.tessera.plan.Sink;

/**
 * WINDOW: the loop collects the rows, as MATERIALIZE does; the executor's finish partitions and orders them and
 * computes the window functions ({@link WindowEvaluator}).
 */
public final class WindowEmitter {
    private WindowEmitter() {
    }

    public static void emit(PipelineWriter w, Sink.Window win) {
        MaterializeEmitter.rows(w, win.outputs(), 0, -1, "WINDOW (rows collected, window functions computed in finish)");
    }
}
