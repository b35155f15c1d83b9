package io.tessera.backend.cuda.gen;

/**
 * A generated C expression, its register type, for VARCHAR codes the key of their dictionary, and {@code isNull}: a C
 * condition true for the items whose value is NULL, or null for a value that is never NULL on the device. Where the
 * value is NULL, {@code v} holds its type's zero (0, 0.0, false), so that arithmetic over it raises no error and a
 * condition that is NULL reads as not true ({@link DeviceNulls}).
 */
record CValue(String v, CType type, String dict, String isNull) {

    CValue(String v, CType type, String dict) {
        this(v, type, dict, null);
    }

    static CValue of(String v, CType type) {
        return new CValue(v, type, null, null);
    }

    /** Another expression of the same value's nullness (a conversion that keeps zero as zero). */
    CValue as(String text, CType t) {
        return new CValue(text, t, null, isNull);
    }

    boolean nullable() {
        return isNull != null;
    }
}
