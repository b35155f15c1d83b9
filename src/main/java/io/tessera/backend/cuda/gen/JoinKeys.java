package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;

import java.util.List;

/**
 * The key a device join table holds for a join's key columns: one 32- or 64-bit integer key as it is, or two
 * keys packed into one 64-bit key (the first in the high word, the second's 32 bits in the low word), which is
 * one-to-one over keys of 32 bits, so that two rows have equal packed keys exactly when both their keys are equal.
 * A 64-bit key is packed only when its value fits in 32 bits (TPC-H's BIGINT order keys up to scale factor 300);
 * one that does not packs to the tables' empty marker, which a probe never finds and a build reports, and the query
 * then runs on the JVM, as it does for a packed key equal to the marker (the first key INT_MIN, the second 0).
 */
final class JoinKeys {

    private JoinKeys() {
    }

    /** Why keys cannot key a device table, or null when they can. */
    static String reason(List<Expr> keys) {
        if (keys.size() == 1) {
            return CudaCapabilities.keyType(keys.get(0)) == null ? "a join key of type " + keys.get(0).type() : null;
        }
        if (keys.size() != 2 || !GpuJoinSwitches.multiKeyJoins()) {
            return "a join on " + keys.size() + " keys";
        }
        for (Expr k : keys) {
            if (CudaCapabilities.keyType(k) == null) {
                return "a join on 2 keys, not both integers (" + keys.get(0).type() + ", " + keys.get(1).type() + ")";
            }
        }
        return null;
    }

    /** The C type of the table's key for keys that {@link #reason} accepts. */
    static CType type(List<Expr> keys) {
        return keys.size() == 1 ? CudaCapabilities.keyType(keys.get(0)) : CType.LONG;
    }

    /** Whether the keys are packed (two keys). */
    static boolean packed(List<Expr> keys) {
        return keys.size() > 1;
    }

    /** The C expression of the table's key for item i, the keys' columns loaded. */
    static String expr(KernelBuilder k, List<Expr> keys) {
        if (keys.size() == 1) {
            return k.stored(keys.get(0)).v();
        }
        boolean narrow = CudaCapabilities.keyType(keys.get(0)) == CType.INT && CudaCapabilities.keyType(keys.get(1)) == CType.INT;
        return "tessera::q::" + (narrow ? "PackKeys(" : "PackKeysIf32(") + k.stored(keys.get(0)).v() + ", "
                + k.stored(keys.get(1)).v() + ")";
    }
}
