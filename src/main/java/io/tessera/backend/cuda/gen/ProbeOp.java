package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Slot;
import io.tessera.variant.CudaVariantSpace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PROBE of a device join table (inner, semi, anti, left or mark), fused into the tile: finds each selected row's key
 * with the table kind's {@link JoinTable#find}, clears the flags of the rows it drops, and fetches the payload that
 * later operations and the sink read (a left join's payload NULL where the key is missing). The probe is branched per row, or (ppred) predicated for perfect tables; a perfect
 * table's payload may wait for the rows later operations keep (gather=late, {@link PayloadGathers}).
 */
final class ProbeOp {

    private ProbeOp() {
    }

    /**
     * A PROBE. {@code again}: in pass 1 of mat=bitmap, where the bitmap already holds the selection, the probe only
     * fetches the payload of {@link KernelBuilder#laterSlots} for the selected rows (each found its key in pass 0, in
     * the same table) and leaves the flags alone.
     */
    static void emit(KernelBuilder k, Operation.Probe pr, boolean again) {
        String in = KernelBuilder.IN;
        JoinLayout t = k.ctx.join(pr.joinId());
        String unsupported = CudaCapabilities.probeReason(pr, t);
        if (unsupported != null) {
            throw new IllegalStateException("PROBE j" + pr.joinId() + ": " + unsupported + ", which the capability check excludes");
        }
        JoinTable table = JoinTable.of(t.kind());
        CType kt = t.keyType();
        String j = "j" + pr.joinId();
        boolean sharedBits = k.sharedBitmapWords.containsKey(pr.joinId());
        boolean predicated = predicated(k, t, again) && !pr.setsMarks() && !t.chained() && pr.residual() == null
                && pr.kind() != JoinKind.LEFT;
        k.body.append(in).append("// PROBE ").append(j).append(' ').append(pr.kind().name().toLowerCase(Locale.ROOT))
                .append(" on ").append(KernelBuilder.comment(k.codeNames.exprs(pr.keys()))).append(" (").append(t.describe())
                .append(JoinKeys.packed(pr.keys()) ? ", the two keys packed into one" : "").append(")")
                .append(sharedBits ? ", its bitmap in shared memory" : "")
                .append(again ? ": again, for the payload of the rows pass 0 selected" : "")
                .append(predicated ? String.format(Locale.ROOT,
                        ", predicated (an estimated %.1f%% of the rows reach it)", 100 * k.model.selected()) : "")
                .append('\n');
        List<Expr> reads = new ArrayList<>(pr.keys());
        if (pr.residual() != null && !again) {
            reads.add(pr.residual());
        }
        k.load(reads, in);
        // a NULL key never matches: an inner or semi probe drops its row here, the others find no slot for it
        String keyNull = JoinKeys.nullCondition(k, pr.keys());
        if (keyNull != null && !again && (pr.kind() == JoinKind.INNER || pr.kind() == JoinKind.SEMI)) {
            JoinKeys.dropNullKeys(k, keyNull, in);
            keyNull = null;
        }
        k.param(new KernelParam(KernelParam.Kind.PROBE_KEYS, pr.joinId(), j + "_" + table.keyArray(),
                "const " + table.keyElement(kt) + "* __restrict__"));
        table.probeSizeParams(k, pr.joinId(), j);
        // payload columns read later as values: one register array each, filled from the matched slot; a column
        // only IS [NOT] NULL reads is not fetched, its test answered from the hit flag or its NULL flag
        // (ValueReads). With mat=bitmap, pass 0 fetches only what later operations read (the outputs' payload is
        // fetched in pass 1); with mat=twopass, what only the outputs read is fetched in pass 1 alone.
        boolean opsOnly = !again && k.rows == RowPlacement.BITMAP;
        List<Integer> payloads = new ArrayList<>();
        List<Integer> nullTested = new ArrayList<>();
        List<Integer> secondPassOnly = new ArrayList<>();
        boolean left = pr.kind() == JoinKind.LEFT;
        if (pr.kind() == JoinKind.INNER || left) {
            payloads.addAll(columns(pr, opsOnly ? k.laterOpValueSlots : k.laterValueSlots));
            for (int c : columns(pr, opsOnly ? k.laterOpSlots : k.laterSlots)) {
                if (!payloads.contains(c)) {
                    nullTested.add(c);
                }
            }
            if (!again && k.rows == RowPlacement.TWO_PASS && !left) {
                for (int c : payloads) {
                    if (k.laterOpSlots.stream().noneMatch(s -> s.joinId() == pr.joinId() && s.index() == c)) {
                        secondPassOnly.add(c);
                    }
                }
            }
        }
        // a condition besides the keys reads the payload of each match, in both passes
        List<Integer> residualPayloads = residualPayloads(pr, again);
        for (int c : residualPayloads) {
            if (!payloads.contains(c)) {
                payloads.add(c);
            }
        }
        if (t.nullFlags()) {
            // each column's NULL flag is fetched where the column is, and alone for a column only tested for NULL
            withNullFlags(t, payloads);
            withNullFlags(t, secondPassOnly);
            withNullFlags(t, residualPayloads);
            for (int c : nullTested) {
                if (!payloads.contains(t.nullFlag(c))) {
                    payloads.add(t.nullFlag(c));
                }
            }
        }
        for (int c : payloads) {
            CType pt = t.payloadTypes().get(c);
            k.param(new KernelParam(KernelParam.Kind.PROBE_PAYLOAD, pr.joinId(), c, j + "_pay" + c,
                    "const " + t.payloadMemory(c) + "* __restrict__"));
            k.body.append(in).append(pt.memory()).append(' ').append(j).append("_p").append(c).append("[IPT];\n");
            if (c >= t.columns()) {
                continue; // a NULL flag
            }
            String v = j + "_p" + c + "[i]";
            String isNull = payloadNull(t, c, left);
            k.payloadNulls.put(pr.joinId() + ":" + c, isNull);
            k.loadedPayload.put(pr.joinId() + ":" + c, new CValue(pt == CType.BOOL ? "(" + v + " != 0)" : v, pt,
                    t.payloadDicts().get(c), isNull));
        }
        for (int c : nullTested) {
            k.payloadNulls.put(pr.joinId() + ":" + c, payloadNull(t, c, left));
        }
        if (t.nullFlags()) {
            k.paddedJoins.add(pr.joinId());
        }
        String kv = JoinKeys.expr(k, pr.keys());
        boolean narrowSlots = narrowSlots(t);
        String find = table.find(t, j, kv, narrowSlots, sharedBits, predicated);
        if (keyNull != null) {
            find = "((" + keyNull + ") ? -1 : " + find + ")";
        }
        if (t.sorted()) {
            // a sorted table's find reads each row's range, searched here where the whole block runs
            SortedJoinTable.bounds(k, pr, t, kv, t.chained() && !again && pr.kind() == JoinKind.INNER, in);
        }
        // gather=late: a perfect table's payload waits for the rows that the later probes and filters keep (not in
        // the row sinks, whose passes split the payload between them)
        boolean defer = !again && k.rows == null && t.perfect() && !t.chained() && pr.residual() == null
                && pr.kind() == JoinKind.INNER && !payloads.isEmpty()
                && k.g.has(CudaVariantSpace.GATHER) && k.g.get(CudaVariantSpace.GATHER).equals("late");
        if (defer) {
            k.deferredGathers.put(pr.joinId(), new PayloadGathers.Deferred(t, List.copyOf(payloads), kv, narrowSlots));
        }
        List<Integer> bothPasses = new ArrayList<>(payloads);
        bothPasses.removeAll(secondPassOnly);
        String residual = pr.residual() == null || again ? null : k.gen.condition(pr.residual());
        if (left) {
            leftProbe(k, find, narrowSlots, payloads, !nullTested.isEmpty(), t, in);
            k.paddedJoins.add(pr.joinId());
        } else if (t.chained() && !again && pr.kind() == JoinKind.INNER && t.sorted()) {
            SortedJoinTable.fanOut(k, pr, t, payloads, residual, in);
        } else if (t.chained() && !again && pr.kind() == JoinKind.INNER) {
            ChainedRows.fanOut(k, pr, t, find, narrowSlots, payloads, residual, in);
        } else if (t.chained() && pr.kind() == JoinKind.MARK) {
            ChainedRows.markAll(k, pr, find, narrowSlots, residualPayloads, residual, in);
        } else if (pr.kind() == JoinKind.MARK) {
            markAtSlot(k, pr, find, narrowSlots, residualPayloads, residual, t, in);
        } else if (predicated) {
            predicatedProbe(k, pr, find, narrowSlots, defer ? List.of() : bothPasses, defer ? List.of() : secondPassOnly, t, in);
        } else {
            branchedProbe(k, pr, find, narrowSlots, again, defer, payloads, bothPasses, secondPassOnly, t, in);
            if (residual != null) {
                residualFilter(k, pr, residual, in);
            }
        }
        k.narrowed = true;
        if (!again) {
            k.model.table(tableBytes(t, pr, payloads));
            k.model.narrow(KernelBuilder.keeps(pr, t));
        }
    }

    /**
     * Whether a probe of table t computes its slot in 32 bits: a perfect table over 32-bit keys (whose range, from
     * 32-bit statistics, lies within the int range).
     */
    static boolean narrowSlots(JoinLayout t) {
        return t.perfect() && t.keyType() == CType.INT && KernelBuilder.intRange(t.min(), t.perfectSlots());
    }

    /**
     * ppred=predicated: a perfect table's probe (pass 0) runs for every row of the tile, its bitmap word read only for
     * the selected ones, without a branch; the payload of the rows found is fetched with predicated loads. Under
     * ppred=estimate, the pipeline's probes are predicated when {@link CudaPipelineEmitter} found enough rows reach
     * them.
     */
    private static boolean predicated(KernelBuilder k, JoinLayout t, boolean again) {
        return t.perfect() && !again && k.predicatedProbes;
    }

    private static void predicatedProbe(KernelBuilder k, Operation.Probe pr, String find, boolean narrowSlots,
                                        List<Integer> bothPasses, List<Integer> secondPassOnly, JoinLayout t, String in) {
        StringBuilder body = k.body;
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";  // -1 for a row not selected\n");
        body.append(in).append(pr.kind() == JoinKind.ANTI ? "    flags[i] = flags[i] && slot < 0;\n" : "    flags[i] = slot >= 0;\n");
        if (!bothPasses.isEmpty() || !secondPassOnly.isEmpty()) {
            body.append(in).append("    if (flags[i]) {\n");
            passGathers(k, t, bothPasses, secondPassOnly, in + "        ");
            body.append(in).append("    }\n");
        }
        body.append(in).append("}\n");
    }

    /** A probe under a branch per row: rows no longer selected skip it (the whole warp, when none of its rows is). */
    private static void branchedProbe(KernelBuilder k, Operation.Probe pr, String find, boolean narrowSlots, boolean again,
                                      boolean defer, List<Integer> payloads, List<Integer> bothPasses,
                                      List<Integer> secondPassOnly, JoinLayout t, String in) {
        StringBuilder body = k.body;
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";\n");
        if (again) {
            body.append(in).append("        if (slot >= 0) {\n");
            PayloadGathers.gather(k, t, payloads, in + "            ");
            body.append(in).append("        }\n");
        } else {
            switch (pr.kind()) {
                case SEMI -> body.append(in).append("        flags[i] = slot >= 0;\n");
                case ANTI -> body.append(in).append("        flags[i] = slot < 0;\n");
                default -> {
                    if ((payloads.isEmpty() || defer) && !pr.marks()) {
                        body.append(in).append("        if (slot < 0) flags[i] = 0;\n");
                    } else {
                        body.append(in).append("        if (slot < 0) {\n");
                        body.append(in).append("            flags[i] = 0;\n");
                        body.append(in).append("        } else {\n");
                        if (pr.marks()) {
                            body.append(in).append("            ").append(MarkOps.mark(k, pr)).append('\n');
                        }
                        if (!defer) {
                            passGathers(k, t, bothPasses, secondPassOnly, in + "            ");
                        }
                        body.append(in).append("        }\n");
                    }
                }
            }
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    /**
     * A LEFT probe of a table of one row per key: every row stays; {@code j<id>_hit[i]} says whether its key was
     * found, and the payload of a row without a match is NULL, its register zero ({@link DeviceNulls}). Rows no
     * longer selected get no match either, so that no register is left unset. The same in both passes of a row sink.
     * {@code tested}: a later IS [NOT] NULL reads the hit flag of a column whose value is not fetched.
     */
    private static void leftProbe(KernelBuilder k, String find, boolean narrowSlots, List<Integer> payloads,
                                  boolean tested, JoinLayout t, String in) {
        StringBuilder body = k.body;
        String j = "j" + t.joinId();
        if (payloads.isEmpty() && !tested) {
            body.append(in).append("// every row stays, and nothing in this pass reads the payload\n");
            return;
        }
        body.append(in).append("bool ").append(j).append("_hit[IPT];\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    ").append(j).append("_hit[i] = false;\n");
        for (int c : payloads) {
            body.append(in).append("    ").append(j).append("_p").append(c).append("[i] = 0;\n");
        }
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";\n");
        body.append(in).append("        if (slot >= 0) {\n");
        body.append(in).append("            ").append(j).append("_hit[i] = true;\n");
        PayloadGathers.gather(k, t, payloads, in + "            ");
        body.append(in).append("        }\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    /** The payload columns of the probed table that {@code slots} hold, in order. */
    private static List<Integer> columns(Operation.Probe pr, List<Slot> slots) {
        List<Integer> out = new ArrayList<>();
        for (Slot s : slots) {
            if (s.joinId() == pr.joinId() && !out.contains(s.index())) {
                out.add(s.index());
            }
        }
        return out;
    }

    /**
     * The NULL condition of payload column c for item i: a left join's row without a match, or the column's NULL
     * flag; null where it is never NULL.
     */
    private static String payloadNull(JoinLayout t, int c, boolean left) {
        String j = "j" + t.joinId();
        return DeviceNulls.or(left ? "(!" + j + "_hit[i])" : null,
                t.nullFlags() ? "(" + j + "_p" + t.nullFlag(c) + "[i] != 0)" : null);
    }

    /** Adds to payload columns {@code columns} of table t their NULL flag columns. */
    private static void withNullFlags(JoinLayout t, List<Integer> columns) {
        for (int c : List.copyOf(columns)) {
            columns.add(t.nullFlag(c));
        }
    }

    /** The payload columns of the probed table that the probe's condition besides the keys reads (none in pass 1). */
    private static List<Integer> residualPayloads(Operation.Probe pr, boolean again) {
        List<Integer> out = new ArrayList<>();
        if (pr.residual() == null || again) {
            return out;
        }
        List<Slot> slots = new ArrayList<>();
        Expr.slots(pr.residual(), slots);
        for (Slot s : slots) {
            if (!s.isSource() && s.joinId() == pr.joinId() && !out.contains(s.index())) {
                out.add(s.index());
            }
        }
        return out;
    }

    /** A MARK probe of a table of one row per key: the slot found marked, where the condition holds for its row. */
    private static void markAtSlot(KernelBuilder k, Operation.Probe pr, String find, boolean narrowSlots,
                                   List<Integer> residualPayloads, String residual, JoinLayout t, String in) {
        StringBuilder body = k.body;
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";\n");
        if (residual == null) {
            body.append(in).append("        if (slot >= 0) ").append(MarkOps.mark(k, pr)).append('\n');
        } else {
            body.append(in).append("        if (slot >= 0) {\n");
            PayloadGathers.gather(k, t, residualPayloads, in + "            ");
            body.append(in).append("            if (").append(residual).append(") ").append(MarkOps.mark(k, pr)).append('\n');
            body.append(in).append("        }\n");
        }
        body.append(in).append("        flags[i] = 0;  // the row only marks\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    /** An INNER probe's condition besides the keys, over each row and the payload of its match. */
    private static void residualFilter(KernelBuilder k, Operation.Probe pr, String residual, String in) {
        StringBuilder body = k.body;
        body.append(in).append("// PROBE j").append(pr.joinId()).append(": the condition besides the keys, ")
                .append(KernelBuilder.comment(k.codeNames.expr(pr.residual()))).append('\n');
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) flags[i] = ").append(residual).append(";\n");
        body.append(in).append("}\n");
    }

    /** Fetches the payload both passes read, then, under mat=twopass, what only the outputs of pass 1 read. */
    private static void passGathers(KernelBuilder k, JoinLayout t, List<Integer> bothPasses, List<Integer> secondPassOnly,
                                    String in) {
        PayloadGathers.gather(k, t, bothPasses, in);
        if (!secondPassOnly.isEmpty()) {
            k.body.append(in).append("if (pass == 1) {  // only the outputs read these\n");
            PayloadGathers.gather(k, t, secondPassOnly, in + "    ");
            k.body.append(in).append("}\n");
        }
    }

    /**
     * The bytes of a join table that probes read: a perfect table's bitmap and the payload arrays fetched; a hashed
     * table's keys and those payloads at half load, from the build's estimated rows.
     */
    private static double tableBytes(JoinLayout t, Operation.Probe pr, List<Integer> payloads) {
        double entry = 0;
        for (int c : payloads) {
            entry += t.payloadBytes(c);
        }
        if (t.perfect()) {
            return t.perfectSlots() / 8.0 + t.perfectSlots() * entry;
        }
        return 2 * pr.build().estimatedRows() * t.selectivity() * (t.keyType().bytes + entry);
    }
}
