package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;

import java.util.List;

/**
 * How MATERIALIZE / SORT places the selected rows in the output (the genome's {@code mat}; Crystal's chapter 3 and
 * Hawk's parallelization strategies). Tile numbers are base / TILE, so a persistent grid (a block looping over tiles)
 * counts per tile too.
 */
enum RowPlacement {
    /**
     * One launch; one atomic per tile reserves the tile's output rows, a block scan gives each row its place. The
     * tiles' order in the output follows the atomics' order, which changes from run to run.
     */
    TILE_ATOMIC(SinkLayout.Rows.TILE_ATOMIC, "tile atomic + block scan") {
        @Override
        void emit(MaterializeOp op, List<Expr> outputs, List<CType> types, String in) {
            op.k.params.add(new KernelParam(KernelParam.Kind.OUT_CURSOR, -1, "out_cursor", "unsigned long long* __restrict__"));
            op.writeRows(outputs, types, in, "BlockReserve<TPB>(out_cursor, selected)");
        }
    },
    /**
     * Pass 0 runs the operations and writes each tile's count of selected rows; the executor turns the counts into
     * their exclusive prefix sums; pass 1 runs the operations again and writes each tile's rows from its offset on,
     * placed by a block scan. No atomics, and the output order is the same on every run (tile by tile; within a
     * tile, thread by thread).
     */
    TWO_PASS(SinkLayout.Rows.TWO_PASS, "two passes: tile counts, their prefix sum, then the rows at their tile's offset") {
        @Override
        void emit(MaterializeOp op, List<Expr> outputs, List<CType> types, String in) {
            op.passParams();
            StringBuilder body = op.k.body;
            body.append(in).append("if (pass == 0) {\n");
            op.countTile(in + "    ", null);
            body.append(in).append("} else {\n");
            body.append(in).append("    // pass 1: the tile's rows from its offset on (the exclusive prefix sum of the counts)\n");
            op.writeRows(outputs, types, in + "    ", "tile_rows[base / TILE]");
            body.append(in).append("}\n");
        }
    },
    /**
     * Pass 0 runs the operations and writes the selection as a bitmap (bit i * TPB + t of a tile for item i of thread
     * t, one 32-bit word per warp and item from __ballot_sync) and each tile's count; pass 1 skips the tiles without
     * rows, takes the flags from the bitmap instead of evaluating the filters and probes again, probes again only
     * where the outputs read a payload, and writes the rows as twopass does (same order).
     */
    BITMAP(SinkLayout.Rows.BITMAP, "two passes: selection bitmap and tile counts, their prefix sum, then the rows") {
        @Override
        void emit(MaterializeOp op, List<Expr> outputs, List<CType> types, String in) {
            op.passParams();
            op.k.params.add(new KernelParam(KernelParam.Kind.SEL_BITS, -1, "sel_bits", "unsigned int* __restrict__"));
            op.countTile(in, "sel_bits");
            op.secondPassFromBitmap(outputs, types, in);
        }
    };

    /** The genome's value, as {@link SinkLayout.Rows} names it. */
    final String value;
    /** What the kernel's comment says. */
    final String what;

    RowPlacement(String value, String what) {
        this.value = value;
        this.what = what;
    }

    static RowPlacement of(String value) {
        for (RowPlacement r : values()) {
            if (r.value.equals(value)) {
                return r;
            }
        }
        throw new IllegalArgumentException("mat=" + value);
    }

    /** Emits the placement and writing of the rows, the output columns' parameters already added. */
    abstract void emit(MaterializeOp op, List<Expr> outputs, List<CType> types, String in);
}
