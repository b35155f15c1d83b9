package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.variant.CudaVariantSpace;

import java.util.List;

/**
 * agg=independent: every thread its own table of the few groups, updated without atomics and merged into the global
 * arrays at the kernel's end.
 *
 * <p>A row's update visits every slot under {@code #pragma unroll} and writes the one its key names: the slot indices
 * are then constants, so the compiler keeps the table in registers, where {@code t_v[grp]} would put it in local
 * memory (a load and a store per aggregate and row). At the end each warp adds its 32 tables with shuffles and one
 * lane merges the warp's sums with atomics: 32 times fewer atomics on the few global slots every thread hits (TPC-H
 * Q1's four groups: each thread's merge was eight atomics on the same 48 bytes).
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
        prologue.append("    #pragma unroll\n");
        initTable(k, aggs, "t", slots, "0", "1");
    }

    /**
     * Per-row updates of group {@code grp} of the thread's own table: plain (checked) arithmetic, no atomics. Each
     * aggregate's argument is computed once, under its guard, then added to the slot {@code grp} names.
     */
    @Override
    void update(KernelBuilder k, List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp, long slots) {
        StringBuilder body = k.body;
        String[] guards = new String[aggs.size()];
        for (int a = 0; a < aggs.size(); a++) {
            AggCall call = calls.get(a);
            SinkLayout.Agg s = aggs.get(a);
            String guard = AggCode.guard(k, call);
            if (guard != null) {
                guards[a] = "agg_u" + a;
                body.append(in).append("const bool agg_u").append(a).append(" = ").append(guard).append(";\n");
            }
            if (s.valueType() != null) {
                // computed only where the guard holds, so that a row the aggregate skips raises no error
                String value = AggCode.value(k, call, s);
                if (guard == null) {
                    body.append(in).append("const ").append(s.valueType().c).append(" agg_x").append(a).append(" = ").append(value)
                            .append(";\n");
                } else {
                    body.append(in).append(s.valueType().c).append(" agg_x").append(a).append(" = ").append(AggCode.identity(s))
                            .append(";\n");
                    body.append(in).append("if (agg_u").append(a).append(") agg_x").append(a).append(" = ").append(value).append(";\n");
                }
            }
        }
        String slot;
        String pad;
        if (slots <= CudaVariantSpace.REGISTER_TABLE_SLOTS) {
            body.append(in).append("#pragma unroll\n");
            body.append(in).append("for (int s = 0; s < ").append(slots).append("; ++s) {\n");
            body.append(in).append("    if (s != ").append(grp).append(") continue;\n");
            slot = "s";
            pad = in + "    ";
        } else {
            // too many slots to visit per row: the table indexed by the key, in local memory
            body.append(in).append("{\n");
            slot = grp;
            pad = in + "    ";
        }
        body.append(pad).append("++t_rows[").append(slot).append("];\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            String inner = pad;
            if (guards[a] != null) {
                body.append(pad).append("if (").append(guards[a]).append(") {\n");
                inner = pad + "    ";
                if (s.ownCount()) {
                    body.append(inner).append("++t_n").append(a).append('[').append(slot).append("];\n");
                }
            }
            if (s.valueType() != null) {
                body.append(inner).append(AggCode.accumulate(s, "t_v" + a + "[" + slot + "]", "agg_x" + a)).append('\n');
            }
            if (guards[a] != null) {
                body.append(pad).append("}\n");
            }
        }
        body.append(in).append("}\n");
    }

    /**
     * The warp's 32 tables added slot by slot with butterfly shuffles (every lane ends with the warp's total, none
     * adds a value twice), then lane 0 merges the non-empty slots with atomics. Every thread of the grid reaches the
     * epilogue, so the shuffles' full mask holds.
     */
    @Override
    void finish(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots) {
        StringBuilder epilogue = k.epilogue;
        epilogue.append("    // the warp's tables added with shuffles; its lane 0 merges them into the global arrays\n");
        epilogue.append("    #pragma unroll\n");
        epilogue.append("    for (int s = 0; s < ").append(slots).append("; ++s) {\n");
        epilogue.append("        #pragma unroll\n");
        epilogue.append("        for (int o = 16; o > 0; o >>= 1) {\n");
        epilogue.append("            t_rows[s] += __shfl_xor_sync(0xffffffffu, t_rows[s], o);\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                // the lane's partner value in a variable first: MIN and MAX read it twice, and a shuffle must not sit
                // in one arm of a conditional
                String v = "t_v" + a + "[s]";
                epilogue.append("            {\n");
                epilogue.append("                const ").append(s.valueType().c).append(" w = __shfl_xor_sync(0xffffffffu, ")
                        .append(v).append(", o);\n");
                epilogue.append("                ").append(AggCode.accumulate(s, v, "w")).append('\n');
                epilogue.append("            }\n");
            }
            if (s.ownCount()) {
                epilogue.append("            t_n").append(a).append("[s] += __shfl_xor_sync(0xffffffffu, t_n").append(a)
                        .append("[s], o);\n");
            }
        }
        epilogue.append("        }\n");
        epilogue.append("    }\n");
        epilogue.append("    if ((threadIdx.x & 31) == 0) {\n");
        epilogue.append("        #pragma unroll\n");
        mergeTable(k, aggs, "t", slots, "0", "1", "        ");
        epilogue.append("    }\n");
    }
}
