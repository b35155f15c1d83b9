package io.tessera.plan;

import io.tessera.storage.DataType;

/** One aggregate of a sink: function, argument (null for COUNT(*)), result type. */
public record AggCall(AggFunction function, Expr arg, Expr filter, DataType type, boolean nullable, String name) {
    @Override
    public String toString() {
        String a = arg == null ? "*" : arg.toString();
        String f = filter == null ? "" : " filter " + filter;
        String name = function.name().toLowerCase(java.util.Locale.ROOT).replace("_star", "");
        return (function.distinct() ? name.replace("_distinct", "") + "(distinct " + a + ")" : name + "(" + a + ")") + f;
    }
}
