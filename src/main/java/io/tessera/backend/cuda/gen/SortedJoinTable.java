package io.tessera.backend.cuda.gen;

import io.tessera.backend.cuda.ops.SearchIndex;
import io.tessera.plan.Operation;
import io.tessera.plan.Sink;

import java.util.List;

/**
 * A sorted join table (ht=sorted-binary, ht=sorted-pary): the BUILD writes each selected row's key, as a word that
 * orders as an unsigned number, and its payload at a place a counter hands out; the executor then sorts the words
 * on the device (the radix sort of ORDER BY), keeping each one's place ({@link KernelParam.Kind#PROBE_ORDER}), and
 * for sorted-pary lays the index of cache lines over them ({@link SearchIndex}). A probe finds each row's key as the
 * range {@code [lo, hi)} of sorted places that hold it: by one thread's binary search, or by the p-ary search of
 * {@link SearchIndex#DEFAULT_LANES} lanes a lookup over the index, which every lane of a warp runs together
 * (tessera_search.cuh, JoinBinaryBounds and JoinIndexBounds). The match's payload is read at the place the sorted
 * key came from. Keys that repeat are a range: an inner probe takes its matches one per round, as a chained
 * table's ({@link #fanOut}); a semi, anti or left probe (keys unique) asks only whether the range is empty.
 */
final class SortedJoinTable implements JoinTable {

    private final JoinLayout.Kind kind;

    SortedJoinTable(JoinLayout.Kind kind) {
        this.kind = kind;
    }

    private boolean pary() {
        return kind == JoinLayout.Kind.SORTED_PARY;
    }

    @Override
    public String keyElement(CType kt) {
        return "unsigned long long";
    }

    @Override
    public void probeSizeParams(KernelBuilder k, int joinId, String j) {
        k.usesSearch = true;
        k.param(new KernelParam(KernelParam.Kind.PROBE_ORDER, joinId, j + "_order", "const long long* __restrict__"));
        k.param(new KernelParam(KernelParam.Kind.PROBE_ROWS, joinId, j + "_rows", "const long long"));
        if (pary()) {
            k.param(new KernelParam(KernelParam.Kind.PROBE_INDEX, joinId, j + "_index",
                    "const unsigned long long* __restrict__"));
            k.param(new KernelParam(KernelParam.Kind.PROBE_LEVELS, joinId, j + "_levels", "const int"));
        }
    }

