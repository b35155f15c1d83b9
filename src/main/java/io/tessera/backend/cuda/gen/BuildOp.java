package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.KeyRange;
import io.tessera.plan.Sink;
import io.tessera.variant.CudaVariantSpace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * BUILD: the selected rows' keys into the device table of one join, their payload into one array per column, laid
 * out as the genome's {@code ht}, {@code hash} and {@code pay} say ({@link JoinLayout}); the table kind's {@link
 * JoinTable} writes the insert.
 */
final class BuildOp {

    private BuildOp() {
    }

    static void emit(KernelBuilder k, Sink.Build b) {
        String in = KernelBuilder.IN;
        String unsupported = CudaCapabilities.buildReason(b, k.g);
        if (unsupported != null) {
            throw new IllegalStateException("BUILD j" + b.joinId() + ": " + unsupported + ", which the capability check excludes");
        }
        CType kt = JoinKeys.type(b.keys());
        JoinLayout.Kind kind = JoinLayout.Kind.of(k.g.get(CudaVariantSpace.HASH_TABLE));
        JoinTable table = JoinTable.of(kind);
        boolean perfect = kind == JoinLayout.Kind.PERFECT;
        boolean murmur = "murmur".equals(k.g.get(CudaVariantSpace.HASH));
        KeyRange r = b.range();
        List<CType> payloadTypes = new ArrayList<>();
        List<String> payloadDicts = new ArrayList<>();
        List<KeyRange> payloadRanges = new ArrayList<>();
        boolean narrow = k.g.has(CudaVariantSpace.PAYLOAD) && "narrow".equals(k.g.get(CudaVariantSpace.PAYLOAD));
        // a payload that can be NULL (a table's column holding NULLs, the one row of a scalar subquery over no rows):
        // a NULL flag beside each payload column, which are stored as their types
        boolean nullFlags = b.payload().stream().anyMatch(k::mayBeNull);
        for (Expr e : b.payload()) {
            payloadRanges.add(narrow && !nullFlags ? CudaVariantSpace.narrowPayloadRange(e) : null);
            payloadTypes.add(CType.stored(e.type()));
            payloadDicts.add(e instanceof Expr.Ref ref ? ref.slot().dictionaryKey() : null);
        }
        for (int c = 0; nullFlags && c < b.payload().size(); c++) {
            payloadRanges.add(null);
            payloadTypes.add(CType.BOOL);
            payloadDicts.add(null);
        }
        JoinLayout layout = new JoinLayout(b.joinId(), kind, murmur, kt, payloadTypes, payloadDicts, payloadRanges,
                perfect ? r.min() : 0, perfect ? r.size() : 0, k.model.selected(), ChainedRows.chains(b), nullFlags);
        k.model.written(kt.bytes);
        for (int c = 0; c < payloadTypes.size(); c++) {
            k.model.written(layout.payloadBytes(c));
        }
        // rounds of a probe into a chained table are open: a row of the input may be several of the table's (a
        // sorted table's rows always take places from a counter, its keys repeating or not)
        boolean expanded = (layout.chained() || layout.sorted()) && !k.roundStarts.isEmpty();
        k.sink = new SinkLayout.Build(layout, expanded);
        k.body.append(in).append(String.format(Locale.ROOT, "// estimated to hold %.4f of the table's rows%n",
                layout.selectivity()));
        k.body.append(in).append("// BUILD j").append(b.joinId()).append(" keys ").append(KernelBuilder.comment(k.codeNames.exprs(b.keys())))
                .append(" payload ").append(KernelBuilder.comment(k.codeNames.exprs(b.payload()))).append(" (").append(layout.describe())
                .append(JoinKeys.packed(b.keys()) ? ", the two keys packed into one" : "").append(")\n");
        k.load(b.keys(), in);
        String keyNull = JoinKeys.nullCondition(k, b.keys());
        if (keyNull != null) {
            JoinKeys.dropNullKeys(k, keyNull, in); // the table keeps no NULL key (keepsNullKeys builds stay on the JVM)
        }
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_KEYS, b.joinId(), "build_" + table.keyArray(),
                table.keyElement(kt) + "* __restrict__"));
        for (int c = 0; c < payloadTypes.size(); c++) {
            k.params.add(new KernelParam(KernelParam.Kind.BUILD_PAYLOAD, b.joinId(), c, "build_pay" + c,
                    layout.payloadMemory(c) + "* __restrict__"));
        }
        table.buildSizeParams(k, b.joinId());
        if (layout.chained() && !layout.sorted()) {
            ChainedRows.buildParams(k, b.joinId(), expanded);
        }
        table.build(k, b, layout, in);
    }

    /**
     * A build of one launch (perfect and linear tables): per selected row its key, the table's {@code slot} lines
     * (which set {@code slot} to the row's slot, or -1), then its payload at that slot.
     */
    static void onePass(KernelBuilder k, Sink.Build b, JoinLayout t, String in, String slot) {
        StringBuilder body = k.body;
        k.load(b.payload(), in);
        if (expanded(k)) {
            ChainedRows.reservePlaces(k, in);
        }
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(t.keyType().c).append(" key = ").append(JoinKeys.expr(k, b.keys()))
                .append(";\n");
        body.append(slot);
        if (!t.payloadTypes().isEmpty()) {
            body.append(in).append("        if (slot >= 0) {\n");
            placeRow(k, b, t, in + "            ");
            body.append(in).append("        }\n");
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    /**
     * The row of a key found at {@code slot}: its payload at the slot, or in a chained table ({@link ChainedRows})
     * the row put at the head of its key's chain and its payload at its place.
     */
    static void placeRow(KernelBuilder k, Sink.Build b, JoinLayout t, String in) {
        if (!t.chained()) {
            payload(k, b, t, in, "slot");
        } else if (!expanded(k)) {
            ChainedRows.push(k, in);
            payload(k, b, t, in, "row");
        } else {
            ChainedRows.pushPlaced(k, in);
            payload(k, b, t, in + "    ", "row");
            ChainedRows.closePlaced(k, in);
        }
    }

    /**
     * Whether the kernel's BUILD is {@link SinkLayout.Build#expanded}: its rows take places from a counter, which
     * {@link ChainedRows#reservePlaces} reserves before the loop over the items that calls {@link #placeRow}.
     */
    static boolean expanded(KernelBuilder k) {
        return k.sink instanceof SinkLayout.Build sb && sb.expanded();
    }

    /**
     * Writes each payload column of the row at index {@code at} (its slot, or its row in a chained table); under
     * pay=narrow as its offset from the range's minimum.
     */
    static void payload(KernelBuilder k, Sink.Build b, JoinLayout t, String in, String at) {
        StringBuilder body = k.body;
        for (int c = 0; c < b.payload().size(); c++) {
            CValue v = t.nullFlags() ? k.gen.gen(b.payload().get(c)) : k.stored(b.payload().get(c));
            if (t.nullFlags()) {
                body.append(in).append("build_pay").append(t.nullFlag(c)).append('[').append(at).append("] = ")
                        .append(v.isNull() == null ? "false" : v.isNull()).append(";  // whether ")
                        .append(KernelBuilder.comment(k.codeNames.expr(b.payload().get(c)))).append(" is NULL\n");
            }
            KeyRange r = t.payloadRanges().get(c);
            if (r == null) {
                body.append(in).append("build_pay").append(c).append('[').append(at).append("] = ").append(v.v()).append(";\n");
                continue;
            }
            // pay=narrow: the offset from the statistics' minimum; a value outside their range fails the pipeline
            String u = t.payloadTypes().get(c) == CType.INT ? "unsigned int" : "unsigned long long";
            body.append(in).append("{\n");
            body.append(in).append("    const ").append(u).append(" off = (").append(u).append(')').append(v.v())
                    .append(" - (").append(u).append(')').append(CudaExprGen.longLiteral(r.min())).append(";\n");
            body.append(in).append("    if (off < ").append(r.size()).append("u) {\n");
            body.append(in).append("        build_pay").append(c).append('[').append(at).append("] = (").append(t.payloadMemory(c))
                    .append(")off;\n");
            body.append(in).append("    } else {\n");
            body.append(in).append("        err |= TESSERA_ERR_TABLE_FULL;  // a payload value outside the range the statistics gave\n");
            body.append(in).append("    }\n");
            body.append(in).append("}\n");
        }
    }
}
