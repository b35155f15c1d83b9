package io.tessera.backend.cuda.gen;

import io.tessera.plan.Sink;

/** Linear probing: a key goes to the first free slot from its hash on; a probe walks from there to the key or a gap. */
final class LinearJoinTable implements JoinTable {

    static final LinearJoinTable INSTANCE = new LinearJoinTable();

    private LinearJoinTable() {
    }

    @Override
    public String find(JoinLayout t, String j, String key, boolean narrowSlots, boolean sharedBits, boolean predicated) {
        return "tessera::q::LinearFind<" + t.hashStruct() + ", " + t.keyType().c + ">(" + j + "_keys, " + key + ", "
                + JoinTable.emptyKey(t) + ", " + j + "_log2)";
    }

    @Override
    public void build(KernelBuilder k, Sink.Build b, JoinLayout t, String in) {
        BuildOp.onePass(k, b, t, in, in + "        const long long slot = tessera::q::LinearInsert<" + t.hashStruct()
                + ">(build_keys, key, build_log2, err);\n");
    }
}
