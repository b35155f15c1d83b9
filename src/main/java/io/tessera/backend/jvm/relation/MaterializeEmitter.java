package io.tessera.backend.jvm.relation;

import io.tessera.backend.ValueKind;
import io.tessera.backend.host.RowBuffer;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.Expr;
import io.tessera.plan.Sink;

import java.util.List;

/**
 * MATERIALIZE: each row's output values into the worker's row buffer; with a LIMIT, a worker stops once it holds
 * enough rows. SORT, TOP_K and WINDOW collect their rows with {@link #rows} (their emitters in
 * {@code backend.jvm.sort} and {@code backend.jvm.window}).
 */
public final class MaterializeEmitter {
    private MaterializeEmitter() {
    }

    public static void emit(PipelineWriter w, Sink.Materialize m) {
        rows(w, m.outputs(), m.offset(), m.fetch(), "MATERIALIZE");
    }

    /** Writes the values of {@code outs} as a row of the worker's buffer; {@code fetch} >= 0: at most offset + fetch. */
    public static void rows(PipelineWriter w, List<Expr> outs, long offset, long fetch, String what) {
        w.comment(what + " " + w.codeNames.exprs(outs));
        w.bufferLayout(outs, 0);
        w.before.append("        final io.tessera.backend.host.RowBuffer out = (io.tessera.backend.host.RowBuffer) sinkState;\n");
        w.line("final int w = out.next();");
        for (int c = 0; c < outs.size(); c++) {
            w.store("out", c, w.gen.gen(outs.get(c)), "w");
        }
        if (fetch >= 0) {
            // the LIMIT is the query's constant: a value, not code
            w.line("if (out.size >= " + w.constant(ValueKind.LONG, offset + fetch) + ") return; // LIMIT: enough rows in this worker");
        }
    }
}
