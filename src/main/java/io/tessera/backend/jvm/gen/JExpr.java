package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;

/**
 * A generated Java expression: its value text, its is-NULL text ("false" when it cannot be NULL), the Java
 * kind of the value, and for CODE values the dictionary the code indexes.
 */
public record JExpr(String v, String n, ValueKind kind, String dict) {

    static JExpr of(String v, String n, ValueKind kind) {
        return new JExpr(v, n, kind, null);
    }

    public boolean nullable() {
        return !n.equals("false");
    }

    /** SQL TRUE, for a boolean: not NULL and true. */
    public String isTrue() {
        return nullable() ? "(!" + n + " && " + v + ")" : v;
    }
}
