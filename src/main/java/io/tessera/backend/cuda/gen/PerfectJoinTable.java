package io.tessera.backend.cuda.gen;

import io.tessera.plan.Sink;

/**
 * The perfect table: a presence bitmap (bit = key - min) beside the payload arrays, over the key range the
 * statistics give. A probe reads one bit, and bitmaps are small enough to stay in L1 and L2 where key arrays would
 * not; a build sets the bit with an atomic OR.
 */
final class PerfectJoinTable implements JoinTable {

    static final PerfectJoinTable INSTANCE = new PerfectJoinTable();

    private PerfectJoinTable() {
    }

    @Override
    public String keyArray() {
        return "bits";
    }

    @Override
    public String keyElement(CType kt) {
        return "unsigned int";
    }

    @Override
    public void probeSizeParams(KernelBuilder k, int joinId, String j) {
        k.param(new KernelParam(KernelParam.Kind.PROBE_MIN, joinId, j + "_min", "const long long"));
        k.param(new KernelParam(KernelParam.Kind.PROBE_SLOTS, joinId, j + "_slots", "const long long"));
    }

    @Override
    public void buildSizeParams(KernelBuilder k, int joinId) {
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_MIN, joinId, "build_min", "const long long"));
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_SLOTS, joinId, "build_slots", "const long long"));
    }

    @Override
    public String find(JoinLayout t, String j, String key, boolean narrowSlots, boolean sharedBits, boolean predicated) {
        return "tessera::q::PerfectFindBit" + (narrowSlots ? "32<" : "<") + sharedBits + ">(" + j
                + (sharedBits ? "_sbits" : "_bits") + (narrowSlots ? ", " : ", (long long)") + key + ", " + j + "_min, "
                + j + "_slots" + (predicated ? ", flags[i])" : ")");
    }

    @Override
    public void build(KernelBuilder k, Sink.Build b, JoinLayout t, String in) {
        String slot = in + "        long long slot = (long long)key - build_min;\n"
                + in + "        if (slot < 0 || slot >= build_slots) {\n"
                + in + "            err |= TESSERA_ERR_TABLE_FULL;  // a key outside the range the statistics gave\n"
                + in + "            slot = -1;\n"
                + in + "        } else {\n"
                + in + "            atomicOr(&build_bits[slot >> 5], 1u << (slot & 31));\n"
                + in + "        }\n";
        BuildOp.onePass(k, b, t, in, slot);
    }
}
