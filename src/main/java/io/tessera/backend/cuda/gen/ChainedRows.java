package io.tessera.backend.cuda.gen;

import io.tessera.plan.Operation;
import io.tessera.plan.Sink;

import java.util.List;

/**
 * A join table whose build keys may repeat: the table of the genome's kind places each distinct key in one slot,
 * as it does for unique keys, and keeps rows beside it. A row's place is its number in the build's input (the table
 * holds as many rows as that input has, so it never runs out of rows), or, where the building pipeline probes a
 * chained table first and so may make several rows of one ({@link SinkLayout.Build#expanded}), the place a counter
 * hands out: a table given fewer places than the counter reached reports itself full, and the executor builds it
 * again with that many ({@link #reservePlaces}). {@code heads[slot]} is the last row inserted
 * with the slot's key, {@code next[row]} the one inserted before it, -1 ending the chain, and -2 marks a place whose
 * row the table did not take ({@code TESSERA_NOT_CHAINED}). An insert swaps itself in as the head with one atomic
 * exchange, so a chain only ever points at rows inserted before: it has no cycle and at most the table's rows.
 *
 * <p>A probe takes every row's matches one per round: the rest of the pipeline (its later operations and its sink)
 * runs once per round for the rows that still have a match, their payload fetched from the round's row, until no
 * row of the block has one (a block-wide vote, so that every thread of the block runs the same rounds) or as many
 * rounds as the table has rows. A marking probe walks the chain, at most as many rows, marking each.
 */
final class ChainedRows {

    private ChainedRows() {
    }

    /** Whether a BUILD keeps chained rows: its keys may repeat and it carries payload. */
    static boolean chains(Sink.Build b) {
        return !b.uniqueKeys() && !b.payload().isEmpty();
    }

