package io.tessera.backend.lower;

import io.tessera.plan.Op;

/**
 * A dictionary code compared with a constant string, through the order-preserving dictionary: the comparison of
 * the code with one number looked up once per query. Equality compares with the constant's code (-1 when it is not
 * in the dictionary, which no row has); an order comparison with the first code at or above the constant
 * ({@link Lookup#LOWER_BOUND}) or above it ({@link Lookup#UPPER_BOUND}), so a constant absent from the dictionary
 * still orders correctly.
 *
 * @param lookup what is looked up in the dictionary
 * @param op     how the row's code compares with it: EQ, NE, LT or GE
 */
public record DictionaryBound(Lookup lookup, Op op) {

    public enum Lookup {
        /** the constant's own code. */
        CODE,
        /** the first code whose string is at or above the constant. */
        LOWER_BOUND,
        /** the first code whose string is above the constant. */
        UPPER_BOUND
    }

    /** The lowering of {@code code <op> constant}. */
    public static DictionaryBound of(Op op) {
        return switch (op) {
            case EQ -> new DictionaryBound(Lookup.CODE, Op.EQ);
            case NE -> new DictionaryBound(Lookup.CODE, Op.NE);
            case LT -> new DictionaryBound(Lookup.LOWER_BOUND, Op.LT);
            case LE -> new DictionaryBound(Lookup.UPPER_BOUND, Op.LT);
            case GT -> new DictionaryBound(Lookup.UPPER_BOUND, Op.GE);
            case GE -> new DictionaryBound(Lookup.LOWER_BOUND, Op.GE);
            default -> throw new IllegalArgumentException("not a comparison: " + op);
        };
    }

    /** The dictionary method that looks the number up: {@code code}, {@code lowerBound} or {@code upperBound}. */
    public String method() {
        return switch (lookup) {
            case CODE -> "code";
            case LOWER_BOUND -> "lowerBound";
            case UPPER_BOUND -> "upperBound";
        };
    }

    public String symbol() {
        return Comparison.symbol(op);
    }
}
