package io.tessera.backend.cuda.gen;

import io.tessera.plan.AggCall;
import io.tessera.plan.Sink;

import java.util.List;

/**
 * Where GROUP_AGGREGATE keeps its groups (the genome's {@code agg}): a dense global array updated with atomics
 * ({@code dense}), a dense array per block in shared memory ({@code wglocal}) or per thread ({@code independent})
 * merged into the global one at the end, or a global hash table ({@code shared}).
 */
sealed interface GroupTable permits HashGroupTable, DenseGroupTable {

    static GroupTable of(String mode) {
        return switch (mode) {
            case "dense" -> GlobalDenseGroupTable.INSTANCE;
            case "wglocal" -> BlockLocalGroupTable.INSTANCE;
            case "independent" -> ThreadLocalGroupTable.INSTANCE;
            case "shared" -> HashGroupTable.INSTANCE;
            default -> throw new IllegalArgumentException("agg=" + mode);
        };
    }

    /** The genome's value. */
    String mode();

    /** What the kernel's comment says about the table. */
    String describe();

    /**
     * Emits the per-row updates of the selected rows (and the table's set-up and merge), the group keys of item i
     * being {@code keys}; returns the sink's device layout.
     */
    SinkLayout.Aggregate emit(KernelBuilder k, Sink.GroupAggregate ga, List<AggCall> calls, List<SinkLayout.Agg> aggs,
                              List<CValue> keys);

    /** A group key as a 64-bit word. */
    static String asKeyWord(CValue k) {
        if (k.type() == CType.BOOL) {
            return "(" + k.v() + " ? 1LL : 0LL)";
        }
        return k.type() == CType.LONG ? k.v() : "(long long)" + k.v();
    }
}
