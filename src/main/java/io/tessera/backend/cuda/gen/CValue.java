package io.tessera.backend.cuda.gen;

/** A generated C expression, its register type, and for VARCHAR codes the key of their dictionary. */
record CValue(String v, CType type, String dict) {
    static CValue of(String v, CType type) {
        return new CValue(v, type, null);
    }
}
