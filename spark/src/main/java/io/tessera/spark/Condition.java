package io.tessera.spark;

import java.util.ArrayList;
import java.util.List;

/** A SQL condition with a {@code ?} for each value, and the values, in the order of their marks. */
record Condition(String sql, List<Object> values) implements java.io.Serializable {

    Condition {
        values = List.copyOf(values);
    }

    static Condition of(String sql) {
        return new Condition(sql, List.of());
    }

    /** {@code (a OP b)}: the two conditions' text joined, their values in order. */
    static Condition join(String op, Condition a, Condition b) {
        List<Object> v = new ArrayList<>(a.values);
        v.addAll(b.values);
        return new Condition("(" + a.sql + " " + op + " " + b.sql + ")", v);
    }
}
