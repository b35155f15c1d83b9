package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.Sink;

import java.util.List;

/**
 * AGGREGATE without grouping: per-thread accumulators over the thread's selected rows, reduced per warp with
 * shuffles at the kernel's end, then one atomic per warp and aggregate into the single result.
 */
final class AggregateOp {

    private AggregateOp() {
    }

    static void emit(KernelBuilder k, Sink.Aggregate sink) {
        String in = KernelBuilder.IN;
        List<AggCall> calls = sink.aggs();
        List<SinkLayout.Agg> aggs = AggCode.accumulators(k, calls);
        AggCode.open(k, "AGGREGATE " + k.codeNames.aggs(calls), aggs);
        StringBuilder prologue = k.prologue;
        StringBuilder body = k.body;
        StringBuilder epilogue = k.epilogue;
        prologue.append("    unsigned long long acc_rows = 0;\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                prologue.append("    ").append(s.valueType().c).append(" acc_v").append(a).append(" = ")
                        .append(AggCode.identity(s)).append(";\n");
            }
            if (s.ownCount()) {
                prologue.append("    unsigned long long acc_n").append(a).append(" = 0;\n");
            }
        }
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        ++acc_rows;\n");
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = calls.get(a);
            SinkLayout.Agg s = aggs.get(a);
            String pad = in + "        ";
            String guard = AggCode.guard(k, call);
            if (guard != null) {
                body.append(pad).append("if (").append(guard).append(") {\n");
                pad += "    ";
                body.append(pad).append("++acc_n").append(a).append(";\n");
            }
            if (s.valueType() != null) {
                String x = AggCode.value(k, call, s);
                body.append(pad).append(AggCode.accumulate(s, "acc_v" + a, x)).append('\n');
            }
            if (guard != null) {
                body.append(in).append("        }\n");
            }
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        epilogue.append("    // one atomic per warp and aggregate\n");
        epilogue.append("    acc_rows = tessera::q::WarpSum(acc_rows);\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                String acc = "acc_v" + a;
                String red = switch (s.function()) {
                    case MIN -> "tessera::q::WarpMin(" + acc + ")";
                    case MAX -> "tessera::q::WarpMax(" + acc + ")";
                    default -> s.valueType() == CType.DOUBLE ? "tessera::q::WarpSum(" + acc + ")"
                            : "tessera::q::WarpSumChecked(" + acc + ", err)";
                };
                epilogue.append("    ").append(acc).append(" = ").append(red).append(";\n");
            }
            if (s.ownCount()) {
                epilogue.append("    acc_n").append(a).append(" = tessera::q::WarpSum(acc_n").append(a).append(");\n");
            }
        }
        epilogue.append("    if ((threadIdx.x & 31) == 0 && acc_rows > 0) {\n");
        epilogue.append("        tessera::q::AtomicAddCount(g_rows, acc_rows);\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                epilogue.append("        ").append(AggCode.merge(s, "g_v" + a, "acc_v" + a)).append('\n');
            }
            if (s.ownCount()) {
                epilogue.append("        tessera::q::AtomicAddCount(g_n").append(a).append(", acc_n").append(a).append(");\n");
            }
        }
        epilogue.append("    }\n");
        k.sink = new SinkLayout.Aggregate("single", aggs, new long[0], new long[0], 1, 0);
    }
}
