package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.Sink;
import io.tessera.variant.CudaVariantSpace;

import java.util.List;

/** agg=shared: a global hash table of the groups (their keys as 64-bit words), found or claimed per row, atomics. */
final class HashGroupTable implements GroupTable {

    static final HashGroupTable INSTANCE = new HashGroupTable();

    private HashGroupTable() {
    }

    @Override
    public String mode() {
        return "shared";
    }

    @Override
    public String describe() {
        return "global hash table, atomics";
    }

    @Override
    public SinkLayout.Aggregate emit(KernelBuilder k, Sink.GroupAggregate ga, List<AggCall> calls,
                                     List<SinkLayout.Agg> aggs, List<CValue> keys) {
        String in = KernelBuilder.IN;
        int nk = keys.size();
        StringBuilder body = k.body;
        k.params.add(new KernelParam(KernelParam.Kind.GROUP_KEYS, -1, "g_keys", "long long* __restrict__"));
        k.params.add(new KernelParam(KernelParam.Kind.GROUP_STATE, -1, "g_state", "int* __restrict__"));
        k.params.add(new KernelParam(KernelParam.Kind.GROUP_LOG2, -1, "g_log2", "const int"));
        String hash = "murmur".equals(k.g.get(CudaVariantSpace.HASH)) ? "tessera::HashMurmur" : "tessera::HashMultiplyShift";
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        body.append(in).append("        const long long key[").append(nk).append("] = {");
        for (int c = 0; c < nk; c++) {
            body.append(c == 0 ? "" : ", ").append(GroupTable.asKeyWord(keys.get(c)));
        }
        body.append("};\n");
        body.append(in).append("        const long long grp = tessera::q::GroupFind<").append(nk).append(", ").append(hash)
                .append(">(key, g_keys, g_state, g_log2, err);\n");
        body.append(in).append("        if (grp >= 0) {\n");
        AggCode.atomicUpdates(k, calls, aggs, in + "            ", "grp", "g_rows", "g_v", "g_n");
        body.append(in).append("        }\n");
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
        return new SinkLayout.Aggregate(mode(), aggs, new long[nk], new long[nk], 0, nk);
    }
}
