package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.jvm.gen.HashFunction;
import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.AggCall;
import io.tessera.plan.Expr;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Sink;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;

/**
 * GROUP_AGGREGATE: the row's keys and its aggregates' updates of its group, in the table of the genome's
 * aggregation strategy ({@link GroupAggregation}: dense, hash, shared, partitioned). This class emits what the
 * strategies share: the keys, the keys encoded as the hash tables hold them, a group's lookup, the updates.
 */
public final class GroupAggregateEmitter {

    final PipelineWriter w;
    final Sink.GroupAggregate ga;
    /** The keys' values for the current row. */
    final List<JExpr> keys = new ArrayList<>();

    private GroupAggregateEmitter(PipelineWriter w, Sink.GroupAggregate ga) {
        this.w = w;
        this.ga = ga;
    }

    public static void emit(PipelineWriter w, Sink.GroupAggregate ga) {
        new GroupAggregateEmitter(w, ga).emit();
    }

    private void emit() {
        int nk = ga.keys().size();
        GroupAggregation strategy = GroupAggregation.of(w.g.get(JvmDimensions.AGGREGATION), w.g);
        w.dense = strategy == GroupAggregation.DENSE;
        w.comment("GROUP_AGGREGATE (" + strategy.description + (w.dense ? "" : ", " + HashFunction.of(w).description)
                + ") by " + w.codeNames.exprs(ga.keys()) + " " + w.codeNames.aggs(ga.aggs()));
        w.keyKinds = new ValueKind[nk];
        w.keyDicts = new String[nk];
        for (int k = 0; k < nk; k++) {
            Expr e = ga.keys().get(k);
            w.load(e);
            JExpr x = w.gen.gen(e);
            keys.add(x);
            w.keyKinds[k] = x.kind();
            w.keyDicts[k] = x.dict();
            w.nullableKeys |= x.nullable();
        }
        w.aggSpecs = new AggSpec[ga.aggs().size()];
        for (int i = 0; i < w.aggSpecs.length; i++) {
            w.aggSpecs[i] = Accumulators.spec(w, ga.aggs().get(i));
        }
        w.keyWidth = nk + (w.nullableKeys ? 1 : 0);
        strategy.emit(this);
    }

    /** The dense array's group index of the current row. */
    void denseGroup() {
        int nk = keys.size();
        w.denseMins = new long[nk];
        w.denseSizes = new long[nk];
        StringBuilder idx = new StringBuilder();
        long stride = 1;
        String[] parts = new String[nk];
        for (int k = nk - 1; k >= 0; k--) {
            KeyRange r = ga.ranges().get(k);
            if (r == null) {
                throw new IllegalStateException("dense aggregation without a key range");
            }
            w.denseMins[k] = r.min();
            w.denseSizes[k] = r.size() + 1; // one slot for NULL
            JExpr x = keys.get(k);
            String off = "(" + (x.kind() == ValueKind.BOOL ? "(" + x.v() + " ? 1L : 0L)" : "(long) " + x.v()) + " - " + r.min() + "L)";
            if (x.nullable()) {
                off = "(" + x.n() + " ? " + r.size() + "L : " + off + ")";
            }
            parts[k] = stride == 1 ? off : off + " * " + stride + "L";
            stride *= w.denseSizes[k];
        }
        for (int k = 0; k < nk; k++) {
            idx.append(k == 0 ? "" : " + ").append(parts[k]);
        }
        w.line("final int grp = (int) (" + idx + ");");
        w.line("t.rows[grp]++;");
    }

    /**
     * The keys as the hash tables hold them ({@code keyWidth} longs: one per key, NULL as 0, then a NULL mask when
     * a key is nullable); strings are interned by table {@code t}, or, {@code forSpreading} a row over stripes or
     * partitions before any table is known, taken by their hash code.
     */
    List<String> encodedKeys(boolean forSpreading) {
        List<String> enc = new ArrayList<>();
        StringBuilder mask = new StringBuilder();
        for (int k = 0; k < keys.size(); k++) {
            JExpr x = keys.get(k);
            String e = switch (x.kind()) {
                case STRING -> forSpreading ? "(long) " + x.v() + ".hashCode()" : "t.intern(" + x.v() + ")";
                case DOUBLE -> "io.tessera.backend.jvm.lib.Hashing.doubleKey(" + x.v() + ")";
                case BOOL -> "(" + x.v() + " ? 1L : 0L)";
                default -> "(long) " + x.v();
            };
            if (x.nullable()) {
                e = "(" + x.n() + " ? 0L : " + e + ")";
                mask.append(mask.length() == 0 ? "" : " | ").append("(").append(x.n()).append(" ? ").append(1L << k).append("L : 0L)");
            }
            enc.add(e);
        }
        if (w.nullableKeys) {
            enc.add(mask.toString());
        }
        return enc;
    }

    /** One hash of the encoded keys (to pick a lock stripe or a partition): the key itself when there is one. */
    static String combined(List<String> enc) {
        if (enc.size() == 1) {
            return enc.get(0);
        }
        String h = "0L";
        for (String e : enc) {
            h = "io.tessera.backend.jvm.lib.Hashing.combine(" + h + ", " + e + ")";
        }
        return h;
    }


    /** {@code grp}: the current row's group in hash table {@code t}, inserted when new. */
    void findGroup(List<String> enc) {
        if (w.keyWidth == 1) {
            w.line("final int grp = t.find1(" + enc.get(0) + ");");
        } else if (w.keyWidth == 2) {
            w.line("final int grp = t.find2(" + enc.get(0) + ", " + enc.get(1) + ");");
        } else {
            for (int k = 0; k < w.keyWidth; k++) {
                w.line("t.scratch[" + k + "] = " + enc.get(k) + ";");
            }
            w.line("final int grp = t.findN();");
        }
    }

    /** Every aggregate's update of group {@code grp} of table {@code t} for the current row. */
    void updates() {
        for (int i = 0; i < w.aggSpecs.length; i++) {
            AggCall call = ga.aggs().get(i);
            String guard = Accumulators.filterGuard(w, call);
            if (guard != null) {
                w.line("if (" + guard + ") {");
                w.indent++;
            }
            Accumulators.update(w, call, w.aggSpecs[i], call.arg() == null ? null : w.gen.gen(call.arg()), i, null, null, "grp", false);
            if (guard != null) {
                w.indent--;
                w.line("}");
            }
        }
    }

}
