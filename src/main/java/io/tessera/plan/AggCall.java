package io.tessera.plan;

import io.tessera.storage.DataType;

/**
 * One aggregate of a sink: function, argument (null for COUNT(*)), result type, and for a holistic function its
 * options (null for the others).
 */
public record AggCall(AggFunction function, Expr arg, Expr filter, DataType type, boolean nullable, String name,
                      HolisticOptions options) {

    public AggCall(AggFunction function, Expr arg, Expr filter, DataType type, boolean nullable, String name) {
        this(function, arg, filter, type, nullable, name, null);
    }

    @Override
    public String toString() {
        String a = arg == null ? "*" : arg.toString();
        String f = filter == null ? "" : " filter " + filter;
        String name = function.name().toLowerCase(java.util.Locale.ROOT).replace("_star", "");
        if (options != null) {
            String extra = function == AggFunction.STRING_AGG ? ", " + (options.separator() == null ? "NULL"
                    : "'" + options.separator().replace("'", "''") + "'")
                    : function == AggFunction.MODE || function == AggFunction.ENTROPY
                    || function == AggFunction.MAD ? "" : ", " + options.fraction();
            String order = options.order().isEmpty() ? "" : " order by " + String.join(", ",
                    options.order().stream().map(HolisticOptions.OrderKey::toString).toList());
            return name + "(" + (options.distinct() ? "distinct " : "") + a + extra + order + ")" + f;
        }
        return (function.distinct() ? name.replace("_distinct", "") + "(distinct " + a + ")" : name + "(" + a + ")") + f;
    }
}
