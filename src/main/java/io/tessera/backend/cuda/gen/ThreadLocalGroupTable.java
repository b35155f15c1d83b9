package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;

import java.util.List;

/**
 * agg=independent: every thread its own table of the few groups, in registers or local memory, updated without
 * atomics and merged into the global arrays at the kernel's end.
 */
final class ThreadLocalGroupTable extends DenseGroupTable {

    static final ThreadLocalGroupTable INSTANCE = new ThreadLocalGroupTable();

    private ThreadLocalGroupTable() {
    }

    @Override
    public String mode() {
        return "independent";
    }

    @Override
    public String describe() {
        return "dense array per thread";
    }

    @Override
    void setUp(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots) {
        StringBuilder prologue = k.prologue;
        prologue.append("    // INDEPENDENT: this thread's groups, merged into the global arrays at the kernel's end\n");
        prologue.append("    unsigned long long t_rows[").append(slots).append("];\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                prologue.append("    ").append(s.valueType().c).append(" t_v").append(a).append('[').append(slots).append("];\n");
            }
            if (s.ownCount()) {
                prologue.append("    unsigned long long t_n").append(a).append('[').append(slots).append("];\n");
            }
        }
        initTable(k, aggs, "t", slots, "0", "1");
    }

    /** Per-row updates of group {@code grp} of the thread's own table: plain (checked) arithmetic, no atomics. */
    @Override
    void update(KernelBuilder k, List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp) {
        StringBuilder body = k.body;
        body.append(in).append("++t_rows[").append(grp).append("];\n");
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = calls.get(a);
            SinkLayout.Agg s = aggs.get(a);
            String pad = in;
            String guard = AggCode.guard(k, call);
            if (guard != null) {
                body.append(in).append("if (").append(guard).append(") {\n");
                pad = in + "    ";
                body.append(pad).append("++t_n").append(a).append('[').append(grp).append("];\n");
            }
            if (s.valueType() != null) {
                body.append(pad).append(AggCode.accumulate(s, "t_v" + a + "[" + grp + "]", AggCode.value(k, call, s))).append('\n');
            }
            if (guard != null) {
                body.append(in).append("}\n");
            }
        }
    }

    @Override
    void finish(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots) {
        mergeTable(k, aggs, "t", slots, "0", "1");
    }
}
