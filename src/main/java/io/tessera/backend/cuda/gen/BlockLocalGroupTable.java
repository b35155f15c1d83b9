package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.variant.CudaVariantSpace;

import java.util.List;

/**
 * agg=wglocal (WORKGROUPLOCAL): each block's groups in dynamic shared memory, updated with shared-memory atomics and
 * merged into the global arrays at the block's end. The table's words come first in the kernel's shared memory, the
 * bitmaps of bm=shared after them.
 */
final class BlockLocalGroupTable extends DenseGroupTable {

    static final BlockLocalGroupTable INSTANCE = new BlockLocalGroupTable();

    private BlockLocalGroupTable() {
    }

    @Override
    public String mode() {
        return "wglocal";
    }

    @Override
    public String describe() {
        return "dense array in shared memory per block";
    }

    @Override
    void setUp(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots) {
        StringBuilder prologue = k.prologue;
        prologue.append("    // WORKGROUPLOCAL: this block's groups in dynamic shared memory, merged into the global arrays at its end\n");
        long words = 0;
        for (int a = 0; a < aggs.size(); a++) {
            SinkLayout.Agg s = aggs.get(a);
            if (s.valueType() != null) {
                prologue.append("    ").append(s.valueType().c).append("* const s_v").append(a).append(" = reinterpret_cast<")
                        .append(s.valueType().c).append("*>(tessera_smem + ").append(words).append(");\n");
                words += slots;
            }
            if (s.ownCount()) {
                prologue.append("    unsigned long long* const s_n").append(a).append(" = tessera_smem + ").append(words).append(";\n");
                words += slots;
            }
        }
        // row counts last: 32 bits when no block can count more (native shared atomics; 64-bit ones loop)
        boolean narrow = CudaVariantSpace.narrowRowCounts(k.p);
        String countType = narrow ? "unsigned int" : "unsigned long long";
        prologue.append("    ").append(countType).append("* const s_rows = reinterpret_cast<").append(countType)
                .append("*>(tessera_smem + ").append(words).append(");\n");
        words += narrow ? (slots + 1) / 2 : slots;
        k.sinkSharedWords = words;
        initTable(k, aggs, "s", slots, "threadIdx.x", "TPB");
        prologue.append("    __syncthreads();\n");
    }

    @Override
    void update(KernelBuilder k, List<AggCall> calls, List<SinkLayout.Agg> aggs, String in, String grp, long slots) {
        AggCode.atomicUpdates(k, calls, aggs, in, grp, "s_rows", "s_v", "s_n");
    }

    @Override
    void finish(KernelBuilder k, List<SinkLayout.Agg> aggs, long slots) {
        k.epilogue.append("    __syncthreads();\n");
        mergeTable(k, aggs, "s", slots, "threadIdx.x", "TPB");
    }
}
