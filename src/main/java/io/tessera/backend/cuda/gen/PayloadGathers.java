package io.tessera.backend.cuda.gen;

import io.tessera.plan.KeyRange;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The fetch of a join table's payload into registers, at a probe (gather=early) or put off until an operation or the
 * sink reads it (gather=late, perfect tables): {@code j<id>_p<c>[i]} from the payload array at {@code slot}, widened
 * from its narrow form under pay=narrow.
 */
final class PayloadGathers {

    private PayloadGathers() {
    }

    /** A perfect table's payload columns still to fetch, and the key expression their slot comes from. */
    record Deferred(JoinLayout table, List<Integer> columns, String key, boolean narrowSlots) {
        String j() {
            return "j" + table.joinId();
        }
    }

    /** Fetches payload columns {@code payloads} of table t at {@code slot} for item i. */
    static void gather(KernelBuilder k, JoinLayout t, List<Integer> payloads, String in) {
        gather(k, t, payloads, in, "slot");
    }

    /** Fetches payload columns {@code payloads} of table t at index {@code at} (a chained table's row) for item i. */
    static void gather(KernelBuilder k, JoinLayout t, List<Integer> payloads, String in, String at) {
        String j = "j" + t.joinId();
        for (int c : payloads) {
            String stored = j + "_pay" + c + "[" + at + "]";
            KeyRange r = t.payloadRanges().get(c);
            k.body.append(in).append(j).append("_p").append(c).append("[i] = ");
            if (r == null) {
                k.body.append(stored).append(";\n");
            } else if (t.payloadTypes().get(c) == CType.INT) {
                k.body.append("(int)((unsigned int)").append(stored).append(" + (unsigned int)")
                        .append(CudaExprGen.longLiteral(r.min())).append(");  // stored narrow, as value - min\n");
            } else {
                k.body.append("(long long)").append(stored).append(" + ").append(CudaExprGen.longLiteral(r.min()))
                        .append(";  // stored narrow, as value - min\n");
            }
        }
    }

    /**
     * Fetches perfect tables' payload for the rows still selected, at the first operation that reads it: one loop
     * for all the tables that operation needs, so that their loads are in flight together.
     */
    static void deferred(KernelBuilder k, List<Deferred> due, String in) {
        StringBuilder body = k.body;
        body.append(in).append("// PROBE ").append(due.stream().map(Deferred::j).collect(Collectors.joining(", ")))
                .append(": payload for the rows the probes and filters since kept\n");
        body.append(in).append("#pragma unroll\n");
        body.append(in).append("for (int i = 0; i < IPT; ++i) {\n");
        body.append(in).append("    if (flags[i]) {\n");
        for (Deferred d : due) {
            body.append(in).append("        {\n");
            body.append(in).append(d.narrowSlots()
                    ? "            const int slot = (int)((unsigned int)" + d.key() + " - (unsigned int)" + d.j() + "_min);\n"
                    : "            const long long slot = (long long)" + d.key() + " - " + d.j() + "_min;\n");
            gather(k, d.table(), d.columns(), in + "            ");
            body.append(in).append("        }\n");
        }
        body.append(in).append("    }\n");
        body.append(in).append("}\n");
    }
}
