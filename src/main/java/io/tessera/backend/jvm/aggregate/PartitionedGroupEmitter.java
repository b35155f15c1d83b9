package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.JavaTypes;
import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.AggCall;
import io.tessera.plan.AggFunction;
import io.tessera.plan.Sink;

import java.util.ArrayList;
import java.util.List;

/** The partitioned strategy of GROUP_AGGREGATE ({@code agg=partitioned}, {@link GroupAggregation#PARTITIONED}). */
final class PartitionedGroupEmitter {
    private PartitionedGroupEmitter() {
    }

    /**
     * Partitioned aggregation. The loop writes each row's keys and aggregate inputs into the worker's buffer of
     * the row's partition (by key hash); {@code aggregatePartition} then aggregates one partition's buffered rows
     * into its own hash table (partitions hold disjoint keys, so their tables need no merging of equal groups).
     * Buffer columns: the keys (a LONG each, a STRING for a string key), the NULL mask when a key is nullable,
     * then per aggregate a BOOL (the row counts for it: its FILTER holds) and its argument's value. Where every
     * aggregate can ({@link KeyRuns}), a row with the previous row's keys is combined into that row's buffered
     * values instead: no BOOL columns then, and COUNT(*) buffers the rows of its run.
     */
    static void emit(GroupAggregateEmitter e) {
        PipelineWriter w = e.w;
        Sink.GroupAggregate ga = e.ga;
        List<JExpr> keys = e.keys;
        w.before.append("        final io.tessera.backend.jvm.aggregate.PartitionedInput parts = (io.tessera.backend.jvm.aggregate.PartitionedInput) sinkState;\n");
        int nk = keys.size();
        int na = w.aggSpecs.length;
        JExpr[] args = new JExpr[na];
        for (int i = 0; i < na; i++) {
            AggCall call = ga.aggs().get(i);
            args[i] = call.arg() == null ? null : w.gen.gen(call.arg());
        }
        boolean runs = KeyRuns.apply(keys, ga.aggs(), args);
        List<String> enc = e.encodedKeys(false);
        List<String> runKeys = new ArrayList<>();
        String runOut = null;
        String runRow = null;
        if (runs) {
            // a run of rows with equal keys is buffered once (KeyRuns): the previous row's buffer, row and keys
            runOut = w.name("runOut");
            runRow = w.name("runRow");
            w.before.append("        io.tessera.backend.host.RowBuffer ").append(runOut).append(" = null; // the buffered row of the run of equal keys\n");
            w.before.append("        int ").append(runRow).append(" = -1;\n");
            List<String> tests = new ArrayList<>();
            List<String> locals = new ArrayList<>();
            for (int k = 0; k < enc.size(); k++) {
                String prev = w.name("runKey");
                w.before.append("        long ").append(prev).append(" = 0L;\n");
                String cur = w.name("groupKey");
                w.line("final long " + cur + " = " + enc.get(k) + ";");
                runKeys.add(prev);
                locals.add(cur);
                tests.add(cur + " == " + prev);
            }
            enc = locals;
            for (int i = 0; i < na; i++) {
                if (args[i] != null && ga.aggs().get(i).function() != AggFunction.COUNT_STAR) {
                    String v = w.name("aggArg");
                    w.line("final " + JavaTypes.of(args[i].kind()) + " " + v + " = " + args[i].v() + ";");
                    args[i] = new JExpr(v, args[i].n(), args[i].kind(), args[i].dict());
                }
            }
            w.line("if (" + runRow + " >= 0 && " + String.join(" && ", tests) + ") {");
            w.indent++;
            w.comment("the same group as the previous row: its values combined into that row's buffered ones");
            int col = enc.size();
            for (int i = 0; i < na; i++) {
                AggCall call = ga.aggs().get(i);
                ValueKind kind = call.function() == AggFunction.COUNT_STAR ? ValueKind.LONG : args[i].kind();
                String st = KeyRuns.combine(call, kind, runOut + "." + array(kind) + "[" + col + "][" + runRow + "]",
                        args[i] == null ? null : args[i].v());
                if (st != null) {
                    w.line(st);
                }
                col++;
            }
            w.indent--;
            w.line("} else {");
            w.indent++;
        }
        List<ValueKind> kinds = new ArrayList<>();
        String h = w.name("partitionHash");
        w.line("final long " + h + " = " + GroupAggregateEmitter.combined(runs ? enc : e.encodedKeys(true)) + ";");
        w.line("final io.tessera.backend.host.RowBuffer out = parts.part(" + h + ");");
        w.line("final int w = out.next();");
        for (int k = 0; k < nk; k++) {
            JExpr x = keys.get(k);
            if (x.kind() == ValueKind.STRING) {
                w.line("out.strings[" + k + "][w] = " + (x.nullable() ? "(" + x.n() + " ? null : " + x.v() + ")" : x.v()) + ";");
                kinds.add(ValueKind.STRING);
            } else {
                w.line("out.longs[" + k + "][w] = " + enc.get(k) + ";");
                kinds.add(ValueKind.LONG);
            }
        }
        if (w.nullableKeys) {
            w.line("out.longs[" + nk + "][w] = " + enc.get(nk) + ";");
            kinds.add(ValueKind.LONG);
        }
        int[] flagCol = new int[na];
        int[] valueCol = new int[na];
        JExpr[] values = new JExpr[na];
        for (int i = 0; i < na; i++) {
            AggCall call = ga.aggs().get(i);
            valueCol[i] = -1;
            if (runs) {
                // no FILTER here: a combined row counts for every aggregate; COUNT(*) buffers its run's rows
                flagCol[i] = -1;
                if (call.function() == AggFunction.COUNT_STAR) {
                    valueCol[i] = kinds.size();
                    kinds.add(ValueKind.LONG);
                    w.line("out.longs[" + valueCol[i] + "][w] = 1L;");
                    continue;
                }
            } else {
                String guard = Accumulators.filterGuard(w, call);
                flagCol[i] = kinds.size();
                kinds.add(ValueKind.BOOL);
                w.line("out.bytes[" + flagCol[i] + "][w] = " + (guard == null ? "1" : "(byte) (" + guard + " ? 1 : 0)") + ";");
            }
            if (call.arg() != null) {
                JExpr x = args[i];
                valueCol[i] = kinds.size();
                kinds.add(x.kind());
                w.store("out", valueCol[i], x, "w");
                String v = "in." + array(x.kind()) + "[" + valueCol[i] + "][i]" + (x.kind() == ValueKind.BOOL ? " != 0" : "");
                values[i] = new JExpr(v, x.nullable() ? "in.isNull(" + valueCol[i] + ", i)" : "false", x.kind(), x.dict());
            }
        }
        if (runs) {
            w.line(runOut + " = out;");
            w.line(runRow + " = w;");
            for (int k = 0; k < enc.size(); k++) {
                w.line(runKeys.get(k) + " = " + enc.get(k) + ";");
            }
            w.indent--;
            w.line("}");
        }
        w.bufferKinds = kinds.toArray(new ValueKind[0]);
        w.bufferDicts = new String[w.bufferKinds.length];

        // the second phase: one partition's rows into table t
        StringBuilder saved = w.target;
        int savedIndent = w.indent;
        w.target = w.partitionMethod;
        w.indent = 3;
        List<String> stored = new ArrayList<>();
        for (int k = 0; k < nk; k++) {
            stored.add(kinds.get(k) == ValueKind.STRING
                    ? "(in.strings[" + k + "][i] == null ? 0L : t.intern(in.strings[" + k + "][i]))" : "in.longs[" + k + "][i]");
        }
        if (w.nullableKeys) {
            stored.add("in.longs[" + nk + "][i]");
        }
        e.findGroup(stored);
        for (int i = 0; i < na; i++) {
            AggCall call = ga.aggs().get(i);
            if (runs && call.function() == AggFunction.COUNT_STAR) {
                w.line("t.counts[" + i + "][grp] += in.longs[" + valueCol[i] + "][i]; // the rows of a run");
                continue;
            }
            if (flagCol[i] >= 0) {
                w.line("if (in.bytes[" + flagCol[i] + "][i] != 0) {");
                w.indent++;
            }
            Accumulators.update(w, call, w.aggSpecs[i], values[i], i, null, null, "grp", false);
            if (flagCol[i] >= 0) {
                w.indent--;
                w.line("}");
            }
        }
        w.target = saved;
        w.indent = savedIndent;
    }

    /** The array of a row buffer that holds values of this kind. */
    private static String array(ValueKind kind) {
        return switch (kind) {
            case INT, CODE -> "ints";
            case LONG -> "longs";
            case DOUBLE -> "doubles";
            case BOOL -> "bytes";
            case STRING -> "strings";
        };
    }
}
