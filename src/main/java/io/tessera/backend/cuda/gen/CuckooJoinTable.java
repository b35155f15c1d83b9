package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Sink;

/**
 * Cuckoo hashing with {@code ways} functions: a key is in one of its candidate slots or nowhere, so a probe reads the
 * candidates and walks no run of slots. An insert moves keys that other threads placed (eviction chains), so no slot
 * is final before every insert has returned, and a payload written beside its key could be left behind when the key
 * moves on. A table with payload therefore takes two launches of the BUILD kernel: pass 0 inserts the keys, pass 1
 * (every key sitting still) finds each key and writes its payload to that slot; the build keys of a table with
 * payload are unique, so each slot has one writer.
 */
record CuckooJoinTable(int ways) implements JoinTable {

    @Override
    public String find(JoinLayout t, String j, String key, boolean narrowSlots, boolean sharedBits, boolean predicated) {
        return "tessera::q::CuckooFind<" + ways + ", " + t.hashStruct() + ", " + t.keyType().c + ">(" + j + "_keys, " + key
                + ", " + JoinTable.emptyKey(t) + ", " + j + "_log2)";
    }

    @Override
    public void build(KernelBuilder k, Sink.Build b, JoinLayout t, String in) {
        StringBuilder body = k.body;
        String kt = t.keyType().c;
        String empty = JoinTable.emptyKey(t);
        String fns = ways + ", " + t.hashStruct();
        String key = JoinKeys.expr(k, b.keys());
        boolean payload = !b.payload().isEmpty();
        String pad = in;
        if (payload) {
            k.params.add(new KernelParam(KernelParam.Kind.PASS, -1, "pass", "const int"));
            body.append(in).append("if (pass == 0) {\n");
            body.append(in).append("    // pass 0: the keys; a slot is final only once every insert has returned\n");
            pad = in + "    ";
        }
        body.append(pad).append("#pragma unroll\n");
        body.append(pad).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(pad).append("    if (flags[i]) {\n");
        body.append(pad).append("        const ").append(kt).append(" key = ").append(key).append(";\n");
        body.append(pad).append("        tessera::q::CuckooInsert<").append(fns).append(">(build_keys, key, ").append(empty)
                .append(", build_log2, err);\n");
        body.append(pad).append("    }\n");
        body.append(pad).append("}\n");
        if (!payload) {
            return;
        }
        body.append(in).append("} else {\n");
        body.append(pad).append("// pass 1: the keys sit still; each row's payload goes to the slot of its key\n");
        for (Expr e : b.payload()) {
            k.load(e, pad);
        }
        if (BuildOp.expanded(k)) {
            ChainedRows.reservePlaces(k, pad); // in pass 1 only, which places the rows
        }
        body.append(pad).append("#pragma unroll\n");
        body.append(pad).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(pad).append("    if (flags[i]) {\n");
        body.append(pad).append("        const ").append(kt).append(" key = ").append(key).append(";\n");
        body.append(pad).append("        const long long slot = tessera::q::CuckooFind<").append(fns).append(", ").append(kt)
                .append(">(build_keys, key, ").append(empty).append(", build_log2);\n");
        body.append(pad).append("        if (slot >= 0) {\n");
        BuildOp.placeRow(k, b, t, pad + "            ");
        body.append(pad).append("        }\n");
        body.append(pad).append("    }\n");
        body.append(pad).append("}\n");
        body.append(in).append("}\n");
    }
}
