package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.ValueKind;
import io.tessera.plan.AggFunction;
import io.tessera.plan.HolisticOptions;
import io.tessera.storage.DataType;

/**
 * One aggregate as the group tables keep it: a count per group, a long or double value per group (by the
 * argument's kind), a string (MIN and MAX of computed strings), a second double (a statistic's sum of squared
 * deviations), or a set of distinct values. {@code argDict}: the dictionary of an argument of codes (MIN of a
 * CASE of dictionary columns returns one of its codes). A holistic aggregate keeps a {@link ValueList} per group
 * and its {@code options} (null for the others).
 */
public record AggSpec(AggFunction function, ValueKind argKind, DataType argType, DataType resultType, String argDict,
                      HolisticOptions options) {

    public AggSpec(AggFunction function, ValueKind argKind, DataType argType, DataType resultType) {
        this(function, argKind, argType, resultType, null, null);
    }

    /**
     * The value is a double: a DOUBLE argument's, a statistic's running mean of any number, or the continuous
     * quantile of integers.
     */
    public boolean doubleValue() {
        return argKind == ValueKind.DOUBLE || function.statistic() || function == AggFunction.PRODUCT
                || function == AggFunction.ENTROPY || function == AggFunction.MAD
                || function == AggFunction.QUANTILE_CONT && resultType.kind() == io.tessera.storage.TypeKind.DOUBLE;
    }

    /** The result is a Java string: a string value, STRING_AGG's, or a holistic aggregate's of computed strings. */
    public boolean stringResult() {
        return stringValue() || function == AggFunction.STRING_AGG
                || function.holistic() && function != AggFunction.ENTROPY && argKind == ValueKind.STRING;
    }

    public boolean hasValue() {
        return switch (function) {
            case SUM, SUM0, MIN, MAX, AVG, SINGLE_VALUE, ANY_VALUE -> true;
            case STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP -> true;
            case PRODUCT, BIT_AND, BIT_OR, BIT_XOR -> true;
            default -> false;
        };
    }

    /** The value is a Java string (MIN, MAX, ANY_VALUE of strings computed by the query, not dictionary codes). */
    public boolean stringValue() {
        return argKind == ValueKind.STRING && hasValue();
    }

    public boolean isMin() {
        return function == AggFunction.MIN;
    }

    public boolean isMax() {
        return function == AggFunction.MAX;
    }
}
