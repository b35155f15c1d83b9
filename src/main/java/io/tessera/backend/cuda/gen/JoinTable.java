package io.tessera.backend.cuda.gen;

import io.tessera.plan.Sink;

/**
 * How one kind of device join table (the genome's {@code ht}) is built and probed: the perfect table (a presence
 * bitmap over the key range), linear probing, cuckoo hashing with 2 to 4 functions, and the build's keys sorted. {@link BuildOp} and {@link
 * ProbeOp} do what all kinds share and ask the table for the rest: its parameters, its insert, its find.
 */
sealed interface JoinTable permits PerfectJoinTable, LinearJoinTable, CuckooJoinTable, SortedJoinTable {

    static JoinTable of(JoinLayout.Kind kind) {
        return switch (kind) {
            case PERFECT -> PerfectJoinTable.INSTANCE;
            case LINEAR -> LinearJoinTable.INSTANCE;
            case CUCKOO2, CUCKOO3, CUCKOO4 -> new CuckooJoinTable(kind.ways);
            case SORTED_BINARY, SORTED_PARY -> new SortedJoinTable(kind);
        };
    }

    /** The suffix of the key array's name: {@code bits} for a presence bitmap, else {@code keys}. */
    default String keyArray() {
        return "keys";
    }

    /** The element type of the key array for keys of C type {@code kt}. */
    default String keyElement(CType kt) {
        return kt.c;
    }

    /** A probe's parameters after the key array: a hashed table's log2 size. */
    default void probeSizeParams(KernelBuilder k, int joinId, String j) {
        k.param(new KernelParam(KernelParam.Kind.PROBE_LOG2, joinId, j + "_log2", "const int"));
    }

    /** A build's parameters after the key and payload arrays: a hashed table's log2 size. */
    default void buildSizeParams(KernelBuilder k, int joinId) {
        k.params.add(new KernelParam(KernelParam.Kind.BUILD_LOG2, joinId, "build_log2", "const int"));
    }

    /**
     * The C expression a probe of join {@code j} finds the slot of {@code key} with, -1 when it is not there.
     * {@code narrowSlots}: the slot in 32-bit arithmetic; {@code sharedBits}: the bitmap copied to shared memory
     * (bm=shared); {@code predicated}: the probe runs for every item, -1 for the items not selected.
     */
    String find(JoinLayout t, String j, String key, boolean narrowSlots, boolean sharedBits, boolean predicated);

    /** The BUILD's tile body: inserts the selected rows' keys, and writes their payload at their slots. */
    void build(KernelBuilder k, Sink.Build b, JoinLayout t, String in);

    /** The empty-slot marker of a hashed table's key array, as a C constant of its key type. */
    static String emptyKey(JoinLayout t) {
        return "(" + t.keyType().c + ")" + CudaExprGen.longLiteral(t.emptyKey());
    }
}