    @Override
    public void buildSizeParams(KernelBuilder k, int joinId) {
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_CURSOR, joinId, "build_cursor",
                "unsigned long long* __restrict__"));
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_ROWS, joinId, "build_rows", "const long long"));
    }

    /** The place of item i's match, -1 when its range is empty; {@link #bounds} computed the range before. */
    @Override
    public String find(JoinLayout t, String j, String key, boolean narrowSlots, boolean sharedBits, boolean predicated) {
        return "(" + j + "_lo[i] < " + j + "_hi[i] ? " + j + "_order[" + j + "_lo[i]] : -1ll)";
    }

    /**
     * Each selected row takes a place from the counter (the block's rows of a round consecutive, one atomic per
     * block), and writes its key word and its payload there; a row past the places the table has raises the
     * table-full error, and the executor builds it again with as many places as the counter reached.
     */
    @Override
    public void build(KernelBuilder k, Sink.Build b, JoinLayout t, String in) {
        StringBuilder body = k.body;
        k.usesSearch = true; // its key words: tessera::search::KeyWord
        k.load(b.payload(), in);
        ChainedRows.reservePlaces(k, in);
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        String r = in + "        ";
        body.append(r).append("const ").append(t.keyType().c).append(" key = ").append(JoinKeys.expr(k, b.keys()))
                .append(";\n");
        body.append(r).append("const long long row = (long long)(build_first + (unsigned long long)build_offsets[i]);  "
                + "// its place\n");
        body.append(r).append("if (row < build_rows) {\n");
        body.append(r).append("    build_keys[row] = tessera::search::KeyWord((long long)key);  // sorted after the kernel\n");
        BuildOp.payload(k, b, t, r + "    ", "row");
        body.append(r).append("} else {\n");
        body.append(r).append("    err |= TESSERA_ERR_TABLE_FULL;  // more rows than places: built again with as many "
                + "as the counter reached\n");
        body.append(r).append("}\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }

    /**
     * Each item's range of equal keys in the sorted table, {@code j<id>_lo[i]} and {@code j<id>_hi[i]}: empty for an
     * item not selected. {@code upper}: the whole range (an inner probe of keys that may repeat), else at most one
     * place. Emitted where every thread of the block runs (the p-ary search needs the whole warp), outside any branch
     * on the item's flag.
     */
    static void bounds(KernelBuilder k, Operation.Probe pr, JoinLayout t, String key, boolean upper, String in) {
        String j = "j" + pr.joinId();
        boolean pary = t.kind() == JoinLayout.Kind.SORTED_PARY;
        StringBuilder body = k.body;
        body.append(in).append("// each row's key as a range [lo, hi) of the sorted keys, by ")
                .append(pary ? "p-ary search over the index of lines, " + SearchIndex.DEFAULT_LANES
                        + " lanes a lookup, the warp's lookups in turn" : "binary search, a thread a lookup").append('\n');
        body.append(in).append("long long ").append(j).append("_lo[IPT];\n");
        body.append(in).append("long long ").append(j).append("_hi[IPT];\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    const unsigned long long q = flags[i] ? tessera::search::KeyWord((long long)(")
                .append(key).append(")) : 0ull;\n");
        if (pary) {
            body.append(in).append("    tessera::search::JoinIndexBounds<").append(SearchIndex.DEFAULT_LANES).append(">(")
                    .append(j).append("_keys, ").append(j).append("_rows, ").append(j).append("_index, ").append(j)
                    .append("_levels, q, flags[i] != 0, ").append(upper).append(", ").append(j).append("_lo[i], ")
                    .append(j).append("_hi[i]);\n");
        } else {
            body.append(in).append("    tessera::search::JoinBinaryBounds(").append(j).append("_keys, ").append(j)
                    .append("_rows, q, flags[i] != 0, ").append(upper).append(", ").append(j).append("_lo[i], ")
                    .append(j).append("_hi[i]);\n");
        }
        body.append(in).append("}\n");
    }

    /**
     * An INNER probe of keys that may repeat: each row's matches, the places {@code [lo, hi)} of the sorted keys,
     * one per round, the rest of the pipeline inside the loop of rounds (as {@link ChainedRows#fanOut}, which
     * {@link ChainedRows#closeRounds} closes): a block-wide vote ends it when no row of the block has a match left,
     * and it runs as many rounds as the table has keys at most.
     */
    static void fanOut(KernelBuilder k, Operation.Probe pr, JoinLayout t, List<Integer> payloads, String residual,
                       String in) {
        String j = "j" + pr.joinId();
        StringBuilder body = k.body;
        body.append(in).append("long long ").append(j).append("_at[IPT];  // each row's next match in key order, -1 when none\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    ").append(j).append("_at[i] = flags[i] && ").append(j).append("_lo[i] < ").append(j)
                .append("_hi[i] ? ").append(j).append("_lo[i] : -1;\n");
        body.append(in).append("}\n");
        String r = ChainedRows.openRounds(k, j, "_at", "a range holds " + j + "_rows keys at most", in);
        body.append(r).append("        const long long row = ").append(j).append("_order[").append(j).append("_at[i]];  "
                + "// the match's place\n");
        PayloadGathers.gather(k, t, payloads, r + "        ", "row");
        body.append(r).append("        ").append(j).append("_at[i] = ").append(j).append("_at[i] + 1 < ").append(j)
                .append("_hi[i] ? ").append(j).append("_at[i] + 1 : -1;\n");
        if (residual != null) {
            body.append(r).append("        flags[i] = ").append(residual).append(";  // the condition besides the keys\n");
        }
        body.append(r).append("    }\n");
        body.append(r).append("}\n");
        k.roundStarts.push(body.length());
    }
}
