package io.tessera.backend.lower;

import io.tessera.plan.Op;
import io.tessera.storage.DataType;
import io.tessera.storage.TypeKind;

/**
 * The domain in which two values are compared: strings (dictionary codes or text), booleans as 0 and 1, doubles
 * (a DECIMAL divided by 10^scale), exact decimals at the larger of the two scales (each side rescaled), or integers.
 *
 * @param commonScale DECIMAL: the scale both sides are rescaled to
 */
public record Comparison(Domain domain, int commonScale) {

    public enum Domain {
        STRING, BOOLEAN, DOUBLE, DECIMAL, INTEGER
    }

    public static Comparison of(DataType a, DataType b) {
        TypeKind ka = a.kind();
        TypeKind kb = b.kind();
        if (ka == TypeKind.VARCHAR || kb == TypeKind.VARCHAR) {
            return new Comparison(Domain.STRING, 0);
        }
        if (ka == TypeKind.BOOLEAN || kb == TypeKind.BOOLEAN) {
            return new Comparison(Domain.BOOLEAN, 0);
        }
        if (ka == TypeKind.DOUBLE || kb == TypeKind.DOUBLE) {
            return new Comparison(Domain.DOUBLE, 0);
        }
        if (ka == TypeKind.DECIMAL || kb == TypeKind.DECIMAL) {
            return new Comparison(Domain.DECIMAL, Math.max(Scale.of(a), Scale.of(b)));
        }
        return new Comparison(Domain.INTEGER, 0);
    }

    /** The infix symbol of a comparison operator in C-like languages. */
    public static String symbol(Op op) {
        return switch (op) {
            case EQ -> "==";
            case NE -> "!=";
            case LT -> "<";
            case LE -> "<=";
            case GT -> ">";
            default -> ">=";
        };
    }
}
