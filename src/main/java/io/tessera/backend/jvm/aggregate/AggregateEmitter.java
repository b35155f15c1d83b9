package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.backend.lower.NanOrder;
import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Sink;

/**
 * AGGREGATE (no grouping): each aggregate accumulates in locals over the morsel, merged into the worker's one-group
 * table after the loop, so the loop writes no memory.
 */
public final class AggregateEmitter {
    private AggregateEmitter() {
    }

    public static void emit(PipelineWriter w, Sink.Aggregate a) {
        w.comment("AGGREGATE " + w.codeNames.aggs(a.aggs()));
        w.aggSpecs = new AggSpec[a.aggs().size()];
        w.keyKinds = new ValueKind[0];
        w.keyDicts = new String[0];
        w.dense = true;
        w.denseMins = new long[0];
        w.denseSizes = new long[0];
        w.before.append("        final io.tessera.backend.jvm.aggregate.DenseGroupTable t = (io.tessera.backend.jvm.aggregate.DenseGroupTable) sinkState;\n");
        w.before.append("        long rows = 0;\n");
        w.line("rows++;");
        for (int i = 0; i < a.aggs().size(); i++) {
            AggCall call = a.aggs().get(i);
            AggSpec s = w.aggSpecs[i] = Accumulators.spec(w, call);
            String cnt = "cnt" + i;
            w.before.append("        long ").append(cnt).append(" = 0;\n");
            String val = "val" + i;
            if (s.stringValue()) {
                w.before.append("        String ").append(val).append(" = null;\n");
            } else if (s.hasValue()) {
                w.before.append("        ").append(s.doubleValue() ? "double " : "long ").append(val).append(" = ")
                        .append(s.doubleValue() ? "0.0d" : "0L").append(";\n");
            }
            if (call.function().statistic()) {
                w.before.append("        double ").append(Accumulators.secondMoment(val)).append(" = 0.0d;\n");
            }
            String guard = Accumulators.filterGuard(w, call);
            if (guard != null) {
                w.line("if (" + guard + ") {");
                w.indent++;
            }
            Accumulators.update(w, call, s, call.arg() == null ? null : w.gen.gen(call.arg()), i, cnt, val, "0", true);
            if (guard != null) {
                w.indent--;
                w.line("}");
            }
            // merge this morsel's accumulators into the worker's state
            if (call.function().statistic()) {
                w.after.append("        t.mergeMoments(").append(i).append(", 0, ").append(cnt).append(", ").append(val)
                        .append(", ").append(Accumulators.secondMoment(val)).append(");\n");
                continue;
            }
            if (s.stringValue()) {
                String tv = "t.svals[" + i + "][0]";
                String pick = s.isMin() ? "least" : s.isMax() ? "greatest" : null;
                w.after.append("        if (").append(cnt).append(" > 0) ").append(tv).append(" = ")
                        .append(pick == null ? val : "io.tessera.backend.jvm.aggregate.GroupTable." + pick + "(" + tv + ", " + val + ")").append(";\n");
            } else if (s.hasValue()) {
                String tv = "t." + (s.doubleValue() ? "dvals" : "lvals") + "[" + i + "][0]";
                w.after.append("        if (").append(cnt).append(" > 0) {\n");
                if (s.isMin() || s.isMax()) {
                    String beats = s.doubleValue() ? NanOrder.beats(s.isMin(), val, tv) : val + (s.isMin() ? " < " : " > ") + tv;
                    w.after.append("            if (t.counts[").append(i).append("][0] == 0 || ").append(beats)
                            .append(") ").append(tv).append(" = ").append(val).append(";\n");
                } else if (call.function().fold()) {
                    w.after.append("            ").append(tv).append(" = t.counts[").append(i).append("][0] == 0 ? ")
                            .append(val).append(" : ").append(Folds.expression(call.function(), tv, val)).append(";\n");
                } else if (call.function() == AggFunction.SINGLE_VALUE || call.function() == AggFunction.ANY_VALUE) {
                    w.after.append("            ").append(tv).append(" = ").append(val).append(";\n");
                } else if (s.doubleValue()) {
                    w.after.append("            ").append(tv).append(" += ").append(val).append(";\n");
                } else {
                    w.after.append("            ").append(tv).append(" = Math.addExact(").append(tv).append(", ").append(val).append(");\n");
                }
                w.after.append("        }\n");
            }
            w.after.append("        t.counts[").append(i).append("][0] += ").append(cnt).append(";\n");
        }
        w.after.append("        t.rows[0] += rows;\n");
    }
}
