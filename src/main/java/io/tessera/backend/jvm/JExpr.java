package io.tessera.backend.jvm;

/**
 * A generated Java expression: its value text, its is-NULL text ("false" when it cannot be NULL), the Java
 * kind of the value, and for CODE values the dictionary the code indexes.
 */
record JExpr(String v, String n, JKind kind, String dict) {

    static JExpr of(String v, String n, JKind kind) {
        return new JExpr(v, n, kind, null);
    }

    boolean nullable() {
        return !n.equals("false");
    }

    /** SQL TRUE, for a boolean: not NULL and true. */
    String isTrue() {
        return nullable() ? "(!" + n + " && " + v + ")" : v;
    }
}
