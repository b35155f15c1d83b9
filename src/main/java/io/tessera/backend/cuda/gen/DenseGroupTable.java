package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Sink;

import java.util.List;

/**
 * A dense group table: key i at offset {@code key - min} of its range, the slot their mixed-radix number (keys on the
 * GPU are never NULL: no NULL slot); a key outside the range the statistics gave fails the pipeline. The kinds differ
 * in where the table lives: {@link #setUp} before the tiles, {@link #update} per row, {@link #finish} after them.
 */
abstract sealed class DenseGroupTable implements GroupTable
        permits GlobalDenseGroupTable, BlockLocalGroupTable, ThreadLocalGroupTable {

    /** The table's set-up in the prologue, for {@code slots} groups. */
    abstract void setUp(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots);

    /** The updates of group {@code grp} (one of {@code slots}) by item i. */
    abstract void update(KernelBuilder k, List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp, long slots);

    /** The table's merge into the global arrays, in the epilogue. */
    abstract void finish(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots);

    @Override
    public final SinkLayout.Aggregate emit(KernelBuilder k, Sink.GroupAggregate ga, List<AggCall> calls,
                                           List<SinkLayout.Agg> aggs, List<CValue> keys) {
        String in = KernelBuilder.IN;
        int nk = keys.size();
        long[] mins = new long[nk];
        long[] sizes = new long[nk];
        long slots = 1;
        for (int c = 0; c < nk; c++) {
            KeyRange r = ga.ranges().get(c);
            if (r == null) {
                throw new IllegalStateException("a dense group table without the range of key " + ga.keyNames().get(c)
                        + ": the capability check excludes it");
            }
            mins[c] = r.min();
            sizes[c] = r.size(); // keys on the GPU are never NULL: no NULL slot
            slots = Math.multiplyExact(slots, sizes[c]);
        }
        StringBuilder idx = new StringBuilder();
        StringBuilder inRange = new StringBuilder();
        // 32-bit keys over 32-bit ranges: the offsets and the slot in 32-bit arithmetic, as the probes compute theirs
        boolean narrowIndex = slots <= Integer.MAX_VALUE;
        for (int c = 0; c < nk; c++) {
            narrowIndex &= keys.get(c).type() == CType.INT && KernelBuilder.intRange(mins[c], sizes[c]);
        }
        long stride = 1;
        for (int c = nk - 1; c >= 0; c--) {
            if (narrowIndex) {
                String off = "((unsigned int)" + keys.get(c).v() + " - (unsigned int)" + CudaExprGen.longLiteral(mins[c]) + ")";
                inRange.append(inRange.length() == 0 ? "" : " && ").append(off).append(" < ").append(sizes[c]).append("u");
                idx.insert(0, (c == 0 ? "" : " + ") + (stride == 1 ? off : off + " * " + stride + "u"));
            } else {
                String off = "(" + GroupTable.asKeyWord(keys.get(c)) + " - " + CudaExprGen.longLiteral(mins[c]) + ")";
                inRange.append(inRange.length() == 0 ? "" : " && ").append("(unsigned long long)").append(off).append(" < ")
                        .append(sizes[c]).append("ull");
                idx.insert(0, (c == 0 ? "" : " + ") + (stride == 1 ? off : off + " * " + stride + "LL"));
            }
            stride *= sizes[c];
        }
        setUp(k, aggs, slots);
        StringBuilder body = k.body;
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        if (!(").append(inRange).append(")) {\n");
        body.append(in).append("            err |= TESSERA_ERR_TABLE_FULL;  // a group key outside the range the statistics gave\n");
        body.append(in).append("        } else {\n");
        body.append(in).append(narrowIndex ? "            const int grp = (int)(" + idx + ");\n"
                : "            const long long grp = " + idx + ";\n");
        update(k, calls, aggs, in + "            ", "grp", slots);
        body.append(in).append("        }\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        finish(k, aggs, slots);
        return new SinkLayout.Aggregate(mode(), aggs, mins, sizes, slots, nk);
    }

    /** Sets every slot of a block's or thread's table ({@code prefix}_rows, _v, _n) to its identity. */
    static void initTable(KernelBuilder k, List<SinkLayout.Agg> aggs, String prefix, long slots, String first, String step) {
        StringBuilder prologue = k.prologue;
        prologue.append("    for (int s = ").append(first).append("; s < ").append(slots).append("; s += ").append(step).append(") {\n");
        prologue.append("        ").append(prefix).append("_rows[s] = 0;\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                prologue.append("        ").append(prefix).append("_v").append(a).append("[s] = ").append(AggCode.identity(s)).append(";\n");
            }
            if (s.ownCount()) {
                prologue.append("        ").append(prefix).append("_n").append(a).append("[s] = 0;\n");
            }
        }
        prologue.append("    }\n");
    }

    /** Merges the non-empty slots of a block's or thread's table into the global arrays with atomics. */
    static void mergeTable(KernelBuilder k, List<SinkLayout.Agg> aggs, String prefix, long slots, String first, String step) {
        mergeTable(k, aggs, prefix, slots, first, step, "    ");
    }

    /** {@link #mergeTable} with its lines indented by {@code pad}. */
    static void mergeTable(KernelBuilder k, List<SinkLayout.Agg> aggs, String prefix, long slots, String first, String step,
                           String pad) {
        StringBuilder epilogue = k.epilogue;
        epilogue.append(pad).append("for (int s = ").append(first).append("; s < ").append(slots).append("; s += ").append(step).append(") {\n");
        epilogue.append(pad).append("    if (").append(prefix).append("_rows[s] == 0) continue;\n");
        epilogue.append(pad).append("    tessera::q::AtomicAddCount(&g_rows[s], ").append(prefix).append("_rows[s]);\n");
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                epilogue.append(pad).append("    ").append(AggCode.merge(s, "&g_v" + a + "[s]", prefix + "_v" + a + "[s]")).append('\n');
            }
            if (s.ownCount()) {
                epilogue.append(pad).append("    tessera::q::AtomicAddCount(&g_n").append(a).append("[s], ").append(prefix).append("_n")
                        .append(a).append("[s]);\n");
            }
        }
        epilogue.append(pad).append("}\n");
    }
}
