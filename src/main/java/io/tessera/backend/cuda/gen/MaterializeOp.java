package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.Slot;

import java.util.ArrayList;
import java.util.List;

/**
 * MATERIALIZE / SORT: the selected rows' outputs into one device array per column, placed as the genome's {@code mat}
 * says ({@link RowPlacement}); an output that can be NULL ({@link DeviceNulls}) also into an array of NULL flags,
 * one byte per row.
 */
final class MaterializeOp {

    final KernelBuilder k;

    private MaterializeOp(KernelBuilder k) {
        this.k = k;
    }

    static void emit(KernelBuilder k, List<Expr> outputs) {
        new MaterializeOp(k).rows(outputs);
    }

    private void rows(List<Expr> outputs) {
        String in = KernelBuilder.IN;
        RowPlacement placement = k.rows;
        k.body.append(in).append("// MATERIALIZE ").append(KernelBuilder.comment(k.codeNames.exprs(outputs))).append(" (").append(placement.what)
                .append(")\n");
        List<CType> types = new ArrayList<>();
        if (placement == RowPlacement.TILE_ATOMIC) {
            for (Expr e : outputs) {
                k.load(e, in);
            }
        }
        for (int c = 0; c < outputs.size(); c++) {
            CType t = CType.stored(outputs.get(c).type());
            types.add(t);
            k.model.written(t.bytes);
            k.params.add(new KernelParam(KernelParam.Kind.OUT_COLUMN, c, "out" + c, t.memory() + "* __restrict__"));
            if (k.mayBeNull(outputs.get(c))) {
                k.model.written(1);
                k.params.add(new KernelParam(KernelParam.Kind.OUT_NULLS, c, "out" + c + "_null",
                        "unsigned char* __restrict__"));
            }
        }
        k.sink = new SinkLayout.Rows(types, placement.value);
        placement.emit(this, outputs, types, in);
    }

    /** The parameters of a kernel of two launches over tiles: the pass, and the rows per tile. */
    void passParams() {
        k.params.add(new KernelParam(KernelParam.Kind.PASS, -1, "pass", "const int"));
        k.params.add(new KernelParam(KernelParam.Kind.TILE_ROWS, -1, "tile_rows", "unsigned long long* __restrict__"));
    }

    /**
     * Pass 0 of a two-pass materialization: the tile's count of selected rows to tile_rows[tile], and with
     * {@code bits} the selection bitmap.
     */
    void countTile(String in, String bits) {
        StringBuilder body = k.body;
        body.append(in).append("// pass 0: the tile's count of selected rows").append(bits == null ? "" : ", and the selection "
                + "as a bitmap: bit i * TPB + t of the tile for item i of thread t, a word per warp and item").append('\n');
        if (bits != null) {
            body.append(in).append("const long long word = base / 32 + threadIdx.x / 32;\n");
        }
        body.append(in).append("int tile_count = 0;\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        if (bits != null) {
            body.append(in).append("    const unsigned int ballot = __ballot_sync(TESSERA_FULL_MASK, flags[i]);\n");
            body.append(in).append("    if ((threadIdx.x & 31) == 0) ").append(bits).append("[word + i * (TPB / 32)] = ballot;\n");
        }
        body.append(in).append("    tile_count += flags[i] ? 1 : 0;\n");
        body.append(in).append("}\n");
        body.append(in).append("tile_count = BlockSum<TPB>(tile_count);  // the block's sum, in thread 0\n");
        body.append(in).append("if (threadIdx.x == 0) tile_rows[base / TILE] = (unsigned long long)tile_count;\n");
    }

    /**
     * mat=bitmap's pass 1, a tile body of its own (pass 0's ends with its count): only the tiles with rows, the
     * selection from the bitmap, the probes again whose payload the outputs read, then the rows.
     */
    void secondPassFromBitmap(List<Expr> outputs, List<CType> types, String in) {
        k.firstPass = k.body;
        k.body = new StringBuilder();
        k.loadedColumns.clear();
        k.loadedPayload.clear();
        k.payloadNulls.clear();
        k.narrowed = true;
        StringBuilder body = k.body;
        body.append(in).append("// pass 1: only the tiles with rows; the selection from the bitmap\n");
        body.append(in).append("const unsigned long long first = tile_rows[base / TILE];\n");
        body.append(in).append("if (tile_rows[base / TILE + 1] == first) return;  // the same for the whole block\n");
        body.append(in).append("const long long word = base / 32 + threadIdx.x / 32;\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    flags[i] = (int)((sel_bits[word + i * (TPB / 32)] >> (threadIdx.x & 31)) & 1u);\n");
        body.append(in).append("}\n");
        // the probes whose payload the outputs read, directly or through the key of another such probe
        // (a probe whose payload the outputs only test for NULL is probed again for its hit flags alone)
        List<Slot> needed = new ArrayList<>();
        List<Slot> values = new ArrayList<>();
        for (Expr e : outputs) {
            Expr.slots(e, needed);
            ValueReads.slots(e, values);
        }
        List<Operation.Probe> again = new ArrayList<>();
        for (int i = k.operations.size() - 1; i >= 0; i--) {
            if (k.operations.get(i) instanceof Operation.Probe pr
                    && (pr.kind() == JoinKind.INNER || pr.kind() == JoinKind.LEFT)
                    && needed.stream().anyMatch(sl -> sl.joinId() == pr.joinId())) {
                again.add(0, pr);
                pr.keys().forEach(e -> Expr.slots(e, needed));
                pr.keys().forEach(e -> ValueReads.slots(e, values));
            }
        }
        k.laterSlots.clear();
        k.laterSlots.addAll(needed);
        k.laterValueSlots.clear();
        k.laterValueSlots.addAll(values);
        for (Operation.Probe pr : again) {
            ProbeOp.emit(k, pr, true);
        }
        body.append(in).append("// MATERIALIZE ").append(KernelBuilder.comment(k.codeNames.exprs(outputs))).append(" (pass 1: the rows)\n");
        writeRows(outputs, types, in, "first");
    }

    /** Loads the outputs' columns, places the selected rows with a block scan from {@code first} on, writes them. */
    void writeRows(List<Expr> outputs, List<CType> types, String in, String first) {
        for (Expr e : outputs) {
            k.load(e, in);
        }
        StringBuilder body = k.body;
        body.append(in).append("int offsets[IPT];\n");
        body.append(in).append("int selected;\n");
        body.append(in).append("BlockScanFlags<TPB, IPT>(flags, offsets, selected);\n");
        if (!first.equals("first")) {
            body.append(in).append("const unsigned long long first = ").append(first).append(";\n");
        }
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const unsigned long long row = first + (unsigned long long)offsets[i];\n");
        for (int c = 0; c < outputs.size(); c++) {
            // a value that can be NULL: its register holds the type's zero where it is, and its flag says so
            CValue v = k.gen.gen(outputs.get(c));
            String val = types.get(c) == CType.BOOL ? "(unsigned char)(" + v.v() + " ? 1 : 0)" : v.v();
            body.append(in).append("        out").append(c).append("[row] = ").append(val).append(";\n");
            if (v.nullable()) {
                body.append(in).append("        out").append(c).append("_null[row] = (unsigned char)(").append(v.isNull())
                        .append(" ? 1 : 0);\n");
            }
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }
}