    static void buildParams(KernelBuilder k, int joinId, boolean expanded) {
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_HEADS, joinId, "build_heads", "long long* __restrict__"));
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_NEXT, joinId, "build_next", "long long* __restrict__"));
        if (expanded) {
            k.params.add(new KernelParam(KernelParam.Kind.BUILD_CURSOR, joinId, "build_cursor",
                    "unsigned long long* __restrict__"));
            k.params.add(new KernelParam(KernelParam.Kind.BUILD_ROWS, joinId, "build_rows", "const long long"));
        }
    }

    /**
     * An expanded BUILD's places for the selected items of the round ({@link SinkLayout.Build#expanded}): a block
     * scan numbers them, one atomic on the counter reserves as many consecutive places for the block. Every thread
     * of the block runs it (the rounds are the same in all of them); the counter ends as the rows made.
     */
    static void reservePlaces(KernelBuilder k, String in) {
        StringBuilder body = k.body;
        body.append(in).append("// each selected row takes a place from the counter, the block's rows of the round consecutive\n");
        body.append(in).append("int build_offsets[IPT];\n");
        body.append(in).append("int build_selected;\n");
        body.append(in).append("BlockScanFlags<TPB, IPT>(flags, build_offsets, build_selected);\n");
        body.append(in).append("const unsigned long long build_first = BlockReserve<TPB>(build_cursor, build_selected);\n");
    }

    /**
     * An expanded BUILD's lines for item i, whose key is at {@code slot}: the row at the place reserved for it
     * becomes the head of its key's chain when the table has that place; the lines that write its payload follow,
     * then {@link #closePlaced}.
     */
    static void pushPlaced(KernelBuilder k, String in) {
        k.body.append(in).append("const long long row = (long long)(build_first + (unsigned long long)build_offsets[i]);  "
                + "// its place\n");
        k.body.append(in).append("if (row < build_rows) {\n");
        k.body.append(in).append("    build_next[row] = (long long)atomicExch((unsigned long long*)&build_heads[slot], "
                + "(unsigned long long)row);\n");
    }

    static void closePlaced(KernelBuilder k, String in) {
        k.body.append(in).append("} else {\n");
        k.body.append(in).append("    err |= TESSERA_ERR_TABLE_FULL;  // more rows than places: built again with as many "
                + "as the counter reached\n");
        k.body.append(in).append("}\n");
    }

    /** A BUILD's lines for item i, whose key is at {@code slot}: the row becomes the head of its key's chain. */
    static void push(KernelBuilder k, String in) {
        k.body.append(in).append("const long long row = base + TileRow<TPB, IPT>(i, tile_size);  // its place: its number in the input\n");
        k.body.append(in).append("build_next[row] = (long long)atomicExch((unsigned long long*)&build_heads[slot], "
                + "(unsigned long long)row);\n");
    }

    private static void probeParams(KernelBuilder k, Operation.Probe pr) {
        String j = "j" + pr.joinId();
        k.param(new KernelParam(KernelParam.Kind.PROBE_HEADS, pr.joinId(), j + "_heads", "const long long* __restrict__"));
        k.param(new KernelParam(KernelParam.Kind.PROBE_NEXT, pr.joinId(), j + "_next", "const long long* __restrict__"));
        k.param(new KernelParam(KernelParam.Kind.PROBE_ROWS, pr.joinId(), j + "_rows", "const long long"));
    }

    /** A MARK probe: every row of the key's chain marked. */
    static void markAll(KernelBuilder k, Operation.Probe pr, String find, boolean narrowSlots,
                        List<Integer> residualPayloads, String residual, String in) {
        probeParams(k, pr);
        String j = "j" + pr.joinId();
        StringBuilder body = k.body;
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";\n");
        body.append(in).append("        long long row = slot >= 0 ? ").append(j).append("_heads[slot] : -1;\n");
        body.append(in).append("        for (long long step = 0; row >= 0 && step < ").append(j).append("_rows; ++step) {\n");
        if (residual == null) {
            body.append(in).append("            ").append(MarkOps.mark(k, pr, "row")).append('\n');
        } else {
            // the condition besides the keys, over the row and each match's payload
            PayloadGathers.gather(k, k.ctx.join(pr.joinId()), residualPayloads, in + "            ", "row");
            body.append(in).append("            if (").append(residual).append(") ").append(MarkOps.mark(k, pr, "row")).append('\n');
        }
        body.append(in).append("            row = ").append(j).append("_next[row];\n");
        body.append(in).append("        }\n");
        body.append(in).append("        flags[i] = 0;  // the row only marks\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    /**
     * An INNER probe (marking or not): each row's first match found, then the loop of rounds opened; the rest of
     * the pipeline goes inside it, and {@link #closeRounds} closes it after the sink.
     */
    static void fanOut(KernelBuilder k, Operation.Probe pr, JoinLayout t, String find, boolean narrowSlots,
                       List<Integer> payloads, String residual, String in) {
        probeParams(k, pr);
        String j = "j" + pr.joinId();
        StringBuilder body = k.body;
        body.append(in).append("long long ").append(j).append("_row[IPT];  // each row's next match, -1 when none\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    ").append(j).append("_row[i] = -1;\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const ").append(narrowSlots ? "int" : "long long").append(" slot = ").append(find).append(";\n");
        body.append(in).append("        if (slot >= 0) ").append(j).append("_row[i] = ").append(j).append("_heads[slot];\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        String r = openRounds(k, j, "_row", "a chain holds " + j + "_rows rows at most", in);
        body.append(r).append("        const long long row = ").append(j).append("_row[i];\n");
        if (pr.marks()) {
            body.append(r).append("        ").append(MarkOps.mark(k, pr, "row")).append('\n');
        }
        PayloadGathers.gather(k, t, payloads, r + "        ", "row");
        body.append(r).append("        ").append(j).append("_row[i] = ").append(j).append("_next[row];\n");
        if (residual != null) {
            body.append(r).append("        flags[i] = ").append(residual).append(";  // the condition besides the keys\n");
        }
        body.append(r).append("    }\n");
        body.append(r).append("}\n");
        k.roundStarts.push(body.length());
    }

    /**
     * Opens the loop of rounds in which every row takes one match (its next one in {@code j + cursor}, -1 when it
     * has none left), the block leaving it when no row has one; {@code bound} says why {@code j_rows} rounds suffice.
     * Ends inside {@code if (flags[i])} of the per-item loop and returns that loop's indent.
     */
    static String openRounds(KernelBuilder k, String j, String cursor, String bound, String in) {
        StringBuilder body = k.body;
        body.append(in).append("// one match of every row per round, the rest of the pipeline inside; ").append(bound)
                .append('\n');
        body.append(in).append("for (long long ").append(j).append("_round = 0; ").append(j).append("_round < ").append(j)
                .append("_rows; ++").append(j).append("_round) {\n");
        String r = in + "    ";
        body.append(r).append("int ").append(j).append("_any = 0;\n");
        body.append(r).append("#pragma unroll\n");
        body.append(r).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(r).append("    flags[i] = ").append(j).append(cursor).append("[i] >= 0;\n");
        body.append(r).append("    ").append(j).append("_any |= flags[i];\n");
        body.append(r).append("}\n");
        body.append(r).append("if (!__syncthreads_or(").append(j).append("_any)) break;  // the same in every thread of the block\n");
        body.append(r).append("#pragma unroll\n");
        body.append(r).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(r).append("    if (flags[i]) {\n");
        return r;
    }

    /** Closes the loops of rounds the pipeline's probes opened, the code inside each moved one level deeper. */
    static void closeRounds(KernelBuilder k) {
        while (!k.roundStarts.isEmpty()) {
            int start = k.roundStarts.pop();
            String inner = k.body.substring(start);
            k.body.setLength(start);
            for (String line : inner.split("\n", -1)) {
                if (!line.isEmpty()) {
                    k.body.append("    ").append(line).append('\n');
                }
            }
            k.body.append(KernelBuilder.IN).append("}\n");
        }
    }
}
