package io.tessera.backend.cuda.gen;

import io.tessera.plan.Operation;

/**
 * FILTER over the scanned tile: loads the columns the condition reads and clears the flags of the items it rejects,
 * under a branch per item, or (pred=predicated) without one, an error counting only for the items still selected.
 */
final class FilterOp {

    private FilterOp() {
    }

    static void emit(KernelBuilder k, Operation.Filter f) {
        String in = KernelBuilder.IN;
        StringBuilder body = k.body;
        body.append(in).append("// FILTER ").append(KernelBuilder.comment(k.codeNames.expr(f.condition()))).append('\n');
        k.load(f.condition(), in);
        String cond = k.gen.condition(f.condition());
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        if (k.predicated && !cond.contains("err")) {
            body.append(in).append("    flags[i] = flags[i] & (int)").append(cond).append(";\n");
        } else if (k.predicated) {
            // evaluate for every item without a branch; errors count only for rows still selected
            body.append(in).append("    int err_row = 0;\n");
            body.append(in).append("    bool hit;\n");
            body.append(in).append("    {\n");
            body.append(in).append("        int& err = err_row;\n");
            body.append(in).append("        hit = ").append(cond).append(";\n");
            body.append(in).append("    }\n");
            body.append(in).append("    err |= flags[i] ? err_row : 0;\n");
            body.append(in).append("    flags[i] = flags[i] & (int)hit;\n");
        } else {
            body.append(in).append("    if (flags[i]) flags[i] = ").append(cond).append(";\n");
        }
        body.append(in).append("}\n");
        k.narrowed = true;
        k.model.narrow(k.estimates.of(f.condition()));
    }
}
