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
        // a key that can be NULL holds its type's zero there: a BUILD drops such a row and a probe finds no slot
        // for it (nullCondition), so the zero is never looked up
        if (keys.size() == 1) {
            return k.gen.gen(keys.get(0)).v();
        }
        boolean narrow = CudaCapabilities.keyType(keys.get(0)) == CType.INT && CudaCapabilities.keyType(keys.get(1)) == CType.INT;
        return "tessera::q::" + (narrow ? "PackKeys(" : "PackKeysIf32(") + k.gen.gen(keys.get(0)).v() + ", "
                + k.gen.gen(keys.get(1)).v() + ")";
    }

    /**
     * The C condition that one of the keys is NULL for item i, or null where none can be: such a key never matches,
     * as on the JVM (a BUILD leaves its row out, a probe finds no slot for it).
     */
    static String nullCondition(KernelBuilder k, List<Expr> keys) {
        String any = null;
        for (Expr key : keys) {
            if (k.mayBeNull(key)) { // gen only then: a constant key's value is a launch parameter, made once
                any = DeviceNulls.or(any, k.gen.gen(key).isNull());
            }
        }
        return any;
    }

    /** Clears the selection of the items whose key is NULL ({@code nullCondition}): they never match. */
    static void dropNullKeys(KernelBuilder k, String nullCondition, String in) {
        k.body.append(in).append("#pragma unroll\n");
        k.body.append(in).append("for (int i = 0; i < IPT; ++i) if (").append(nullCondition)
                .append(") flags[i] = 0;  // a NULL key never matches\n");
        k.narrowed = true;
    }
}
