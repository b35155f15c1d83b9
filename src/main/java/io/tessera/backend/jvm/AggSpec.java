package io.tessera.backend.jvm;

import io.tessera.plan.AggFunction;
import io.tessera.storage.DataType;

/**
 * One aggregate as the group tables keep it: a count per group, a long or double value per group (by the
 * argument's kind), or a set of distinct values.
 */
public record AggSpec(AggFunction function, JKind argKind, DataType argType, DataType resultType) {

    public boolean doubleValue() {
        return argKind == JKind.DOUBLE;
    }

    public boolean hasValue() {
        return switch (function) {
            case SUM, SUM0, MIN, MAX, AVG, SINGLE_VALUE, ANY_VALUE -> true;
            default -> false;
        };
    }

    public boolean isMin() {
        return function == AggFunction.MIN;
    }

    public boolean isMax() {
        return function == AggFunction.MAX;
    }
}
