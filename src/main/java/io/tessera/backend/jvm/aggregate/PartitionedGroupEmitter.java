package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.jvm.gen.JKind;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.AggCall;
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
     * then per aggregate a BOOL (the row counts for it: its FILTER holds) and its argument's value.
     */
    static void emit(GroupAggregateEmitter e) {
        PipelineWriter w = e.w;
        Sink.GroupAggregate ga = e.ga;
        List<JExpr> keys = e.keys;
        w.before.append("        final io.tessera.backend.jvm.aggregate.PartitionedInput parts = (io.tessera.backend.jvm.aggregate.PartitionedInput) sinkState;\n");
        int nk = keys.size();
        List<JKind> kinds = new ArrayList<>();
        String h = w.name("partitionHash");
        w.line("final long " + h + " = " + GroupAggregateEmitter.combined(e.encodedKeys(true)) + ";");
        w.line("final io.tessera.backend.jvm.relation.RowBuffer out = parts.part(" + h + ");");
        w.line("final int w = out.next();");
        List<String> enc = e.encodedKeys(false);
        for (int k = 0; k < nk; k++) {
            JExpr x = keys.get(k);
            if (x.kind() == JKind.STRING) {
                w.line("out.strings[" + k + "][w] = " + (x.nullable() ? "(" + x.n() + " ? null : " + x.v() + ")" : x.v()) + ";");
                kinds.add(JKind.STRING);
            } else {
                w.line("out.longs[" + k + "][w] = " + enc.get(k) + ";");
                kinds.add(JKind.LONG);
            }
        }
        if (w.nullableKeys) {
            w.line("out.longs[" + nk + "][w] = " + enc.get(nk) + ";");
            kinds.add(JKind.LONG);
        }
        int[] flagCol = new int[w.aggSpecs.length];
        int[] valueCol = new int[w.aggSpecs.length];
        JExpr[] values = new JExpr[w.aggSpecs.length];
        for (int i = 0; i < w.aggSpecs.length; i++) {
            AggCall call = ga.aggs().get(i);
            String guard = Accumulators.filterGuard(w, call);
            flagCol[i] = kinds.size();
            kinds.add(JKind.BOOL);
            w.line("out.bytes[" + flagCol[i] + "][w] = " + (guard == null ? "1" : "(byte) (" + guard + " ? 1 : 0)") + ";");
            valueCol[i] = -1;
            if (call.arg() != null) {
                JExpr x = w.gen.gen(call.arg());
                valueCol[i] = kinds.size();
                kinds.add(x.kind());
                w.store("out", valueCol[i], x, "w");
                String arr = switch (x.kind()) {
                    case INT, CODE -> "ints";
                    case LONG -> "longs";
                    case DOUBLE -> "doubles";
                    case BOOL -> "bytes";
                    case STRING -> "strings";
                };
                String v = "in." + arr + "[" + valueCol[i] + "][i]" + (x.kind() == JKind.BOOL ? " != 0" : "");
                values[i] = new JExpr(v, x.nullable() ? "in.isNull(" + valueCol[i] + ", i)" : "false", x.kind(), x.dict());
            }
        }
        w.bufferKinds = kinds.toArray(new JKind[0]);
        w.bufferDicts = new String[w.bufferKinds.length];

        // the second phase: one partition's rows into table t
        StringBuilder saved = w.target;
        int savedIndent = w.indent;
        w.target = w.partitionMethod;
        w.indent = 3;
        List<String> stored = new ArrayList<>();
        for (int k = 0; k < nk; k++) {
            stored.add(kinds.get(k) == JKind.STRING
                    ? "(in.strings[" + k + "][i] == null ? 0L : t.intern(in.strings[" + k + "][i]))" : "in.longs[" + k + "][i]");
        }
        if (w.nullableKeys) {
            stored.add("in.longs[" + nk + "][i]");
        }
        e.findGroup(stored);
        for (int i = 0; i < w.aggSpecs.length; i++) {
            w.line("if (in.bytes[" + flagCol[i] + "][i] != 0) {");
            w.indent++;
            Accumulators.update(w, ga.aggs().get(i), w.aggSpecs[i], values[i], i, null, null, "grp", false);
            w.indent--;
            w.line("}");
        }
        w.target = saved;
        w.indent = savedIndent;
    }
}
