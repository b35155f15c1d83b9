package io.tessera.backend.cuda.gen;

import io.tessera.backend.CodeNames;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Operation;
import io.tessera.plan.Sink;
import io.tessera.plan.Slot;
import io.tessera.plan.Source;

import java.util.List;

/**
 * The marks of a join that builds its preserved side, on the device: a marking probe sets the mark of the slot it
 * finds ({@code j<id>_marks}, one word per slot of the table, zeroed before the first marking pipeline runs; every
 * writer stores the same 1, so no atomic is needed), a MARKS sink ends a pipeline whose rows only mark, and a scan
 * of the table's marked or unmarked rows ({@code LOOP jN (matched)} / {@code (unmatched)}) is a kernel over the
 * table's slots: a slot takes part when it holds a row (its presence bit, or a key other than the empty marker) and
 * its mark is as the scan asks, and its columns are the table's payload columns at that slot. A chained table
 * ({@link ChainedRows}) is marked and scanned by row instead of by slot.
 */
final class MarkOps {

    private MarkOps() {
    }

    /** The statement a marking probe of table t runs for a row that found {@code slot}. */
    static String mark(KernelBuilder k, Operation.Probe pr) {
        return mark(k, pr, "slot");
    }

    /** The statement that marks entry {@code at} (a slot, or a chained table's row) of the probe's table. */
    static String mark(KernelBuilder k, Operation.Probe pr, String at) {
        String j = "j" + pr.joinId();
        k.param(new KernelParam(KernelParam.Kind.PROBE_MARKS, pr.joinId(), j + "_marks", "unsigned int* __restrict__"));
        return j + "_marks[" + at + "] = 1u;";
    }

    /** MARKS: the probes have set the marks; the rows go no further. */
    static void sink(KernelBuilder k, Sink.Marks m) {
        k.sink = new SinkLayout.Marks(m.joinId());
        k.body.append(KernelBuilder.IN).append("// MARKS j").append(m.joinId())
                .append(": the rows only marked the slots they matched\n");
    }

    /** The table a join-table scan reads: the layout its BUILD kernel left. */
    static JoinLayout scanned(KernelBuilder k) {
        JoinLayout t = k.ctx.join(k.joinScan.joinId());
        if (t == null) {
            throw new IllegalStateException("join j" + k.joinScan.joinId() + " has no device table: the capability "
                    + "check keeps its scan off the GPU");
        }
        return t;
    }

    /**
     * The start of a join-table scan's tile: every item is a slot of the table, kept when it holds a row whose mark
     * is as the scan asks.
     */
    static void scanFilter(KernelBuilder k) {
        Source.JoinTableScan js = k.joinScan;
        JoinLayout t = scanned(k);
        JoinTable table = JoinTable.of(t.kind());
        String in = KernelBuilder.IN;
        String present;
        if (t.chained()) {
            // a chained table's entries are the rows of its build's input that it took
            k.params.add(new KernelParam(KernelParam.Kind.SCAN_NEXT, js.joinId(), "scan_next",
                    "const long long* __restrict__"));
            present = "scan_next[s] != TESSERA_NOT_CHAINED";
        } else {
            k.params.add(new KernelParam(KernelParam.Kind.SCAN_KEYS, js.joinId(), "scan_" + table.keyArray(),
                    "const " + table.keyElement(t.keyType()) + "* __restrict__"));
            present = t.perfect() ? "((scan_bits[s >> 5] >> (s & 31)) & 1u) != 0u"
                    : "scan_keys[s] != " + JoinTable.emptyKey(t);
        }
        k.params.add(new KernelParam(KernelParam.Kind.SCAN_MARKS, js.joinId(), "scan_marks",
                "const unsigned int* __restrict__"));
        StringBuilder body = k.body;
        body.append(in).append("// LOOP j").append(js.joinId()).append(js.matched() ? " (matched)" : " (unmatched)")
                .append(t.chained() ? ": the rows of the table (" : ": the slots of the table (").append(t.describe())
                .append(t.chained() ? ") " : ") that hold a row ").append(js.matched() ? "a probe marked" : "no probe marked")
                .append('\n');
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const long long s = base + TileRow<TPB, IPT>(i, tile_size);\n");
        body.append(in).append("        flags[i] = ").append(present).append(" && scan_marks[s] ")
                .append(js.matched() ? "!=" : "==").append(" 0u;\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        k.narrowed = true;
    }

    /** Loads source column {@code s} of a join-table scan: payload column s.index() at each selected item's slot. */
    static void loadPayload(KernelBuilder k, Slot s, String in) {
        JoinLayout t = scanned(k);
        int c = s.index();
        CType pt = t.payloadTypes().get(c);
        String param = "scan_pay" + c;
        k.param(new KernelParam(KernelParam.Kind.SCAN_PAYLOAD, k.joinScan.joinId(), c, param,
                "const " + t.payloadMemory(c) + "* __restrict__"));
        String reg = "c" + c;
        k.loadedColumns.put(c, reg);
        String stored = param + "[base + TileRow<TPB, IPT>(i, tile_size)]";
        KeyRange r = t.payloadRanges().get(c);
        String value;
        if (r == null) {
            value = stored;
        } else if (pt == CType.INT) {
            value = "(int)((unsigned int)" + stored + " + (unsigned int)" + CudaExprGen.longLiteral(r.min()) + ")";
        } else {
            value = "(long long)" + stored + " + " + CudaExprGen.longLiteral(r.min());
        }
        StringBuilder body = k.body;
        body.append(in).append(pt.memory()).append(' ').append(reg).append("[IPT];  // ")
                .append(KernelBuilder.comment(CodeNames.payload(k.joinScan.joinId(), c)))
                .append(r == null ? "" : ", stored narrow as value - min").append('\n');
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) ").append(reg).append("[i] = flags[i] ? ")
                .append(value).append(" : (").append(pt.memory()).append(")0;\n");
    }

    /** Whether any operation of a pipeline sets marks (the operations then keep the plan's order). */
    static boolean anyMarks(List<Operation> ops) {
        return ops.stream().anyMatch(o -> o instanceof Operation.Probe pr && pr.setsMarks());
    }
}
