package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;

import java.util.Map;

/**
 * The marks of a join table that builds its preserved side ({@link JoinTable#marks}): a MARK probe sets them for
 * every build row that the row matches, an inner or left probe that marks sets them for each build row it goes on
 * with, a MARKS sink ends the marking pipeline, and a scan of the table's rows skips those marked (or unmarked).
 */
public final class MarkEmitter {
    private MarkEmitter() {
    }

    /** The field holding join {@code j}'s marks. */
    private static String marks(PipelineWriter w, int j) {
        return w.field("byte[]", "ctx.joinTable(" + j + ").marks()", "j" + j + "_marks");
    }

    /** Sets mark {@code row} of join {@code j}, reading it first so that a row many probes match stays unwritten. */
    private static String set(String marks, String row) {
        return "if (" + marks + "[" + row + "] == 0) " + marks + "[" + row + "] = 1;";
    }

    /**
     * A MARK probe: marks every build row with the row's key ({@code r}: the first, or -1) that meets the residual
     * condition, all of them without one; the row goes no further. Without a residual, a marked first row means
     * that its key's rows are marked (or being marked by the worker that marked it first), so the probe stops there.
     * With one, a row already marked is not tested again.
     */
    static void markMatches(PipelineWriter w, Operation.Probe op, String r) {
        int j = op.joinId();
        String marks = marks(w, j);
        String next = op.build().uniqueKeys() ? null
                : w.field("int[]", "ctx.joinTable(" + j + ").next", "j" + j + "_next");
        w.line("if (" + r + " < 0) continue;");
        String m = w.name("m");
        String step = next == null ? "-1" : next + "[" + m + "]";
        Expr cond = op.residual();
        if (cond == null) {
            if (next == null) {
                w.line(set(marks, r));
            } else {
                w.line("if (" + marks + "[" + r + "] == 0) { // the key's first match marks all its build rows");
                w.line("    for (int " + m + " = " + r + "; " + m + " >= 0; " + m + " = " + step + ") " + marks + "["
                        + m + "] = 1;");
                w.line("}");
            }
            return;
        }
        w.comment("residual condition of j" + j + ": " + w.codeNames.expr(cond) + ", per build row with the key");
        w.loadExcept(cond, j);
        w.line("for (int " + m + " = " + r + "; " + m + " >= 0; " + m + " = " + step + ") {");
        w.indent++;
        if (next != null) {
            w.line(w.cancelCheck());
        }
        w.line("if (" + marks + "[" + m + "] != 0) continue;");
        Map<String, JExpr> saved = w.loads();
        w.joinRow.put(j, m);
        w.joinKind.put(j, JoinKind.INNER); // a build row of the chain: its payload is never NULL-extended
        w.load(cond);
        w.line("if (" + w.gen.gen(cond).isTrue() + ") " + marks + "[" + m + "] = 1;");
        w.forgetLoadsSince(saved);
        w.joinRow.put(j, r);
        w.joinKind.put(j, JoinKind.MARK);
        w.indent--;
        w.line("}");
    }

    /**
     * After an inner or left probe that marks has settled on build row {@code r} (-1: none, a left probe's row
     * with NULLs): marks it. Nothing for a probe that does not mark.
     */
    static void markRow(PipelineWriter w, Operation.Probe op, String r) {
        if (!op.marks()) {
            return;
        }
        String marks = marks(w, op.joinId());
        w.line(op.kind() == JoinKind.LEFT ? "if (" + r + " >= 0) " + set(marks, r) : set(marks, r));
    }

    /** The start of a scan of join table rows: skips the rows whose mark is not the one the scan reads. */
    public static void scan(PipelineWriter w, Source.JoinTableScan s) {
        String marks = marks(w, s.joinId());
        w.line("if (" + marks + "[(int) i] " + (s.matched() ? "== 0" : "!= 0") + ") continue; // "
                + (s.matched() ? "only the build rows a probe matched" : "only the build rows no probe matched"));
    }

    /** MARKS: the probe before it set the marks; no row flows on. */
    public static void sink(PipelineWriter w, Sink.Marks m) {
        w.comment("MARKS j" + m.joinId() + ": the rows only set marks");
    }
}
